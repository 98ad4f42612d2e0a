package dev.mnemo;

import java.util.Optional;

/**
 * Why a Phase 2 attempt failed: Codex's reason codes (its {@code phase2} step names), plus one of
 * Mnemo's own. {@link Phase2Report#failure()} starts with {@link #code()}; {@link
 * Phase2Report#failureReason()} gives it typed, for callers that branch on it.
 */
public enum Phase2FailureReason {
    /** The store could not take the global lock. */
    FAILED_CLAIM("failed_claim"),
    /** The memory folder or its baseline could not be created or opened. */
    FAILED_PREPARE_WORKSPACE("failed_prepare_workspace"),
    /** Codex only (no sandbox for its agent); Mnemo never reports it. */
    FAILED_SANDBOX_POLICY("failed_sandbox_policy"),
    /** Selecting the input memories failed. */
    FAILED_LOAD_STAGE1_OUTPUTS("failed_load_stage1_outputs"),
    /** Writing {@code raw_memories.md} or {@code rollout_summaries/} failed. */
    FAILED_SYNC_WORKSPACE_INPUTS("failed_sync_workspace_inputs"),
    /** Diffing the folder against its baseline failed. */
    FAILED_WORKSPACE_STATUS("failed_workspace_status"),
    /** Writing {@code phase2_workspace_diff.md} failed. */
    FAILED_WORKSPACE_DIFF_FILE("failed_workspace_diff_file"),
    /** The consolidation agent could not start. */
    FAILED_SPAWN_AGENT("failed_spawn_agent"),
    /** The agent did not complete (model error, step budget, timeout). */
    FAILED_AGENT("failed_agent"),
    /** The lock was lost, or could not be confirmed, before the result was kept. */
    FAILED_CONFIRM_OWNERSHIP("failed_confirm_ownership"),
    /** The agent left no valid artifacts, or made symbolic links. */
    FAILED_INVALID_ARTIFACTS("failed_invalid_artifacts"),
    /** The new baseline commit failed. */
    FAILED_WORKSPACE_COMMIT("failed_workspace_commit"),
    /**
     * Mnemo's own: the work was done but the store failed while recording the job's success (the
     * job is marked failed when the store allows it, otherwise left to its lease).
     */
    FAILED_RECORD_RESULT("failed_record_result"),
    /**
     * Mnemo's own: a thread this consolidation used was forgotten (deleted, polluted or disabled)
     * while it ran. Its result was dropped with the history entries that used the thread, and the
     * next run is due at once, past the success cooldown.
     */
    FORGET_PENDING("forget_pending");

    private final String code;

    Phase2FailureReason(String code) {
        this.code = code;
    }

    /**
     * The reason code as Codex writes it, e.g. {@code failed_invalid_artifacts}.
     *
     * @return the lower-case reason code
     */
    public String code() {
        return code;
    }

    /**
     * The reason whose {@link #code()} is {@code code}, if any.
     *
     * @param code a reason code, e.g. {@code failed_agent}
     * @return the reason, or empty when no reason has that code
     */
    public static Optional<Phase2FailureReason> fromCode(String code) {
        for (Phase2FailureReason reason : values()) {
            if (reason.code.equals(code)) {
                return Optional.of(reason);
            }
        }
        return Optional.empty();
    }
}
