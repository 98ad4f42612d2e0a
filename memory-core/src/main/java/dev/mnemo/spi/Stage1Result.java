package dev.mnemo.spi;

import java.util.Objects;
import java.util.Optional;

/**
 * What Phase 1 extracted from one rollout (already redacted).
 *
 * @param rawMemory the detailed memory, markdown
 * @param rolloutSummary the summary that becomes {@code rollout_summaries/<stem>.md}
 * @param rolloutSlug a short slug for the summary's file name, if the model gave one
 */
public record Stage1Result(String rawMemory, String rolloutSummary, Optional<String> rolloutSlug) {
    /**
     * Checks that no component is null.
     *
     * @param rawMemory the detailed memory, markdown
     * @param rolloutSummary the rollout's summary
     * @param rolloutSlug a short slug for the summary's file name; empty when the model gave none
     */
    public Stage1Result {
        Objects.requireNonNull(rawMemory, "rawMemory");
        Objects.requireNonNull(rolloutSummary, "rolloutSummary");
        Objects.requireNonNull(rolloutSlug, "rolloutSlug");
    }
}
