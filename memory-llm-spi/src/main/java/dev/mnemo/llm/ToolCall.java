package dev.mnemo.llm;

import java.util.Objects;

/**
 * A call the model asked for.
 *
 * @param id the server's id for the call; the answer goes back as {@link ModelMessage#tool(String, String)}
 *     with this id
 * @param name the tool's name
 * @param argumentsJson the arguments as the model wrote them (JSON, not yet validated)
 */
public record ToolCall(String id, String name, String argumentsJson) {
    /**
     * Checks the components.
     *
     * @param id the server's id for the call; the answer goes back as {@link ModelMessage#tool(String, String)}
     *     with this id
     * @param name the tool's name
     * @param argumentsJson the arguments as the model wrote them (JSON, not yet validated)
     */
    public ToolCall {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(argumentsJson, "argumentsJson");
    }
}
