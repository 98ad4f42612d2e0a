package dev.mnemo;

/**
 * A session being recorded. Each call appends one whole Codex-format JSONL line (a crash never
 * leaves half a line) and updates the thread's row. Not for concurrent use from several threads.
 */
public interface RecordedSession extends AutoCloseable {

    /**
     * The thread id the session is recorded under.
     *
     * @return the thread id
     */
    String threadId();

    /**
     * Records a user message.
     *
     * @param text the message as the user wrote it
     */
    void userMessage(String text);

    /**
     * Records an answer of the model, as the user saw it.
     *
     * @param text the visible answer
     */
    void assistantMessage(String text);

    /**
     * Instructions from the application; recorded, but never sent to the extraction model.
     *
     * @param text the instructions
     */
    void developerMessage(String text);

    /**
     * Records a tool call the model made.
     *
     * @param callId the model's id for the call
     * @param name the tool's name
     * @param argumentsJson the arguments as the model wrote them (JSON)
     */
    void toolCall(String callId, String name, String argumentsJson);

    /**
     * Records a tool call's output.
     *
     * @param callId the id of the call it answers
     * @param output the output as given to the model
     */
    void toolOutput(String callId, String output);

    /**
     * Content from outside the conversation reached the session (web search, MCP tool, fetched
     * page). With {@code disable_on_external_context} set, the thread is marked polluted.
     *
     * @param kind a short label for the log, e.g. {@code web_search}
     */
    void externalContext(String kind);

    /**
     * Stops recording; the rollout file stays.
     */
    @Override
    void close();
}
