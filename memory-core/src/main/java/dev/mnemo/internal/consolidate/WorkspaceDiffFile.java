package dev.mnemo.internal.consolidate;

import dev.mnemo.spi.WorkspaceDiff;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code phase2_workspace_diff.md}: the diff the consolidation agent reads first (Codex's format, 4 MiB cap). */
final class WorkspaceDiffFile {

    static final String FILENAME = "phase2_workspace_diff.md";
    /** Codex {@code workspace_diff::MAX_BYTES}. */
    static final int MAX_BYTES = 4 * 1024 * 1024;

    private WorkspaceDiffFile() {}

    static Path path(Path root) {
        return root.resolve(FILENAME);
    }

    static void delete(Path root) throws IOException {
        Files.deleteIfExists(path(root));
    }

    static void write(Path root, WorkspaceDiff diff) throws IOException {
        AtomicFiles.writeIfChanged(path(root), render(diff));
    }

    static String render(WorkspaceDiff diff) {
        StringBuilder text = new StringBuilder()
                .append("# Memory Workspace Diff\n\n")
                .append("Written by Mnemo before this Phase 2 memory consolidation. Read this file first and do not edit it.\n\n")
                .append("## Status\n");
        if (diff.changes().isEmpty()) {
            text.append("- none\n");
        }
        for (WorkspaceDiff.Change change : diff.changes()) {
            text.append("- ").append(change.status()).append(' ').append(change.path()).append('\n');
        }
        String body = capped(diff.unifiedDiff());
        text.append("\n## Diff\n\n```diff\n").append(body);
        if (!body.isEmpty() && !body.endsWith("\n")) {
            text.append('\n');
        }
        return text.append("```\n").toString();
    }

    /** The diff cut at {@link #MAX_BYTES} UTF-8 bytes on a character boundary, with a note when cut. */
    static String capped(String unifiedDiff) {
        byte[] bytes = unifiedDiff.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= MAX_BYTES) {
            return unifiedDiff;
        }
        int end = MAX_BYTES;
        while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
            end--; // back off continuation bytes: never split a code point
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8) + "\n[workspace diff truncated at " + MAX_BYTES
                + " bytes]\n";
    }
}
