package dev.mnemo.spi;

import java.util.List;
import java.util.Objects;

/**
 * Changes of the working files against the baseline.
 *
 * @param changes one entry per changed path, sorted by path
 * @param unifiedDiff a {@code git diff}-style patch with 3 lines of context
 */
public record WorkspaceDiff(List<Change> changes, String unifiedDiff) {
    public WorkspaceDiff {
        changes = List.copyOf(Objects.requireNonNull(changes, "changes"));
        Objects.requireNonNull(unifiedDiff, "unifiedDiff");
    }

    public boolean isEmpty() {
        return changes.isEmpty();
    }

    /** How a path changed: {@code A}dded, {@code M}odified (content or mode), {@code D}eleted. */
    public enum Status { A, M, D }

    /** One changed path, relative to the root with {@code /} separators. */
    public record Change(Status status, String path) {
        public Change {
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(path, "path");
        }
    }
}
