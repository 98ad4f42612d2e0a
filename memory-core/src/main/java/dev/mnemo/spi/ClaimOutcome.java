package dev.mnemo.spi;

/** How an attempt to claim a job ended (Codex's claim outcomes for both phases). */
public enum ClaimOutcome {
    /** The caller now owns the job and holds its ownership token. */
    CLAIMED,
    /** Phase 1: the stored memory is already as new as the rollout. */
    SKIPPED_UP_TO_DATE,
    /** Someone else holds a live lease, or the global running cap is reached. */
    SKIPPED_RUNNING,
    /** Phase 1: the last attempt failed and its backoff has not passed. */
    SKIPPED_RETRY_BACKOFF,
    /** Phase 1: three attempts failed for this version of the rollout. */
    SKIPPED_RETRY_EXHAUSTED,
    /** Phase 2: the last attempt failed and its backoff has not passed. */
    SKIPPED_RETRY_UNAVAILABLE,
    /** Phase 2: a consolidation succeeded less than six hours ago. */
    SKIPPED_COOLDOWN
}
