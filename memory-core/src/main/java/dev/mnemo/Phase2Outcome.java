package dev.mnemo;

/** How a Phase 2 (global consolidation) attempt ended. */
public enum Phase2Outcome {
    /** Phase 2 was not attempted (startup skipped, or a step before it stopped the run). */
    NOT_RUN,
    /** Another worker holds a live lease on the global job. */
    SKIPPED_RUNNING,
    /** A consolidation succeeded less than six hours ago. */
    SKIPPED_COOLDOWN,
    /** The last attempt failed and its one-hour backoff has not passed. */
    SKIPPED_RETRY_BACKOFF,
    /** The synced inputs match the baseline and the artifacts are valid: no agent run was needed. */
    NO_WORKSPACE_CHANGES,
    /** The agent ran, the artifacts validated and the new baseline was committed. */
    SUCCEEDED,
    /** A step failed; {@link Phase2Report#failure()} carries Codex's reason code. */
    FAILED
}
