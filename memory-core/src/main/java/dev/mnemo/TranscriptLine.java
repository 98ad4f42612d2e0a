package dev.mnemo;

import java.time.Instant;
import java.util.Objects;

/**
 * One readable line of a recorded conversation, redacted as memories are.
 *
 * @param at when it was recorded
 * @param role {@code user}, {@code assistant}, {@code developer}, {@code tool_call} or {@code tool_output}
 * @param text the message, or the tool's name and arguments, or its output
 */
public record TranscriptLine(Instant at, String role, String text) {
    /**
     * Checks the components.
     *
     * @param at when it was recorded
     * @param role {@code user}, {@code assistant}, {@code developer}, {@code tool_call} or {@code tool_output}
     * @param text the message, or the tool's name and arguments, or its output
     * @throws NullPointerException when a component is null
     */
    public TranscriptLine {
        Objects.requireNonNull(at, "at");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(text, "text");
    }
}
