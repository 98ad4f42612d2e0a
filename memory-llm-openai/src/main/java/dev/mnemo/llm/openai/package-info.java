/**
 * A {@link dev.mnemo.llm.LanguageModel} for OpenAI, Azure OpenAI and OpenAI-compatible servers
 * (Ollama, vLLM, llama.cpp server, LM Studio): {@link dev.mnemo.llm.openai.OpenAiLanguageModel}, built
 * with {@code OpenAiLanguageModel.builder()} or {@code OpenAiLanguageModel.fromEnvironment()}, and the
 * {@code openai} {@link dev.mnemo.llm.LanguageModelProvider},
 * {@link dev.mnemo.llm.openai.OpenAiLanguageModelProvider}. Everything else in the package is internal.
 */
package dev.mnemo.llm.openai;
