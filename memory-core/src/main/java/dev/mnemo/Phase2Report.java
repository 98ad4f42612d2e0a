package dev.mnemo;

import dev.mnemo.llm.TokenUsage;
import java.util.Objects;
import java.util.Optional;

/**
 * What one Phase 2 attempt did.
 *
 * @param outcome how it ended
 * @param inputs stage-1 memories selected as input
 * @param usage tokens the consolidation agent spent
 * @param failure for {@link Phase2Outcome#FAILED}, Codex's reason code (e.g. {@code failed_invalid_artifacts})
 *     and a short explanation
 */
public record Phase2Report(Phase2Outcome outcome, int inputs, TokenUsage usage, Optional<String> failure) {
    public Phase2Report {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(failure, "failure");
        if (inputs < 0) {
            throw new IllegalArgumentException("inputs must not be negative, was " + inputs);
        }
        if ((outcome == Phase2Outcome.FAILED) != failure.isPresent()) {
            throw new IllegalArgumentException("a failure reason goes with outcome FAILED and only with it, outcome was "
                    + outcome);
        }
    }

    /** Phase 2 was not attempted. */
    public static Phase2Report notRun() {
        return new Phase2Report(Phase2Outcome.NOT_RUN, 0, TokenUsage.ZERO, Optional.empty());
    }
}
