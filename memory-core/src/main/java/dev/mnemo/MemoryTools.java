package dev.mnemo;

import dev.mnemo.internal.read.DeveloperInstructions;
import dev.mnemo.internal.tools.LocalMemoryTools;
import dev.mnemo.llm.ToolSpec;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * The memory tools an agent can hand its model: list, read and search the memory folder, and add
 * an ad-hoc note. Paths are confined to the memory root.
 */
public interface MemoryTools {

    /** The tool that lists the memory folder (Codex's {@code memories/list}). */
    String LIST = "memories_list";
    /**
     * The tool that reads one memory file, by lines (Codex's {@code memories/read}). Beyond Codex's
     * arguments it takes {@code char_offset}, not in the schema a model is shown: the line at
     * {@code line_offset} from that character (Unicode code point) on, a line over the read limit
     * cut at its end with {@code next_char_offset} (Codex's read drops its middle), for readers that
     * page through one long line, such as {@code mnemo mcp}.
     */
    String READ = "memories_read";
    /** The tool that searches the memory folder for substrings (Codex's {@code memories/search}). */
    String SEARCH = "memories_search";
    /** The tool that adds an ad-hoc note for the next consolidation (Codex's {@code memories/add_ad_hoc_note}). */
    String ADD_AD_HOC_NOTE = "memories_add_ad_hoc_note";

    /**
     * The memory tools over a memory folder, without an engine: the same tools
     * {@link MemoryEngine#tools()} returns for a home whose memory folder is {@code memoryRoot}. For
     * readers that must not open (or create) a home's database and baseline, such as a server that
     * only serves the folder. Nothing is created until a note is added; a missing folder makes every
     * read report "not found".
     *
     * @param memoryRoot the memory folder
     * @return the tools over that folder
     */
    static MemoryTools forFolder(Path memoryRoot) {
        return new LocalMemoryTools(memoryRoot, Clock.systemUTC());
    }

    /**
     * The memory instructions for a model handed these tools, over a memory folder, without an
     * engine: what {@link MemorySession#developerInstructions()} returns for a home whose memory
     * folder is {@code memoryRoot} and whose settings are {@code config} (every step names a tool,
     * every path is relative to the folder, the summary capped at {@code summary_token_limit}).
     * Reads the summary now and creates nothing; {@code ""} when {@code use_memories} is off or
     * there is no summary. For servers that only serve the folder, such as {@code mnemo mcp}.
     *
     * @param memoryRoot the memory folder
     * @param config the memory settings
     * @return the instructions, or {@code ""}
     */
    static String instructionsForFolder(Path memoryRoot, MemoriesConfig config) {
        return new DeveloperInstructions(memoryRoot, config).forTools(java.util.Optional.empty());
    }

    /**
     * {@link #instructionsForFolder(Path, MemoriesConfig)} for a session in a project: that
     * project's summary, the global one and the notes of that scope, as
     * {@link MemoryEngine#buildToolInstructions(String)} gives them.
     *
     * @param memoryRoot the memory folder
     * @param config the memory settings
     * @param projectKey the project, as {@link ProjectKeys} describes it
     * @return the instructions, or {@code ""}
     * @throws NullPointerException when {@code projectKey} is null
     */
    static String instructionsForFolder(Path memoryRoot, MemoriesConfig config, String projectKey) {
        return new DeveloperInstructions(memoryRoot, config)
                .forTools(java.util.Optional.of(java.util.Objects.requireNonNull(projectKey, "projectKey")));
    }

    /**
     * These tools for a session in a project: {@value #SEARCH} and {@value #LIST} take
     * {@code "scope": "project"} (the project and global memory only) or {@code "all"} (the
     * default: the whole folder, this project's files first), and {@value #ADD_AD_HOC_NOTE} files a
     * note under the project unless told {@code "scope": "global"}.
     *
     * @param projectKey the project, as {@link ProjectKeys} describes it
     * @return the tools scoped to that project
     * @throws UnsupportedOperationException for tools that know nothing of projects (the default)
     */
    default MemoryTools inProject(String projectKey) {
        throw new UnsupportedOperationException(getClass().getName() + " has no project scopes");
    }

    /**
     * These tools for a session kept to one project, for callers that must not see another
     * project's memory by accident (such as {@code mnemo mcp} in a project): as
     * {@link #inProject(String)}, except that {@value #SEARCH} and {@value #LIST} default to
     * {@code "scope": "project"} (the project and the global memory only), and {@value #READ} takes a
     * {@code scope} too and refuses a file of another project (or one that mixes every project's raw
     * memories) unless the call says {@code "scope": "all"}; the refusal tells the model so. The
     * tools an engine hands its agents keep {@link #inProject(String)}'s defaults.
     *
     * @param projectKey the project, as {@link ProjectKeys} describes it
     * @return the tools confined to that project
     * @throws UnsupportedOperationException for tools that know nothing of projects (the default)
     */
    default MemoryTools confinedToProject(String projectKey) {
        throw new UnsupportedOperationException(getClass().getName() + " has no project scopes");
    }

    /**
     * JSON-schema definitions to hand to a model.
     *
     * @return one definition per tool
     */
    List<ToolSpec> specs();

    /**
     * Runs one tool call.
     *
     * @param toolName the tool's name, one of this interface's constants
     * @param argumentsJson the arguments, as the model wrote them (JSON)
     * @return a JSON result, or a JSON error object the model can read; bad input never throws
     */
    String call(String toolName, String argumentsJson);
}
