/**
 * Mnemo for Spring AI: {@link dev.mnemo.springai.MnemoAdvisor} gives a {@code ChatClient}
 * long-term memory (instructions, memory tools, recording, citations),
 * {@link dev.mnemo.springai.MnemoToolCallbackProvider} offers the memory tools to applications
 * that wire tools themselves, and {@link dev.mnemo.springai.SpringAiLanguageModel} runs Mnemo's
 * pipeline on any Spring AI {@code ChatModel}. Everything here translates; the memory itself lives
 * in {@code memory-core}.
 */
package dev.mnemo.springai;
