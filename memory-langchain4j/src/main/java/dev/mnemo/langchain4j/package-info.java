/**
 * Mnemo for LangChain4j: {@link dev.mnemo.langchain4j.MnemoLangChain4j} gives an {@code AiServices}
 * assistant Mnemo's long-term memory through LangChain4j's own hooks (request transformer, tool
 * provider, output guardrail, listeners) and a thin proxy around the service that makes each call
 * one exchange of its conversation; {@link dev.mnemo.langchain4j.TenantResolver} says whose memory a
 * call uses when there is one memory per user. It also runs Mnemo's pipeline on a LangChain4j
 * {@code ChatModel}. LangChain4j is a provided dependency: the application brings its version.
 */
package dev.mnemo.langchain4j;
