package dev.mnemo.internal.agent;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.internal.sandbox.ToolFailure;
import java.util.Iterator;
import java.util.Set;

/**
 * The arguments of one tool call, parsed from the JSON the model wrote and checked against the
 * names the tool accepts. Every mistake becomes a {@link ToolFailure} the model can read.
 */
final class ToolArguments {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String tool;
    private final JsonNode node;

    private ToolArguments(String tool, JsonNode node) {
        this.tool = tool;
        this.node = node;
    }

    /**
     * Parses {@code argumentsJson}; blank text counts as {@code {}}.
     *
     * @param allowed the argument names the tool accepts; any other name is refused
     */
    static ToolArguments parse(String tool, String argumentsJson, Set<String> allowed) {
        JsonNode node;
        if (argumentsJson.isBlank()) {
            node = JSON.createObjectNode();
        } else {
            try {
                node = JSON.readTree(argumentsJson);
            } catch (JacksonException e) {
                throw new ToolFailure("arguments of " + tool + " are not valid JSON: " + e.getOriginalMessage());
            }
        }
        if (node == null || !node.isObject()) {
            throw new ToolFailure("arguments of " + tool + " must be a JSON object, was " + describe(node));
        }
        Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw new ToolFailure(tool + " has no argument '" + name + "'; it takes " + String.join(", ",
                        allowed.stream().sorted().toList()));
            }
        }
        return new ToolArguments(tool, node);
    }

    String requiredString(String name) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            throw new ToolFailure(tool + " needs the argument '" + name + "'");
        }
        return string(name, value);
    }

    String optionalString(String name, String fallback) {
        JsonNode value = node.get(name);
        return value == null || value.isNull() ? fallback : string(name, value);
    }

    int optionalInt(String name, int fallback) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw new ToolFailure("argument '" + name + "' of " + tool + " must be a whole number, was " + describe(value));
        }
        return value.intValue();
    }

    boolean optionalBoolean(String name, boolean fallback) {
        JsonNode value = node.get(name);
        if (value == null || value.isNull()) {
            return fallback;
        }
        if (!value.isBoolean()) {
            throw new ToolFailure("argument '" + name + "' of " + tool + " must be true or false, was " + describe(value));
        }
        return value.booleanValue();
    }

    private String string(String name, JsonNode value) {
        if (!value.isTextual()) {
            throw new ToolFailure("argument '" + name + "' of " + tool + " must be a string, was " + describe(value));
        }
        return value.textValue();
    }

    private static String describe(JsonNode node) {
        if (node == null) {
            return "nothing";
        }
        String text = node.toString();
        return node.getNodeType().name().toLowerCase(java.util.Locale.ROOT) + " "
                + (text.length() > 80 ? text.substring(0, 80) + "…" : text);
    }
}
