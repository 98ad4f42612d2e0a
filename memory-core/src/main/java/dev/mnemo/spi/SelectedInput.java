package dev.mnemo.spi;

import java.time.Instant;
import java.util.Objects;

/**
 * One exact stage-1 version that a consolidation used: marking only applies while the stored row
 * still has this {@code sourceUpdatedAt}.
 *
 * @param threadId the memory's thread
 * @param sourceUpdatedAt the rollout version of the memory that was used (whole seconds)
 */
public record SelectedInput(String threadId, Instant sourceUpdatedAt) {
    /**
     * Checks that neither component is null.
     *
     * @param threadId the memory's thread
     * @param sourceUpdatedAt the rollout version of the memory that was used
     */
    public SelectedInput {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(sourceUpdatedAt, "sourceUpdatedAt");
    }
}
