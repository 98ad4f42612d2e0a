package dev.mnemo.llm;

/**
 * Tokens a request consumed. Cached input tokens are part of {@code inputTokens}; reasoning tokens
 * are part of {@code outputTokens}.
 */
public record TokenUsage(long inputTokens, long cachedInputTokens, long outputTokens, long reasoningTokens) {

    /** No tokens at all. */
    public static final TokenUsage ZERO = new TokenUsage(0, 0, 0, 0);

    public TokenUsage {
        requireNonNegative("inputTokens", inputTokens);
        requireNonNegative("cachedInputTokens", cachedInputTokens);
        requireNonNegative("outputTokens", outputTokens);
        requireNonNegative("reasoningTokens", reasoningTokens);
    }

    /** The sum of both usages, component by component. */
    public TokenUsage plus(TokenUsage other) {
        return new TokenUsage(
                inputTokens + other.inputTokens,
                cachedInputTokens + other.cachedInputTokens,
                outputTokens + other.outputTokens,
                reasoningTokens + other.reasoningTokens);
    }

    /** Input plus output tokens. */
    public long totalTokens() {
        return inputTokens + outputTokens;
    }

    private static void requireNonNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative, was " + value);
        }
    }
}
