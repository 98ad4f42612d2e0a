package dev.mnemo.llm;

import java.util.List;
import java.util.Objects;

/**
 * What the model answered.
 *
 * @param text the answer's text (empty when it only called tools)
 * @param toolCalls the tool calls it asked for, in order
 * @param usage tokens consumed by this request
 * @param finishReason why it stopped
 */
public record ModelResponse(String text, List<ToolCall> toolCalls, TokenUsage usage, FinishReason finishReason) {
    /**
     * Checks the components.
     *
     * @param text the answer's text (empty when it only called tools)
     * @param toolCalls the tool calls it asked for, in order
     * @param usage tokens consumed by this request
     * @param finishReason why it stopped
     */
    public ModelResponse {
        Objects.requireNonNull(text, "text");
        toolCalls = List.copyOf(Objects.requireNonNull(toolCalls, "toolCalls"));
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(finishReason, "finishReason");
    }

    /**
     * A plain text answer that stopped normally.
     *
     * @param text the answer
     * @param usage the tokens it took
     * @return the response
     */
    public static ModelResponse ofText(String text, TokenUsage usage) {
        return new ModelResponse(text, List.of(), usage, FinishReason.STOP);
    }

    /**
     * A turn that only calls tools.
     *
     * @param calls the tool calls, in order
     * @param usage the tokens it took
     * @return the response
     */
    public static ModelResponse ofToolCalls(List<ToolCall> calls, TokenUsage usage) {
        return new ModelResponse("", calls, usage, FinishReason.TOOL_CALLS);
    }
}
