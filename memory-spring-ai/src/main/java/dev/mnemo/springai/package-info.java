/**
 * Mnemo for Spring AI: {@link dev.mnemo.springai.MnemoAdvisor} gives a {@code ChatClient} that adds
 * it long-term memory (instructions, memory tools, recording, citations), one memory for all or,
 * over {@code MemoryEngines}, one per user as {@link dev.mnemo.springai.MnemoTenantResolver} says,
 * each request in the project the advisor param {@code mnemo_project} or a
 * {@link dev.mnemo.springai.MnemoProjectResolver} names;
 * {@link dev.mnemo.springai.MnemoToolCallbackProvider} offers the memory tools to applications that
 * wire tools themselves, and {@link dev.mnemo.springai.SpringAiLanguageModel} runs Mnemo's pipeline
 * on any Spring AI {@code ChatModel}. Everything here translates; the memory itself lives in
 * {@code memory-core}.
 */
package dev.mnemo.springai;
