package dev.mnemo.internal.logs;

import dev.mnemo.Phase2FailureReason;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.SkipReason;
import java.util.Optional;

/**
 * Why a consolidation did not run or did not finish, in plain words, for the thread log's Phase 2
 * lines: what {@code mnemo logs} and the console show beside the outcome's code.
 */
final class Phase2Words {

    private Phase2Words() {}

    /** {@code " (why)"} after a Phase 2 outcome's line, or {@code ""} for one that needs no reason. */
    static String why(Phase2Outcome outcome, Optional<String> failure) {
        String words = switch (outcome) {
            case SKIPPED_RUNNING -> "cannot run now: another worker holds the consolidation lock";
            case SKIPPED_COOLDOWN -> "cannot run now: a consolidation succeeded less than six hours ago"
                    + " (the cooldown); the next runs after it";
            case SKIPPED_RETRY_BACKOFF -> "cannot run now: the last consolidation failed and its retry backoff"
                    + " has not passed";
            case FAILED -> failure.map(Phase2Words::failureCode).flatMap(Phase2FailureReason::fromCode)
                    .map(Phase2Words::failed).orElse("the consolidation failed");
            default -> "";
        };
        return words.isEmpty() ? "" : " (" + words + ")";
    }

    /** Why a skipped startup run leaves Phase 2 unrun, when that is worth saying. */
    static Optional<String> startupSkip(SkipReason reason) {
        return switch (reason) {
            case GENERATION_DISABLED -> Optional.of("generate_memories is off");
            case RATE_LIMITED -> Optional.of("the model's rate limits are below min_rate_limit_remaining_percent;"
                    + " the startup run stopped before any model call");
            case NO_MODEL -> Optional.of("no model, consolidation model or consolidation agent is configured");
            default -> Optional.empty();
        };
    }

    private static String failureCode(String failure) {
        int end = 0;
        while (end < failure.length() && (Character.isLetterOrDigit(failure.charAt(end)) || failure.charAt(end) == '_')) {
            end++;
        }
        return failure.substring(0, end);
    }

    private static String failed(Phase2FailureReason reason) {
        return switch (reason) {
            case FAILED_CLAIM -> "the store could not take the consolidation lock";
            case FAILED_PREPARE_WORKSPACE -> "the memory folder or its baseline could not be opened";
            case FAILED_SANDBOX_POLICY -> "the consolidation agent's sandbox refused it";
            case FAILED_LOAD_STAGE1_OUTPUTS -> "the memories to consolidate could not be loaded";
            case FAILED_SYNC_WORKSPACE_INPUTS -> "the inputs could not be written to the memory folder";
            case FAILED_WORKSPACE_STATUS -> "the memory folder could not be compared with its baseline";
            case FAILED_WORKSPACE_DIFF_FILE -> "the folder's changes could not be written for the agent";
            case FAILED_SPAWN_AGENT -> "the consolidation agent could not start";
            case FAILED_AGENT -> "the consolidation agent did not complete (a model error, its step budget or"
                    + " its time limit); it is retried after the backoff";
            case FAILED_CONFIRM_OWNERSHIP -> "the consolidation lock was lost before the result was kept";
            case FAILED_INVALID_ARTIFACTS -> "the agent left no valid memory files; the folder was rolled back";
            case FAILED_WORKSPACE_COMMIT -> "the new baseline could not be committed";
            case FAILED_RECORD_RESULT -> "the work was done but the store could not record it";
            case FORGET_PENDING -> "a conversation it used was forgotten meanwhile; the next run is due at once";
        };
    }
}
