package dev.mnemo.console;

import dev.mnemo.MemoryStatus;
import dev.mnemo.Phase2FailureReason;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.Phase2Report;
import dev.mnemo.SkipReason;
import dev.mnemo.llm.TokenUsage;
import java.time.Instant;
import java.util.Optional;

/**
 * Why a consolidation cannot run, in plain words, for the overview and for the page of a
 * conversation whose memory waits for one: the last attempt's failure (its reason code said as a
 * sentence, the engine's detail after it, and when the retry backoff lets it run again), or the
 * startup skip that keeps every consolidation from running (no model, generation off, rate limits).
 * Nothing when the last attempt succeeded or only a forget re-opened the lock.
 */
final class ConsolidationBlock {

    private ConsolidationBlock() {}

    /** Why no consolidation runs now, or empty when nothing known stops it. */
    static Optional<String> why(MemoryStatus status, Instant now) {
        Optional<String> failure = status.lastPhase2RealFailure();
        if (failure.isPresent()) {
            return Optional.of(failed(failure.get(), status, now));
        }
        return status.lastStartupSkip().flatMap(ConsolidationBlock::skipped);
    }

    private static String failed(String failure, MemoryStatus status, Instant now) {
        Phase2Report report = new Phase2Report(Phase2Outcome.FAILED, 0, TokenUsage.ZERO, Optional.of(failure));
        String what = report.failureReason().map(ConsolidationBlock::plain).orElse("it failed");
        String detail = report.failureReason().isPresent() ? report.failureDetail().orElse("") : failure;
        String retry = status.phase2NotBefore().filter(at -> at.isAfter(now))
                .map(at -> " It is tried again after the retry backoff, not before " + Times.withDistance(at, now)
                        + "; Refresh now runs it at once.")
                .orElse(" It is tried again when a session starts, a scheduler calls the pipeline, or you refresh.");
        return "The last consolidation did not complete: " + what + (detail.isBlank() ? "." : " (" + detail.strip()
                + ").") + retry;
    }

    /** A Phase 2 reason code as a sentence. */
    static String plain(Phase2FailureReason reason) {
        return switch (reason) {
            case FAILED_CLAIM -> "the store could not take the consolidation lock";
            case FAILED_PREPARE_WORKSPACE -> "the memory folder could not be created or opened";
            case FAILED_SANDBOX_POLICY -> "the agent's sandbox refused it";
            case FAILED_LOAD_STAGE1_OUTPUTS -> "the stored memories could not be loaded";
            case FAILED_SYNC_WORKSPACE_INPUTS -> "the stored memories could not be written into the memory folder";
            case FAILED_WORKSPACE_STATUS -> "the memory folder could not be compared with its last consolidation";
            case FAILED_WORKSPACE_DIFF_FILE -> "the list of changes for the agent could not be written";
            case FAILED_SPAWN_AGENT -> "the consolidation agent could not start";
            case FAILED_AGENT -> "the consolidation agent did not finish (a model error, its step budget or a timeout)";
            case FAILED_CONFIRM_OWNERSHIP -> "another process took the consolidation lock before the result was kept";
            case FAILED_INVALID_ARTIFACTS -> "the agent left no valid memory files";
            case FAILED_WORKSPACE_COMMIT -> "the result could not be saved in the memory folder's history";
            case FAILED_RECORD_RESULT -> "the work was done, but the store failed while recording it";
            case FORGET_PENDING -> "a forget re-opened it, and it is due at once";
        };
    }

    private static Optional<String> skipped(SkipReason skip) {
        return switch (skip) {
            case NO_MODEL -> Optional.of("No consolidation can run: no model (nor consolidation agent) is configured.");
            case GENERATION_DISABLED -> Optional.of("No consolidation runs: generate_memories is off in the"
                    + " configuration.");
            case RATE_LIMITED -> Optional.of("The last startup ran no consolidation: the model's remaining rate limit"
                    + " is below min_rate_limit_remaining_percent.");
            // These skip one session's startup or Phase 1 only; consolidation still runs.
            case EPHEMERAL_SESSION, SUB_AGENT_SESSION, TOKEN_BUDGET_EXHAUSTED -> Optional.empty();
        };
    }
}
