package dev.mnemo.spi;

import java.time.Instant;
import java.util.Objects;

/**
 * One exact stage-1 version that a consolidation used: marking only applies while the stored row
 * still has this {@code sourceUpdatedAt}.
 */
public record SelectedInput(String threadId, Instant sourceUpdatedAt) {
    public SelectedInput {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(sourceUpdatedAt, "sourceUpdatedAt");
    }
}
