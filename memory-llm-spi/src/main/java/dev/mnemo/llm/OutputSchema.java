package dev.mnemo.llm;

import java.util.Objects;

/**
 * Structured output: the model must answer with JSON matching {@code jsonSchema}.
 *
 * @param name a short name for the schema (some APIs require one)
 * @param jsonSchema the JSON Schema object, as text
 * @param strict whether the server should enforce the schema exactly
 */
public record OutputSchema(String name, String jsonSchema, boolean strict) {
    /**
     * Checks the components.
     *
     * @param name a short name for the schema (some APIs require one)
     * @param jsonSchema the JSON Schema object, as text
     * @param strict whether the server should enforce the schema exactly
     */
    public OutputSchema {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(jsonSchema, "jsonSchema");
        if (name.isBlank()) {
            throw new IllegalArgumentException("schema name must not be blank");
        }
    }
}
