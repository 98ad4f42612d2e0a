package dev.mnemo.llm;

import java.nio.charset.StandardCharsets;

/**
 * Counts the tokens of a text as a model would see them. Every budget in Mnemo (the summary cap,
 * tool outputs, the console's bars, the CLI's output limit) is written against this one rule.
 *
 * <p>{@link #estimate()} is Codex's estimate ({@code APPROX_BYTES_PER_TOKEN}): one token per four
 * UTF-8 bytes, rounded up. It is what every part uses unless a {@link LanguageModel} brings an
 * exact counter of its own ({@link LanguageModel#tokenCounter()}).
 */
@FunctionalInterface
public interface TokenCounter {

    /** Codex's {@code APPROX_BYTES_PER_TOKEN}. */
    int BYTES_PER_TOKEN = 4;

    /**
     * The tokens of {@code text}; 0 for the empty text.
     *
     * @param text any text
     * @return its tokens
     */
    int count(String text);

    /**
     * Four UTF-8 bytes to a token, rounded up: {@code ceil(utf8Bytes / 4)}.
     *
     * @return the estimating counter
     */
    static TokenCounter estimate() {
        return EstimatedTokens.INSTANCE;
    }

    /**
     * {@link #estimate()} as a {@code long}, for callers that hold byte counts beyond an
     * {@code int}'s range or compare against {@code long} limits.
     *
     * @param text any text
     * @return its estimated tokens
     */
    static long estimateTokens(String text) {
        return tokensOfBytes(text.getBytes(StandardCharsets.UTF_8).length);
    }

    /**
     * The estimated tokens of {@code utf8Bytes} bytes of text, rounded up.
     *
     * @param utf8Bytes a byte count, not negative
     * @return the estimated tokens
     */
    static long tokensOfBytes(long utf8Bytes) {
        if (utf8Bytes < 0) {
            throw new IllegalArgumentException("utf8Bytes must not be negative, was " + utf8Bytes);
        }
        return (utf8Bytes + BYTES_PER_TOKEN - 1) / BYTES_PER_TOKEN;
    }
}
