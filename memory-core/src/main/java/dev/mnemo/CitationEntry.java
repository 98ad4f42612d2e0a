package dev.mnemo;

import java.util.Objects;

/**
 * One cited place in the memory folder: {@code path:lineStart-lineEnd|note=[note]}.
 *
 * @param path a path relative to the memory root
 * @param lineStart first cited line (1-based)
 * @param lineEnd last cited line
 * @param note why it was cited
 */
public record CitationEntry(String path, int lineStart, int lineEnd, String note) {
    /**
     * Checks the components.
     *
     * @param path a path relative to the memory root
     * @param lineStart first cited line (1-based)
     * @param lineEnd last cited line
     * @param note why it was cited
     * @throws NullPointerException when {@code path} or {@code note} is null
     */
    public CitationEntry {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(note, "note");
    }
}
