package dev.mnemo.internal.agent;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import dev.mnemo.internal.sandbox.ConfinedRoot;
import dev.mnemo.internal.sandbox.ToolFailure;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.llm.ToolSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The seven file tools the consolidation agent may call, as {@link ToolSpec}s for the model and a
 * dispatcher that runs one {@link ToolCall} and answers with JSON. Every failure, including an
 * unknown tool or unreadable arguments, comes back as {@code {"error": "..."}}; nothing is thrown.
 */
final class AgentTools {

    private static final Logger LOG = LoggerFactory.getLogger(AgentTools.class);

    private static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .setDefaultPropertyInclusion(JsonInclude.Include.NON_NULL);

    static final List<ToolSpec> SPECS = List.of(
            new ToolSpec("list_files", "List the files and folders in a folder of the memory workspace, with their"
                    + " type and size. Hidden entries are not shown.", """
                    {"type":"object","properties":{
                      "path":{"type":"string","description":"folder relative to the memory folder; default '.'"},
                      "recursive":{"type":"boolean","description":"also list sub-folders; default false"}},
                     "additionalProperties":false}"""),
            new ToolSpec("read_file", "Read a text file of the memory workspace, optionally a range of lines."
                    + " Long output is cut, with a note saying where to continue.", """
                    {"type":"object","properties":{
                      "path":{"type":"string","description":"file relative to the memory folder"},
                      "start_line":{"type":"integer","minimum":1,"description":"first line to return, 1-indexed; default 1"},
                      "max_lines":{"type":"integer","minimum":1,"description":"how many lines at most; default 2000"}},
                     "required":["path"],"additionalProperties":false}"""),
            new ToolSpec("search_files", "Find lines containing an exact substring in the files of the memory"
                    + " workspace. Answers path:line:text.", """
                    {"type":"object","properties":{
                      "query":{"type":"string","description":"text to find, matched exactly (case-sensitive)"},
                      "path":{"type":"string","description":"file or folder to search; default '.'"}},
                     "required":["query"],"additionalProperties":false}"""),
            new ToolSpec("write_file", "Create or replace a file in the memory workspace with the given content."
                    + " Missing parent folders are created.", """
                    {"type":"object","properties":{
                      "path":{"type":"string","description":"file relative to the memory folder"},
                      "content":{"type":"string","description":"the complete new content"}},
                     "required":["path","content"],"additionalProperties":false}"""),
            new ToolSpec("edit_file", "Replace one exact piece of text in a file. old_string must occur exactly"
                    + " once in the file.", """
                    {"type":"object","properties":{
                      "path":{"type":"string","description":"file relative to the memory folder"},
                      "old_string":{"type":"string","description":"the exact text to replace; must match once"},
                      "new_string":{"type":"string","description":"the replacement text"}},
                     "required":["path","old_string","new_string"],"additionalProperties":false}"""),
            new ToolSpec("delete_file", "Delete a file, or an empty folder, from the memory workspace.", """
                    {"type":"object","properties":{
                      "path":{"type":"string","description":"file or empty folder relative to the memory folder"}},
                     "required":["path"],"additionalProperties":false}"""),
            new ToolSpec("move_file", "Move or rename a file or folder inside the memory workspace. An existing"
                    + " destination is only replaced when overwrite is true.", """
                    {"type":"object","properties":{
                      "from":{"type":"string","description":"current path relative to the memory folder"},
                      "to":{"type":"string","description":"new path relative to the memory folder"},
                      "overwrite":{"type":"boolean","description":"replace an existing destination file; default false"}},
                     "required":["from","to"],"additionalProperties":false}"""));

    /** Argument names each tool accepts, the same as its schema's properties. */
    private static final Map<String, Set<String>> ARGUMENTS = Map.of(
            "list_files", Set.of("path", "recursive"),
            "read_file", Set.of("path", "start_line", "max_lines"),
            "search_files", Set.of("query", "path"),
            "write_file", Set.of("path", "content"),
            "edit_file", Set.of("path", "old_string", "new_string"),
            "delete_file", Set.of("path"),
            "move_file", Set.of("from", "to", "overwrite"));

    private final SandboxPaths paths;
    private final SandboxedFiles files;

    /**
     * @throws IOException when {@code memoryRoot} is not an existing folder
     */
    AgentTools(Path memoryRoot) throws IOException {
        this.paths = new SandboxPaths(memoryRoot);
        this.files = new SandboxedFiles(paths);
    }

    /** The real path of the memory folder every tool is confined to. */
    Path root() {
        return paths.root();
    }

    List<ToolSpec> specs() {
        return SPECS;
    }

    /** Runs one call and answers with its JSON result or a JSON error; never throws. */
    String run(ToolCall call) {
        return runReporting(call).json();
    }

    /**
     * One call's answer for the model, and for the thread logs what it named and why it failed.
     *
     * @param json the JSON result or JSON error the model gets
     * @param target the file, folder or query the call named; empty when its arguments did not parse
     * @param error the failure message, when it failed
     */
    record Ran(String json, String target, Optional<String> error) {}

    /** {@link #run}, with what the call named and how it ended. */
    Ran runReporting(ToolCall call) {
        Set<String> allowed = ARGUMENTS.get(call.name());
        if (allowed == null) {
            return failed("", "unknown tool '" + call.name() + "'; the tools are "
                    + SPECS.stream().map(ToolSpec::name).collect(Collectors.joining(", ")));
        }
        String target = "";
        try {
            ToolArguments args = ToolArguments.parse(call.name(), call.argumentsJson(), allowed);
            target = target(call.name(), args);
            Object result = dispatch(call.name(), args);
            LOG.debug("agent tool {} ({}) succeeded", call.name(), call.id());
            return new Ran(JSON.writeValueAsString(result), target, Optional.empty());
        } catch (ToolFailure e) {
            LOG.debug("agent tool {} ({}) refused: {}", call.name(), call.id(), e.getMessage());
            return failed(target, e.getMessage());
        } catch (IOException e) {
            LOG.debug("agent tool {} ({}) failed on I/O", call.name(), call.id(), e);
            return failed(target, call.name() + " failed: " + ConfinedRoot.describe(e));
        } catch (RuntimeException e) {
            LOG.warn("agent tool {} ({}) failed unexpectedly", call.name(), call.id(), e);
            return failed(target, call.name() + " failed: " + e.getClass().getSimpleName());
        }
    }

    private static Ran failed(String target, String message) {
        return new Ran(error(message), target, Optional.of(message));
    }

    /** What a call names: its path, its query, or where a move goes from and to. */
    private static String target(String tool, ToolArguments args) {
        return switch (tool) {
            case "search_files" -> args.optionalString("query", "");
            case "move_file" -> args.optionalString("from", "") + " -> " + args.optionalString("to", "");
            case "list_files" -> args.optionalString("path", ".");
            default -> args.optionalString("path", "");
        };
    }

    private Object dispatch(String tool, ToolArguments args) throws IOException {
        return switch (tool) {
            case "list_files" -> files.list(args.optionalString("path", "."), args.optionalBoolean("recursive", false));
            case "read_file" -> files.read(args.requiredString("path"), args.optionalInt("start_line", 1),
                    args.optionalInt("max_lines", SandboxedFiles.DEFAULT_READ_LINES));
            case "search_files" -> files.search(args.requiredString("query"), args.optionalString("path", "."));
            case "write_file" -> files.write(args.requiredString("path"), args.requiredString("content"));
            case "edit_file" -> files.edit(args.requiredString("path"), args.requiredString("old_string"),
                    args.requiredString("new_string"));
            case "delete_file" -> files.delete(args.requiredString("path"));
            case "move_file" -> files.move(args.requiredString("from"), args.requiredString("to"),
                    args.optionalBoolean("overwrite", false));
            default -> throw new IllegalStateException("no dispatch for tool " + tool);
        };
    }

    static String error(String message) {
        try {
            return JSON.writeValueAsString(Map.of("error", message));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write a JSON error message", e);
        }
    }
}
