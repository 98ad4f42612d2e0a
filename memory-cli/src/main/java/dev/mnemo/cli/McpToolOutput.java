package dev.mnemo.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.MemoryTools;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Structured output for {@value MemoryTools#SEARCH} and {@value MemoryTools#LIST}: the
 * {@code outputSchema} each tool declares, and the {@code structuredContent} of an answer, which is
 * the answer's JSON itself (the text content carries the same JSON, for clients that read text
 * only). The schemas name the fields a client can rely on and leave room for more (no
 * {@code additionalProperties: false}): the pages an output budget makes may add a field.
 */
final class McpToolOutput {

    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};
    /** The tools with structured output. */
    private static final Set<String> STRUCTURED = Set.of(MemoryTools.SEARCH, MemoryTools.LIST);

    private final ObjectMapper json;

    McpToolOutput(ObjectMapper json) {
        this.json = json;
    }

    /** The output schema of {@code tool}, for the tools that answer with structured output. */
    Optional<Map<String, Object>> schema(String tool) {
        ObjectNode schema = switch (tool) {
            case MemoryTools.SEARCH -> searchSchema();
            case MemoryTools.LIST -> listSchema();
            default -> null;
        };
        return Optional.ofNullable(schema).map(node -> json.convertValue(node, MAP));
    }

    /**
     * The structured content of a successful answer of {@code tool}: the answer's JSON object; empty
     * for a tool without an output schema.
     */
    Optional<Map<String, Object>> content(String tool, JsonNode answer) {
        if (!STRUCTURED.contains(tool) || !answer.isObject()) {
            return Optional.empty();
        }
        return Optional.of(json.convertValue(answer, MAP));
    }

    private ObjectNode searchSchema() {
        ObjectNode schema = object("A page of matches, best first: this session's project before the rest.");
        ObjectNode properties = (ObjectNode) schema.get("properties");
        properties.putObject("queries").put("description", "The queries searched for, as the call gave them.");
        properties.putObject("match_mode").put("type", "object").put("description", "How the queries had to co-occur.");
        nullableString(properties, "path", "The file or folder searched; null for the whole memory folder.");
        ObjectNode match = itemsOf(properties, "matches", "The matches of this page.");
        ObjectNode fields = (ObjectNode) match.get("properties");
        string(fields, "path", "The file, relative to the memory folder.");
        integer(fields, "match_line_number", "The 1-based line that matched.");
        integer(fields, "content_start_line_number", "The 1-based line content starts at (with context lines).");
        string(fields, "content", "The matching line, with its context lines.");
        fields.putObject("matched_queries").put("type", "array").put("description", "The queries this match has.")
                .putObject("items").put("type", "string");
        match.putArray("required").add("path").add("match_line_number").add("content");
        paging(properties);
        schema.putArray("required").add("matches");
        return schema;
    }

    private ObjectNode listSchema() {
        ObjectNode schema = object("A page of the files and folders directly inside a folder of the memory store.");
        ObjectNode properties = (ObjectNode) schema.get("properties");
        nullableString(properties, "path", "The folder (or file) listed; null for the memory folder itself.");
        ObjectNode entry = itemsOf(properties, "entries", "The entries of this page.");
        ObjectNode fields = (ObjectNode) entry.get("properties");
        string(fields, "path", "The entry, relative to the memory folder.");
        fields.putObject("entry_type").put("type", "string").put("description", "`file` or `directory`.")
                .putArray("enum").add("file").add("directory");
        entry.putArray("required").add("path").add("entry_type");
        paging(properties);
        schema.putArray("required").add("entries");
        return schema;
    }

    private ObjectNode object(String description) {
        ObjectNode schema = json.createObjectNode().put("type", "object").put("description", description);
        schema.putObject("properties");
        return schema;
    }

    private void paging(ObjectNode properties) {
        nullableString(properties, "next_cursor", "Pass as cursor for the next page; null on the last page.");
        properties.putObject("truncated").put("type", "boolean").put("description", "Whether more pages follow.");
    }

    private ObjectNode itemsOf(ObjectNode properties, String name, String description) {
        ObjectNode array = properties.putObject(name).put("type", "array").put("description", description);
        ObjectNode item = array.putObject("items").put("type", "object");
        item.putObject("properties");
        return item;
    }

    private static void string(ObjectNode properties, String name, String description) {
        properties.putObject(name).put("type", "string").put("description", description);
    }

    private static void integer(ObjectNode properties, String name, String description) {
        properties.putObject(name).put("type", "integer").put("description", description);
    }

    private static void nullableString(ObjectNode properties, String name, String description) {
        ObjectNode field = properties.putObject(name).put("description", description);
        field.putArray("type").add("string").add("null");
    }
}
