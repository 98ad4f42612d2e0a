package dev.mnemo;

import dev.mnemo.llm.TokenUsage;
import java.util.Objects;
import java.util.Optional;

/**
 * What one Phase 1 pass did.
 *
 * @param claimed rollouts claimed for extraction
 * @param succeeded rollouts that produced a memory
 * @param succeededNoOutput rollouts the model judged not worth remembering
 * @param failed rollouts whose extraction failed (retried later with backoff)
 * @param usage tokens spent by all extraction requests
 * @param deferred claimed rollouts released unrun because the day's extraction budget had no room
 *     for them (they keep their retries and are claimed again once it has)
 * @param skipped {@link SkipReason#TOKEN_BUDGET_EXHAUSTED} when the day's extraction budget stopped
 *     the pass, before its claim or by deferring a job; empty otherwise
 */
public record Phase1Report(int claimed, int succeeded, int succeededNoOutput, int failed, TokenUsage usage,
        int deferred, Optional<SkipReason> skipped) {
    /**
     * Checks the components.
     *
     * @param claimed rollouts claimed for extraction
     * @param succeeded rollouts that produced a memory
     * @param succeededNoOutput rollouts the model judged not worth remembering
     * @param failed rollouts whose extraction failed
     * @param usage tokens spent by all extraction requests
     * @param deferred claimed rollouts released unrun for lack of extraction budget
     * @param skipped {@link SkipReason#TOKEN_BUDGET_EXHAUSTED} when the budget stopped the pass; empty otherwise
     * @throws NullPointerException when {@code usage} or {@code skipped} is null
     * @throws IllegalArgumentException when a count is negative
     */
    public Phase1Report {
        requireNonNegative("claimed", claimed);
        requireNonNegative("succeeded", succeeded);
        requireNonNegative("succeededNoOutput", succeededNoOutput);
        requireNonNegative("failed", failed);
        Objects.requireNonNull(usage, "usage");
        requireNonNegative("deferred", deferred);
        Objects.requireNonNull(skipped, "skipped");
    }

    /**
     * A pass the extraction budget did not stop.
     *
     * @param claimed rollouts claimed for extraction
     * @param succeeded rollouts that produced a memory
     * @param succeededNoOutput rollouts the model judged not worth remembering
     * @param failed rollouts whose extraction failed
     * @param usage tokens spent by all extraction requests
     */
    public Phase1Report(int claimed, int succeeded, int succeededNoOutput, int failed, TokenUsage usage) {
        this(claimed, succeeded, succeededNoOutput, failed, usage, 0, Optional.empty());
    }

    /**
     * A pass that claimed nothing.
     *
     * @return a report of zero counts and zero usage
     */
    public static Phase1Report empty() {
        return new Phase1Report(0, 0, 0, 0, TokenUsage.ZERO);
    }

    /**
     * A pass that claimed nothing because the day's extraction budget was spent.
     *
     * @return a report of zero counts, skipped for {@link SkipReason#TOKEN_BUDGET_EXHAUSTED}
     */
    public static Phase1Report budgetExhausted() {
        return new Phase1Report(0, 0, 0, 0, TokenUsage.ZERO, 0, Optional.of(SkipReason.TOKEN_BUDGET_EXHAUSTED));
    }

    private static void requireNonNegative(String name, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative, was " + value);
        }
    }
}
