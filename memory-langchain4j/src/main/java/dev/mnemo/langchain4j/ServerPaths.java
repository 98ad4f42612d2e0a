package dev.mnemo.langchain4j;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Keeps paths of this machine out of the memory tools' results before they go to the model
 * provider. The memory files Mnemo writes name each session's raw log and working folder
 * ({@code rollout_path: /var/lib/app/.mnemo/sessions/...}, {@code cwd=/srv/...}, in
 * {@code raw_memories.md}, the rollout summaries and, copied by the consolidation model, in
 * {@code MEMORY.md}); a model handed the tools can read them but never open them. Each such value
 * that is an absolute path becomes its last element (the raw log's file name still names the
 * session). Other text, including paths a user wrote into a memory, is left as it is.
 *
 * <p>This belongs in core, where the tools answer (Spring AI's and MCP's callers need it too); it
 * lives here until core's tool results carry no absolute path.
 */
final class ServerPaths {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** {@code rollout_path: VALUE} to the end of the line, as the memory files write it. */
    private static final Pattern LINE_FIELD = Pattern.compile("\\b(rollout_path|cwd):[ \\t]*([^\\n]+)");
    /** {@code rollout_path=VALUE} inside a list such as {@code (cwd=..., rollout_path=..., ...)}. */
    private static final Pattern INLINE_FIELD = Pattern.compile("\\b(rollout_path|cwd)=([^,)\\n]+)");

    private ServerPaths() {}

    /** A tool's JSON result without absolute {@code rollout_path} and {@code cwd} values. */
    static String redact(String toolResultJson) {
        if (!toolResultJson.contains("rollout_path") && !toolResultJson.contains("cwd")) {
            return toolResultJson;
        }
        try {
            JsonNode tree = JSON.readTree(toolResultJson);
            return JSON.writeValueAsString(redactNode(tree));
        } catch (JsonProcessingException e) {
            return redactText(toolResultJson); // not JSON: the plain text still goes out without the paths
        }
    }

    private static JsonNode redactNode(JsonNode node) {
        if (node.isTextual()) {
            return TextNode.valueOf(redactText(node.textValue()));
        }
        if (node instanceof ObjectNode object) {
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                field.setValue(redactNode(field.getValue()));
            }
        } else if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, redactNode(array.get(i)));
            }
        }
        return node;
    }

    static String redactText(String text) {
        return replace(INLINE_FIELD, "=", replace(LINE_FIELD, ": ", text));
    }

    private static String replace(Pattern field, String separator, String text) {
        Matcher matcher = field.matcher(text);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            String value = matcher.group(2).strip();
            String replacement = isAbsolute(value) ? matcher.group(1) + separator + lastElement(value)
                    : matcher.group();
            matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    private static boolean isAbsolute(String value) {
        return value.startsWith("/") || value.startsWith("~") || value.startsWith("\\\\")
                || value.matches("^[A-Za-z]:[\\\\/].*");
    }

    private static String lastElement(String path) {
        String trimmed = path.replaceAll("[\\\\/]+$", "");
        int slash = Math.max(trimmed.lastIndexOf('/'), trimmed.lastIndexOf('\\'));
        return trimmed.substring(slash + 1);
    }
}
