package dev.mnemo.internal.consolidate;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** The consolidation prompt ({@code consolidation.md}), loaded once. */
final class ConsolidationPrompt {

    private static final String TEMPLATE = load();

    private ConsolidationPrompt() {}

    /** INIT when there is no valid {@code MEMORY.md}/{@code memory_summary.md} pair, else INCREMENTAL. */
    static String render(Path root, boolean init) {
        return TEMPLATE.replace("{{ mode }}", init ? "INIT" : "INCREMENTAL")
                .replace("{{ memory_root }}", root.toString())
                .replace("{{ phase2_workspace_diff_file }}", WorkspaceDiffFile.FILENAME);
    }

    private static String load() {
        try (InputStream in = ConsolidationPrompt.class.getResourceAsStream("consolidation.md")) {
            if (in == null) {
                throw new IllegalStateException("missing resource consolidation.md");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
