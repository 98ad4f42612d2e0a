package dev.mnemo.llm;

import java.util.Objects;

/**
 * A function the model may call.
 *
 * @param name a function name the model sees (letters, digits, {@code _} and {@code -})
 * @param description what the tool does, written for the model
 * @param parametersJsonSchema a JSON Schema object describing the arguments
 */
public record ToolSpec(String name, String description, String parametersJsonSchema) {
    /**
     * Checks the components.
     *
     * @param name a function name the model sees (letters, digits, {@code _} and {@code -})
     * @param description what the tool does, written for the model
     * @param parametersJsonSchema a JSON Schema object describing the arguments
     */
    public ToolSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parametersJsonSchema, "parametersJsonSchema");
        if (name.isBlank()) {
            throw new IllegalArgumentException("tool name must not be blank");
        }
    }
}
