package dev.mnemo;

import dev.mnemo.llm.TokenUsage;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How one Phase 1 job ended and what it cost ({@link dev.mnemo.spi.MemoryEventListener#phase1JobFinished(Phase1JobReport)}).
 *
 * @param threadId the conversation whose rollout was extracted
 * @param outcome how the job ended
 * @param error the failure reason, for failed jobs
 * @param elapsed how long the job took, claim to result
 * @param usage the tokens its model calls spent, failed attempts included
 */
public record Phase1JobReport(String threadId, Phase1JobOutcome outcome, Optional<String> error, Duration elapsed,
        TokenUsage usage) {

    /**
     * Checks the components.
     *
     * @param threadId the conversation whose rollout was extracted
     * @param outcome how the job ended
     * @param error the failure reason, for failed jobs; empty otherwise
     * @param elapsed how long the job took, claim to result
     * @param usage the tokens its model calls spent, failed attempts included
     * @throws NullPointerException when a component is null
     */
    public Phase1JobReport {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(elapsed, "elapsed");
        Objects.requireNonNull(usage, "usage");
    }
}
