package dev.mnemo.llm;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * Rate-limit figures a server reported.
 *
 * @param primaryUsedPercent share of the primary window used, 0 to 100 (empty when unknown)
 * @param secondaryUsedPercent share of the secondary window used, 0 to 100 (empty when unknown)
 * @param limitReached whether the server said a limit is already reached
 */
public record RateLimitSnapshot(OptionalDouble primaryUsedPercent, OptionalDouble secondaryUsedPercent,
        boolean limitReached) {
    /**
     * Checks the components.
     *
     * @param primaryUsedPercent share of the primary window used, 0 to 100 (empty when unknown)
     * @param secondaryUsedPercent share of the secondary window used, 0 to 100 (empty when unknown)
     * @param limitReached whether the server said a limit is already reached
     */
    public RateLimitSnapshot {
        Objects.requireNonNull(primaryUsedPercent, "primaryUsedPercent");
        Objects.requireNonNull(secondaryUsedPercent, "secondaryUsedPercent");
        requirePercent("primaryUsedPercent", primaryUsedPercent);
        requirePercent("secondaryUsedPercent", secondaryUsedPercent);
    }

    private static void requirePercent(String name, OptionalDouble value) {
        if (value.isPresent() && (Double.isNaN(value.getAsDouble()) || value.getAsDouble() < 0)) {
            throw new IllegalArgumentException(name + " must be a non-negative number, was " + value.getAsDouble());
        }
    }
}
