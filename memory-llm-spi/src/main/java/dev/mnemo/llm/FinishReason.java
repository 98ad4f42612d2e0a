package dev.mnemo.llm;

/** Why the model stopped producing output. */
public enum FinishReason {
    /** It finished its answer. */
    STOP,
    /** It wants the caller to run the tool calls in the response. */
    TOOL_CALLS,
    /** It hit the output token limit; the text may be cut. */
    LENGTH,
    /** The server's content filter stopped it. */
    CONTENT_FILTER,
    /** Anything else the server reported. */
    OTHER
}
