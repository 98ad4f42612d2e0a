package dev.mnemo.internal.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.MemoryTools;
import dev.mnemo.internal.read.AdHocNoteFiles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What one memory tool call did, read from its arguments and its JSON output, for receipts and
 * memory-operation events: which tool, what it was asked for (a path, or the queries of a search),
 * how many records it returned, whether it answered with an error, and, for a note written, the
 * note's path. Holds no content of the output.
 *
 * @param tool the tool's name
 * @param path the path a read or list named, or the written note's path relative to the memory
 *     folder; empty when none
 * @param queries the queries of a search, stripped; empty for the other tools
 * @param count entries listed, matches found, 1 for a read; 0 when it failed
 * @param failed the output is a JSON error
 * @param bytes the output's size in UTF-8 bytes
 */
public record ToolCallFacts(String tool, Optional<String> path, List<String> queries, int count, boolean failed,
        long bytes) {

    /** The tools that read the memory folder: each call is a memory read of its turn. */
    public static final Set<String> READING_TOOLS = Set.of(MemoryTools.LIST, MemoryTools.READ, MemoryTools.SEARCH);

    public ToolCallFacts {
        queries = List.copyOf(queries);
    }

    /** Whether the call was a read, list or search of the memory folder. */
    public boolean isRead() {
        return READING_TOOLS.contains(tool);
    }

    /** Whether the call wrote a note (not one held for approval). */
    public boolean wroteNote() {
        return MemoryTools.ADD_AD_HOC_NOTE.equals(tool) && !failed && path.isPresent();
    }

    /** The path, or the queries of a search joined by {@code "; "}; {@code ""} when neither. */
    public String target() {
        return queries.isEmpty() ? path.orElse("") : String.join("; ", queries);
    }

    /**
     * The facts of one call. Arguments or output that are not the tools' JSON give what can be
     * read (a malformed argument string names no path); this never throws on them.
     */
    public static ToolCallFacts of(String tool, String argumentsJson, String output) {
        JsonNode args = tree(argumentsJson);
        JsonNode result = tree(output);
        boolean failed = result == null || !result.isObject() || result.has("error");
        long bytes = output.getBytes(StandardCharsets.UTF_8).length;
        Optional<String> path = text(args, "path");
        List<String> queries = new ArrayList<>();
        int count = 0;
        switch (tool) {
            case MemoryTools.SEARCH -> {
                if (args != null && args.path("queries").isArray()) {
                    args.path("queries").forEach(q -> {
                        if (q.isTextual()) {
                            queries.add(q.asText().strip());
                        }
                    });
                }
                count = failed ? 0 : result.path("matches").size();
            }
            case MemoryTools.LIST -> count = failed ? 0 : result.path("entries").size();
            case MemoryTools.READ -> count = failed ? 0 : 1;
            case MemoryTools.ADD_AD_HOC_NOTE -> {
                boolean written = !failed && !result.has("status");
                path = written ? text(args, "filename").map(name -> String.join("/", AdHocNoteFiles.NOTES_DIR) + "/" + name)
                        : Optional.empty();
                count = written ? 1 : 0;
            }
            default -> { }
        }
        return new ToolCallFacts(tool, path, queries, count, failed, bytes);
    }

    private static Optional<String> text(JsonNode node, String field) {
        return node != null && node.path(field).isTextual() ? Optional.of(node.path(field).asText())
                : Optional.empty();
    }

    private static JsonNode tree(String json) {
        try {
            return ToolJson.MAPPER.readTree(json);
        } catch (Exception notJson) {
            return null;
        }
    }
}
