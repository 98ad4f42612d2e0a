package dev.mnemo.internal.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.internal.sandbox.ToolFailure;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Strict reading of a tool's JSON arguments, with messages in the spirit of serde's (the model
 * sees them): {@code unknown field `query`, expected one of …}, {@code missing field `path`},
 * {@code invalid type: …, expected …}. Empty or blank arguments mean {@code {}}; an explicit
 * {@code null} for an optional field means the field is absent.
 */
final class ToolArguments {

    private final JsonNode object;
    private final String where;

    private ToolArguments(JsonNode object, String where) {
        this.object = object;
        this.where = where;
    }

    /** Parses the whole argument string and rejects any field outside {@code fields}. */
    static ToolArguments parse(ObjectMapper json, String argumentsJson, List<String> fields) {
        if (argumentsJson == null || argumentsJson.isBlank()) {
            return new ToolArguments(json.createObjectNode(), "");
        }
        JsonNode node;
        try {
            node = json.readTree(argumentsJson);
        } catch (JsonProcessingException e) {
            throw new ToolFailure("failed to parse tool arguments as JSON: " + e.getOriginalMessage());
        }
        return of(node, "", fields);
    }

    /** Wraps a nested object (for example {@code match_mode}), rejecting unknown fields. */
    static ToolArguments of(JsonNode node, String where, List<String> fields) {
        if (node == null || !node.isObject()) {
            throw new ToolFailure("invalid type: " + describe(node) + ", expected an object"
                    + (where.isEmpty() ? "" : " for `" + where + "`"));
        }
        Set<String> allowed = Set.copyOf(fields);
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw new ToolFailure("unknown field `" + name + "`" + (where.isEmpty() ? "" : " in `" + where + "`")
                        + ", expected " + (fields.size() == 1 ? "`" + fields.get(0) + "`" : "one of "
                        + fields.stream().map(f -> "`" + f + "`").collect(Collectors.joining(", "))));
            }
        }
        return new ToolArguments(node, where);
    }

    Optional<JsonNode> node(String name) {
        JsonNode value = object.get(name);
        return value == null || value.isNull() ? Optional.empty() : Optional.of(value);
    }

    Optional<String> optionalString(String name) {
        return node(name).map(value -> {
            if (!value.isTextual()) {
                throw invalidType(name, value, "a string");
            }
            return value.textValue();
        });
    }

    String requiredString(String name) {
        return optionalString(name).orElseThrow(() -> missing(name));
    }

    Optional<Boolean> optionalBoolean(String name) {
        return node(name).map(value -> {
            if (!value.isBoolean()) {
                throw invalidType(name, value, "a boolean");
            }
            return value.booleanValue();
        });
    }

    /** A non-negative whole number; values beyond {@code int} saturate (they exceed every limit anyway). */
    Optional<Integer> optionalCount(String name) {
        return node(name).map(value -> {
            if (!value.isIntegralNumber() || value.bigIntegerValue().signum() < 0) {
                throw invalidType(name, value, "a non-negative integer");
            }
            return value.canConvertToInt() ? value.intValue() : Integer.MAX_VALUE;
        });
    }

    List<String> requiredStringList(String name) {
        JsonNode value = node(name).orElseThrow(() -> missing(name));
        if (!value.isArray()) {
            throw invalidType(name, value, "an array of strings");
        }
        List<String> items = new ArrayList<>();
        for (JsonNode item : value) {
            if (!item.isTextual()) {
                throw invalidType(name, item, "a string");
            }
            items.add(item.textValue());
        }
        return items;
    }

    ToolFailure missing(String name) {
        return new ToolFailure("missing field `" + qualified(name) + "`");
    }

    ToolFailure invalidType(String name, JsonNode value, String expected) {
        return new ToolFailure("invalid type: " + describe(value) + ", expected " + expected
                + " for `" + qualified(name) + "`");
    }

    private String qualified(String name) {
        return where.isEmpty() ? name : where + "." + name;
    }

    private static String describe(JsonNode value) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return "null";
        } else if (value.isTextual()) {
            String text = value.textValue();
            return "string \"" + (text.length() > 40 ? text.substring(0, 40) + "…" : text) + "\"";
        } else if (value.isIntegralNumber()) {
            return "integer `" + value.asText() + "`";
        } else if (value.isNumber()) {
            return "floating point `" + value.asText() + "`";
        } else if (value.isBoolean()) {
            return "boolean `" + value.asText() + "`";
        } else if (value.isArray()) {
            return "sequence";
        }
        return "map";
    }
}
