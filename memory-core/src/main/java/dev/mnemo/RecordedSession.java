package dev.mnemo;

/**
 * A session being recorded. Each call appends one whole Codex-format JSONL line (a crash never
 * leaves half a line) and updates the thread's row. Not for concurrent use from several threads.
 */
public interface RecordedSession extends AutoCloseable {

    String threadId();

    void userMessage(String text);

    void assistantMessage(String text);

    /** Instructions from the application; recorded, but never sent to the extraction model. */
    void developerMessage(String text);

    void toolCall(String callId, String name, String argumentsJson);

    void toolOutput(String callId, String output);

    /**
     * Content from outside the conversation reached the session (web search, MCP tool, fetched
     * page). With {@code disable_on_external_context} set, the thread is marked polluted.
     *
     * @param kind a short label for the log, e.g. {@code web_search}
     */
    void externalContext(String kind);

    @Override
    void close();
}
