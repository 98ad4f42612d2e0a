package dev.mnemo.langchain4j;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.model.chat.request.json.JsonAnyOfSchema;
import dev.langchain4j.model.chat.request.json.JsonArraySchema;
import dev.langchain4j.model.chat.request.json.JsonBooleanSchema;
import dev.langchain4j.model.chat.request.json.JsonEnumSchema;
import dev.langchain4j.model.chat.request.json.JsonIntegerSchema;
import dev.langchain4j.model.chat.request.json.JsonNullSchema;
import dev.langchain4j.model.chat.request.json.JsonNumberSchema;
import dev.langchain4j.model.chat.request.json.JsonObjectSchema;
import dev.langchain4j.model.chat.request.json.JsonSchemaElement;
import dev.langchain4j.model.chat.request.json.JsonStringSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * Mnemo's JSON Schemas (tool parameters, Phase 1's output) as LangChain4j schema elements.
 *
 * <p>LangChain4j's element types carry structure, descriptions, {@code enum}, {@code required} and
 * {@code additionalProperties}; they have no place for value constraints, so {@code pattern},
 * {@code minLength}, {@code maxLength}, {@code minimum} and {@code minItems} are dropped. Nothing
 * is lost for correctness: the memory tools check their arguments themselves and answer a bad one
 * with a JSON error the model can read, and Phase 1 parses its reply against the full schema.
 * A nullable type ({@code ["string","null"]}) and {@code oneOf} become {@code anyOf}.
 */
final class JsonSchemas {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JsonSchemas() {}

    /** The schema of an object (tool parameters, a structured reply). */
    static JsonObjectSchema object(String what, String jsonSchema) {
        JsonSchemaElement element = element(what, parse(what, jsonSchema));
        if (!(element instanceof JsonObjectSchema object)) {
            throw new IllegalArgumentException("the schema of " + what + " is not an object schema: " + jsonSchema);
        }
        return object;
    }

    private static JsonNode parse(String what, String jsonSchema) {
        try {
            return JSON.readTree(jsonSchema);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the schema of " + what + " is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static JsonSchemaElement element(String what, JsonNode node) {
        String description = node.hasNonNull("description") ? node.get("description").asText() : null;
        if (node.has("enum")) {
            List<String> values = new ArrayList<>();
            node.get("enum").forEach(v -> values.add(v.asText()));
            return JsonEnumSchema.builder().enumValues(values).description(description).build();
        }
        JsonNode variants = node.has("oneOf") ? node.get("oneOf") : node.get("anyOf");
        if (variants != null) {
            List<JsonSchemaElement> anyOf = new ArrayList<>();
            variants.forEach(v -> anyOf.add(element(what, v)));
            return JsonAnyOfSchema.builder().anyOf(anyOf).description(description).build();
        }
        JsonNode type = node.get("type");
        if (type != null && type.isArray()) {
            List<JsonSchemaElement> anyOf = new ArrayList<>();
            for (JsonNode single : type) {
                anyOf.add(typed(what, single.asText(), node, null));
            }
            return anyOf.size() == 1 ? anyOf.get(0) : JsonAnyOfSchema.builder().anyOf(anyOf).description(description)
                    .build();
        }
        String name = type != null ? type.asText() : node.has("properties") ? "object" : "";
        return typed(what, name, node, description);
    }

    private static JsonSchemaElement typed(String what, String type, JsonNode node, String description) {
        switch (type) {
            case "object":
                return object(what, node, description);
            case "array": {
                JsonArraySchema.Builder array = JsonArraySchema.builder().description(description);
                if (node.has("items")) {
                    array.items(element(what, node.get("items")));
                }
                return array.build();
            }
            case "string":
                return JsonStringSchema.builder().description(description).build();
            case "integer":
                return JsonIntegerSchema.builder().description(description).build();
            case "number":
                return JsonNumberSchema.builder().description(description).build();
            case "boolean":
                return JsonBooleanSchema.builder().description(description).build();
            case "null":
                return new JsonNullSchema();
            default:
                throw new IllegalArgumentException("the schema of " + what + " has an element of unsupported type '"
                        + type + "': " + node);
        }
    }

    private static JsonObjectSchema object(String what, JsonNode node, String description) {
        JsonObjectSchema.Builder object = JsonObjectSchema.builder().description(description);
        node.path("properties").properties().forEach(p -> object.addProperty(p.getKey(), element(what, p.getValue())));
        List<String> required = new ArrayList<>();
        node.path("required").forEach(r -> required.add(r.asText()));
        object.required(required);
        if (node.has("additionalProperties") && node.get("additionalProperties").isBoolean()) {
            object.additionalProperties(node.get("additionalProperties").asBoolean());
        }
        return object.build();
    }
}
