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

    /**
     * How the prompt names the memory folder: the sandboxed agent's tools take every path relative
     * to it, and the prompt goes to a model provider, which must never see a path of the server.
     */
    static final String MEMORY_ROOT_FOR_MODEL = "`.` (the memory folder your tools work in; give every path relative to it)";

    /**
     * INIT when there is no valid {@code MEMORY.md}/{@code memory_summary.md} pair, else
     * INCREMENTAL. {@code root} is not written into the prompt (see {@link #MEMORY_ROOT_FOR_MODEL}).
     */
    static String render(Path root, boolean init) {
        return TEMPLATE.replace("{{ mode }}", init ? "INIT" : "INCREMENTAL")
                .replace("{{ memory_root }}", MEMORY_ROOT_FOR_MODEL)
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
