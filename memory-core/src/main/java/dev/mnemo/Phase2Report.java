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
 * @param failure for {@link Phase2Outcome#FAILED}, Codex's reason code (e.g. {@code failed_invalid_artifacts}),
 *     then {@code ": "} and a short explanation; {@link #failureReason()} and {@link #failureDetail()}
 *     give the two parts separately
 */
public record Phase2Report(Phase2Outcome outcome, int inputs, TokenUsage usage, Optional<String> failure) {
    /**
     * Checks the components.
     *
     * @param outcome how it ended
     * @param inputs stage-1 memories selected as input
     * @param usage tokens the consolidation agent spent
     * @param failure for {@link Phase2Outcome#FAILED}, the reason code, {@code ": "} and an explanation; empty otherwise
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when {@code inputs} is negative, or a failure is given with another outcome than {@code FAILED} (or none with it)
     */
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

    /**
     * A failed attempt: {@link #failure()} is {@code "<reason code>: <detail>"}.
     *
     * @param reason why it failed
     * @param detail a short explanation
     * @param inputs stage-1 memories selected as input
     * @param usage tokens the consolidation agent spent
     * @return a report with outcome {@link Phase2Outcome#FAILED}
     * @throws NullPointerException when {@code reason}, {@code detail} or {@code usage} is null
     */
    public static Phase2Report failed(Phase2FailureReason reason, String detail, int inputs, TokenUsage usage) {
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(detail, "detail");
        return new Phase2Report(Phase2Outcome.FAILED, inputs, usage, Optional.of(reason.code() + SEPARATOR + detail));
    }

    /**
     * The typed reason of a failed attempt; empty when it did not fail, or when {@link #failure()}
     * does not start with a known reason code.
     *
     * @return the reason, or empty
     */
    public Optional<Phase2FailureReason> failureReason() {
        return failure.flatMap(f -> Phase2FailureReason.fromCode(codePart(f)));
    }

    /**
     * The explanation after the reason code; empty when it did not fail or no explanation was given.
     *
     * @return the explanation, or empty
     */
    public Optional<String> failureDetail() {
        return failure.flatMap(f -> {
            int at = f.indexOf(SEPARATOR);
            return at < 0 ? Optional.empty() : Optional.of(f.substring(at + SEPARATOR.length()));
        });
    }

    private static String codePart(String failure) {
        int at = failure.indexOf(SEPARATOR);
        return at < 0 ? failure : failure.substring(0, at);
    }

    private static final String SEPARATOR = ": ";

    /**
     * Phase 2 was not attempted.
     *
     * @return a report with outcome {@link Phase2Outcome#NOT_RUN}, no inputs and zero usage
     */
    public static Phase2Report notRun() {
        return new Phase2Report(Phase2Outcome.NOT_RUN, 0, TokenUsage.ZERO, Optional.empty());
    }
}
