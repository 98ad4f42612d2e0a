package dev.mnemo.llm;

/**
 * Tokens a request consumed. Cached input tokens are part of {@code inputTokens}; reasoning tokens
 * are part of {@code outputTokens}.
 */
public record TokenUsage(long inputTokens, long cachedInputTokens, long outputTokens, long reasoningTokens) {

    /** No tokens at all. */
    public static final TokenUsage ZERO = new TokenUsage(0, 0, 0, 0);

    /**
     * Checks that no count is negative.
     *
     * @param inputTokens the tokens of the request, cached ones included
     * @param cachedInputTokens the input tokens the server had cached
     * @param outputTokens the tokens of the answer, reasoning included
     * @param reasoningTokens the output tokens spent on reasoning
     * @throws IllegalArgumentException when a count is negative
     */
    public TokenUsage {
        requireNonNegative("inputTokens", inputTokens);
        requireNonNegative("cachedInputTokens", cachedInputTokens);
        requireNonNegative("outputTokens", outputTokens);
        requireNonNegative("reasoningTokens", reasoningTokens);
    }

    /**
     * The sum of both usages, component by component.
     *
     * @param other the usage to add
     * @return the sum
     */
    public TokenUsage plus(TokenUsage other) {
        return new TokenUsage(
                inputTokens + other.inputTokens,
                cachedInputTokens + other.cachedInputTokens,
                outputTokens + other.outputTokens,
                reasoningTokens + other.reasoningTokens);
    }

    /**
     * Input plus output tokens.
     *
     * @return input plus output tokens
     */
    public long totalTokens() {
        return inputTokens + outputTokens;
    }

    private static void requireNonNegative(String name, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative, was " + value);
        }
    }
}
