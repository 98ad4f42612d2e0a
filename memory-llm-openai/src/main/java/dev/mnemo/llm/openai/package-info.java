/** A LanguageModel for OpenAI-compatible servers (issue #6). */
package dev.mnemo.llm.openai;
