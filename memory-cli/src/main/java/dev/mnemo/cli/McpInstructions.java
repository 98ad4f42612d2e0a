package dev.mnemo.cli;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryException;
import dev.mnemo.MemoryTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The MCP server's {@code instructions}: the read path an agent built on Mnemo gets in its developer
 * instructions, for a model handed the memory tools (every step names a tool, every path is relative
 * to the memory folder, this machine's paths are taken out), with the summary capped by the home's
 * {@code summary_token_limit}. Codex makes them the description of the server's tool namespace, so
 * the model reads the summary before its first tool call; other clients show them too.
 *
 * <p>Two sections differ from an agent's: an MCP client reads no citation block, so the model is
 * told citations are not expected; and without {@code --allow-notes} there is no note tool, so a
 * change to memory is left to the user.
 *
 * <p>Rendered once, when the server starts (MCP sends instructions once, in the {@code initialize}
 * answer): for the project {@code --project} named, its summary and the global one; else the global
 * summary and the one-line index of the projects that have memory. Without a summary, or with
 * {@code use_memories = false}, a short text still says what the folder is and how to use the
 * tools. Reading the home never creates or writes anything.
 */
final class McpInstructions {

    static final String CITING_HEADING = "### Citing memory";
    static final String CHANGING_HEADING = "### Changing what is remembered";

    static final String NO_CITATIONS = CITING_HEADING + "\n\n"
            + "Citations are not expected here: this memory folder is served over MCP and no citation block is"
            + " read. When an answer relies on memory, say so in plain words and name the files it came from.\n\n";

    private static final String READ_ONLY_CHANGES = CHANGING_HEADING + "\n\n"
            + "This memory is read-only here: do not try to change it. When the user asks to remember, forget or"
            + " correct something, tell them to run `mnemo note \"...\"` (or to start the server with"
            + " --allow-notes).\n\n";

    /** Without a summary: what the folder is and how to use the tools, in a few lines. */
    private static final String WITHOUT_SUMMARY = "## Memory\n\n"
            + "A Mnemo memory folder holding what earlier sessions learned, served read-only over MCP; it has no"
            + " summary yet. MEMORY.md is the searchable handbook, skills/ holds reusable procedures and"
            + " rollout_summaries/ one recap per earlier session. Before work that may depend on earlier"
            + " decisions, search it with `" + MemoryTools.SEARCH + "` and read what a match points to with `"
            + MemoryTools.READ + "` (`" + MemoryTools.LIST + "` shows a folder); paths are relative to the memory"
            + " folder. Citations are not expected.";

    private McpInstructions() {}

    /**
     * The instructions for the memory folder of {@code home}.
     *
     * @param allowNotes whether the note tool is served (else changes are left to the user)
     * @param project the project whose summary to carry beside the global one, if any
     */
    static String render(Path home, boolean allowNotes, Optional<String> project) {
        if (!Files.isDirectory(home)) {
            return WITHOUT_SUMMARY;
        }
        Path memoryRoot = home.resolve("memories");
        MemoriesConfig config = config(home);
        String forTools = project.map(key -> MemoryTools.instructionsForFolder(memoryRoot, config, key))
                .orElseGet(() -> MemoryTools.instructionsForFolder(memoryRoot, config));
        if (forTools.isEmpty()) {
            return WITHOUT_SUMMARY;
        }
        String text = replaceSection(forTools, CITING_HEADING, NO_CITATIONS);
        return allowNotes ? text : replaceSection(text, CHANGING_HEADING, READ_ONLY_CHANGES);
    }

    /** The home's settings; its defaults when its config cannot be read, said on standard error. */
    private static MemoriesConfig config(Path home) {
        try {
            return HomeEngines.loadConfig(home);
        } catch (MemoryException e) {
            System.err.println("mnemo mcp: " + e.getMessage() + "; the instructions use the default settings");
            return MemoriesConfig.defaults();
        }
    }

    /**
     * {@code text} with the {@code ### heading} section (up to the next {@code ###} heading) replaced
     * by {@code section}; when the heading is missing, {@code section} comes first, so what it says
     * is never lost.
     */
    static String replaceSection(String text, String heading, String section) {
        int start = text.indexOf(heading + "\n");
        if (start < 0) {
            return section + text;
        }
        int next = text.indexOf("\n### ", start + heading.length());
        return text.substring(0, start) + section + (next < 0 ? "" : text.substring(next + 1));
    }
}
