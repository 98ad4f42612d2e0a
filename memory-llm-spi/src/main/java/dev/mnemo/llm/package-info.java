/**
 * The model contract Mnemo is written against: a blocking, thread-safe {@link dev.mnemo.llm.LanguageModel}
 * and the immutable value records it takes and returns.
 *
 * <p>This module depends on the JDK only, so a model client (such as {@code memory-llm-openai}) or a
 * scripted test model can implement it without pulling in the rest of Mnemo.
 */
package dev.mnemo.llm;
