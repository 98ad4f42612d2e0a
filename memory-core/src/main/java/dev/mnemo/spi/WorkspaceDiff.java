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
    /**
     * Checks the diff and copies {@code changes}.
     *
     * @param changes one entry per changed path, sorted by path
     * @param unifiedDiff the patch; empty when nothing changed
     */
    public WorkspaceDiff {
        changes = List.copyOf(Objects.requireNonNull(changes, "changes"));
        Objects.requireNonNull(unifiedDiff, "unifiedDiff");
    }

    /**
     * Whether nothing changed.
     *
     * @return true when there are no changes
     */
    public boolean isEmpty() {
        return changes.isEmpty();
    }

    /** How a path changed: {@code A}dded, {@code M}odified (content or mode), {@code D}eleted. */
    public enum Status { /** Added. */ A, /** Modified: content or mode. */ M, /** Deleted. */ D }

    /**
     * One changed path, relative to the root with {@code /} separators.
     *
     * @param status how the path changed
     * @param path the path, relative to the root with {@code /} separators
     */
    public record Change(Status status, String path) {
        /**
         * Checks the change.
         *
         * @param status how the path changed
         * @param path the path, relative to the root
         */
        public Change {
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(path, "path");
        }
    }
}
