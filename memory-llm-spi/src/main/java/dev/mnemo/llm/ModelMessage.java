package dev.mnemo.llm;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One message in a conversation sent to the model.
 *
 * @param role who speaks
 * @param text what is said (may be empty, e.g. an assistant turn that only calls tools)
 * @param toolCalls the calls an assistant turn made; empty for other roles
 * @param toolCallId for a {@link Role#TOOL} message, the id of the call it answers
 */
public record ModelMessage(Role role, String text, List<ToolCall> toolCalls, Optional<String> toolCallId) {
    /**
     * Checks the components.
     *
     * @param role who speaks
     * @param text what is said (may be empty, e.g. an assistant turn that only calls tools)
     * @param toolCalls the calls an assistant turn made; empty for other roles
     * @param toolCallId for a {@link Role#TOOL} message, the id of the call it answers
     */
    public ModelMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(text, "text");
        toolCalls = List.copyOf(Objects.requireNonNull(toolCalls, "toolCalls"));
        Objects.requireNonNull(toolCallId, "toolCallId");
        if (!toolCalls.isEmpty() && role != Role.ASSISTANT) {
            throw new IllegalArgumentException("only assistant messages carry tool calls, not " + role);
        }
        if (role == Role.TOOL && toolCallId.isEmpty()) {
            throw new IllegalArgumentException("a tool message needs the id of the call it answers");
        }
        if (role != Role.TOOL && toolCallId.isPresent()) {
            throw new IllegalArgumentException("only tool messages carry a toolCallId, not " + role);
        }
    }

    /**
     * A user turn.
     *
     * @param text what the user said
     * @return the message
     */
    public static ModelMessage user(String text) {
        return new ModelMessage(Role.USER, text, List.of(), Optional.empty());
    }

    /**
     * A developer turn: instructions from the application.
     *
     * @param text the instructions
     * @return the message
     */
    public static ModelMessage developer(String text) {
        return new ModelMessage(Role.DEVELOPER, text, List.of(), Optional.empty());
    }

    /**
     * An assistant turn with text only.
     *
     * @param text what the model said
     * @return the message
     */
    public static ModelMessage assistant(String text) {
        return new ModelMessage(Role.ASSISTANT, text, List.of(), Optional.empty());
    }

    /**
     * An assistant turn that called tools; answer each call with {@link #tool(String, String)}.
     *
     * @param text what the model said, possibly empty
     * @param calls the tool calls it made
     * @return the message
     */
    public static ModelMessage assistant(String text, List<ToolCall> calls) {
        return new ModelMessage(Role.ASSISTANT, text, calls, Optional.empty());
    }

    /**
     * The output of the tool call with id {@code callId}.
     *
     * @param callId the id of the call answered
     * @param output the tool's output
     * @return the message
     */
    public static ModelMessage tool(String callId, String output) {
        return new ModelMessage(Role.TOOL, output, List.of(), Optional.of(Objects.requireNonNull(callId, "callId")));
    }
}
