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
    NO_MODEL
}
