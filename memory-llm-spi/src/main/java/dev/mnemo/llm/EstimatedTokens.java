package dev.mnemo.llm;

/** {@link TokenCounter#estimate()}: one shared, stateless instance. */
enum EstimatedTokens implements TokenCounter {
    INSTANCE;

    @Override
    public int count(String text) {
        return Math.toIntExact(TokenCounter.estimateTokens(text));
    }

    @Override
    public String toString() {
        return "TokenCounter.estimate() (4 UTF-8 bytes per token)";
    }
}
