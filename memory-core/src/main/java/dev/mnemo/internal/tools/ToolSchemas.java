package dev.mnemo.internal.tools;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.llm.ToolSpec;
import java.util.List;

/**
 * The JSON Schemas and descriptions of the four memory tools, in Mnemo's own words. Every object
 * schema sets {@code additionalProperties: false}, matching the strict argument reading.
 */
final class ToolSchemas {

    static final String FILENAME_PATTERN = "^\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-[a-z0-9][a-z0-9-]{0,79}\\.md$";

    private static final String SCOPE_DESCRIPTION = "`project`: this session's project and global memory only;"
            + " `all` (default): the whole folder, this session's project first.";
    private static final String CONFINED_SCOPE_DESCRIPTION = "`project` (default in a project): this session's"
            + " project and global memory only; `all`: the whole folder, this session's project first (the default"
            + " outside any project). In a project, use `all` only when you really need another project's memory.";
    private static final String CONFINED_READ_SCOPE_DESCRIPTION = "`project` (default): a file of this session's"
            + " project or of the global memory (outside any project, any file); `all`: any file, also another"
            + " project's. Use `all` only when you really need another project's memory.";

    private final ObjectMapper json;

    ToolSchemas(ObjectMapper json) {
        this.json = json;
    }

    /** The specs in Codex's registration order: add note, list, read, search. */
    List<ToolSpec> specs(String nowTimestamp) {
        return specs(nowTimestamp, false);
    }

    /**
     * The specs; {@code confined}: of tools confined to their project, whose list and search
     * default to scope {@code project} and whose read takes a scope too.
     */
    List<ToolSpec> specs(String nowTimestamp, boolean confined) {
        return List.of(addAdHocNote(nowTimestamp), list(confined), read(confined), search(confined));
    }

    private ToolSpec addAdHocNote(String nowTimestamp) {
        ObjectNode schema = object();
        ObjectNode properties = schema.putObject("properties");
        ObjectNode filename = string(properties, "filename",
                "File name of the new note: YYYY-MM-DDTHH-MM-SS-<slug>.md, the timestamp being the current time"
                        + " (now " + nowTimestamp + " UTC) and the slug 1 to 80 lowercase ASCII letters, digits or"
                        + " hyphens, e.g. " + nowTimestamp + "-remember-review-style.md. A name, not a path.");
        filename.put("minLength", 24).put("maxLength", AdHocNotes.MAX_FILENAME_BYTES).put("pattern", FILENAME_PATTERN);
        string(properties, "note", "The note, verbatim Markdown: what to remember, forget or correct.")
                .put("minLength", 1);
        scope(properties, "Where the note applies: `project` (this session's project; the default when it has one)"
                + " or `global` (every project, e.g. a general preference).", "project", "global");
        schema.putArray("required").add("filename").add("note");
        return spec(LocalMemoryTools.ADD_AD_HOC_NOTE,
                "Save one new, append-only memory note. Use only after the user explicitly asks to remember,"
                        + " forget or change something; the note applies from the next turn and is folded into"
                        + " memory at the next consolidation.",
                schema);
    }

    private ToolSpec list(boolean confined) {
        ObjectNode schema = object();
        ObjectNode properties = schema.putObject("properties");
        string(properties, "path", "Folder (or file) relative to the memory root; omit for the root.");
        string(properties, "cursor", "The next_cursor of the previous page.");
        count(properties, "max_results", 1, "Entries per page, at most " + LocalMemoryTools.MAX_LIST_RESULTS + ".");
        scope(properties, confined ? CONFINED_SCOPE_DESCRIPTION : SCOPE_DESCRIPTION, "project", "all");
        return spec(LocalMemoryTools.LIST,
                "List the files and folders directly inside a folder of the memory store (not recursive).", schema);
    }

    private ToolSpec read(boolean confined) {
        ObjectNode schema = object();
        ObjectNode properties = schema.putObject("properties");
        string(properties, "path", "File relative to the memory root, e.g. MEMORY.md.");
        count(properties, "line_offset", 1, "First line to return, counting from 1 (default 1).");
        count(properties, "max_lines", 1, "Return at most this many lines.");
        if (confined) {
            scope(properties, CONFINED_READ_SCOPE_DESCRIPTION, "project", "all");
        }
        schema.putArray("required").add("path");
        return spec(LocalMemoryTools.READ,
                "Read a memory file by its path relative to the memory root, optionally from a 1-based line and"
                        + " for a limited number of lines.", schema);
    }

    private ToolSpec search(boolean confined) {
        ObjectNode schema = object();
        ObjectNode properties = schema.putObject("properties");
        ObjectNode queries = properties.putObject("queries");
        queries.put("type", "array").put("minItems", 1)
                .put("description", "Substrings to look for; none may be empty.");
        queries.putObject("items").put("type", "string");
        ObjectNode mode = properties.putObject("match_mode");
        mode.put("description", "How the queries must co-occur; default {\"type\":\"any\"}.");
        ArrayNode variants = mode.putArray("oneOf");
        variants.add(modeVariant("any", "A line matching any query."));
        variants.add(modeVariant("all_on_same_line", "A line matching every query."));
        ObjectNode within = modeVariant("all_within_lines", "Every query within line_count consecutive lines.");
        count((ObjectNode) within.get("properties"), "line_count", 1, "Window size in lines.");
        ((ArrayNode) within.get("required")).add("line_count");
        variants.add(within);
        string(properties, "path", "File or folder to search, relative to the memory root; omit for everything.");
        string(properties, "cursor", "The next_cursor of the previous page.");
        count(properties, "context_lines", 0, "Lines of context around each match (default 0).");
        bool(properties, "case_sensitive", "Match letter case exactly (default true).");
        bool(properties, "normalized", "Compare only letters and digits, so 'cold resume' finds 'cold-resume'"
                + " (default false).");
        count(properties, "max_results", 1, "Matches per page, at most " + LocalMemoryTools.MAX_SEARCH_RESULTS + ".");
        scope(properties, confined ? CONFINED_SCOPE_DESCRIPTION : SCOPE_DESCRIPTION, "project", "all");
        schema.putArray("required").add("queries");
        return spec(LocalMemoryTools.SEARCH,
                "Search memory files for substrings, optionally ignoring case and separators, or requiring all"
                        + " queries on one line or within a window of lines.", schema);
    }

    private ObjectNode modeVariant(String type, String description) {
        ObjectNode variant = object();
        variant.put("description", description);
        ObjectNode properties = variant.putObject("properties");
        properties.putObject("type").put("type", "string").putArray("enum").add(type);
        variant.putArray("required").add("type");
        return variant;
    }

    private ObjectNode object() {
        ObjectNode schema = json.createObjectNode();
        schema.put("type", "object");
        schema.put("additionalProperties", false);
        return schema;
    }

    private static ObjectNode string(ObjectNode properties, String name, String description) {
        return properties.putObject(name).put("type", "string").put("description", description);
    }

    private static void count(ObjectNode properties, String name, int minimum, String description) {
        properties.putObject(name).put("type", "integer").put("minimum", minimum).put("description", description);
    }

    private static void scope(ObjectNode properties, String description, String... values) {
        ObjectNode scope = string(properties, "scope", description);
        ArrayNode allowed = scope.putArray("enum");
        for (String value : values) {
            allowed.add(value);
        }
    }

    private static void bool(ObjectNode properties, String name, String description) {
        properties.putObject(name).put("type", "boolean").put("description", description);
    }

    private ToolSpec spec(String name, String description, ObjectNode schema) {
        try {
            return new ToolSpec(name, description, json.writeValueAsString(schema));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise the schema of " + name, e);
        }
    }
}
