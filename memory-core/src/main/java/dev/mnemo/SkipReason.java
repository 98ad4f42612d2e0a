package dev.mnemo;

/** Why a startup task did no pipeline work. */
public enum SkipReason {
    /** {@code generate_memories} is off. */
    GENERATION_DISABLED,
    /** The session is ephemeral. */
    EPHEMERAL_SESSION,
    /** The session is a sub-agent's. */
    SUB_AGENT_SESSION,
    /** The model's rate limits are below {@code min_rate_limit_remaining_percent}. */
    RATE_LIMITED,
    /** No model (and, for Phase 2, no consolidation agent) was configured. */
    NO_MODEL,
    /**
     * Today's (UTC) extraction tokens reached {@code max_extraction_tokens_per_day}: Phase 1 claims
     * nothing, or runs no more jobs, until the next UTC day; Phase 2 still runs on the memories
     * already extracted. Reads {@code token_budget_exhausted} ({@link #code()}).
     */
    TOKEN_BUDGET_EXHAUSTED;

    /**
     * How logs, status and metrics spell the reason: its name in lower case, e.g. {@code token_budget_exhausted}.
     *
     * @return the lower-case reason code
     */
    public String code() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
