package dev.mnemo;

import dev.mnemo.llm.TokenUsage;
import java.util.Objects;

/**
 * What one Phase 1 pass did.
 *
 * @param claimed rollouts claimed for extraction
 * @param succeeded rollouts that produced a memory
 * @param succeededNoOutput rollouts the model judged not worth remembering
 * @param failed rollouts whose extraction failed (retried later with backoff)
 * @param usage tokens spent by all extraction requests
 */
public record Phase1Report(int claimed, int succeeded, int succeededNoOutput, int failed, TokenUsage usage) {
    public Phase1Report {
        requireNonNegative("claimed", claimed);
        requireNonNegative("succeeded", succeeded);
        requireNonNegative("succeededNoOutput", succeededNoOutput);
        requireNonNegative("failed", failed);
        Objects.requireNonNull(usage, "usage");
    }

    /** A pass that claimed nothing. */
    public static Phase1Report empty() {
        return new Phase1Report(0, 0, 0, 0, TokenUsage.ZERO);
    }

    private static void requireNonNegative(String name, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative, was " + value);
        }
    }
}
