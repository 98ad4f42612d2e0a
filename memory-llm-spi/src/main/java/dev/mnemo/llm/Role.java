package dev.mnemo.llm;

/** Who speaks in a {@link ModelMessage}. */
public enum Role {
    /** Instructions from the application, weighed above the user's words. */
    DEVELOPER,
    /** The person (or the pipeline acting for them). */
    USER,
    /** The model's own earlier turns, including the tool calls it made. */
    ASSISTANT,
    /** The output of a tool call, answering one {@link ToolCall#id()}. */
    TOOL
}
