package dev.mnemo;

import dev.mnemo.llm.ToolSpec;
import java.util.List;

/**
 * One conversation with memory: everything an agent does per turn, through one handle.
 *
 * <pre>{@code
 * try (MemorySession session = memory.openSession(SessionContext.root(conversationId))) {
 *     session.userMessage(userText);
 *     ModelResponse response = model.respond(ModelRequest.builder()
 *             .instructions(BASE_INSTRUCTIONS + "\n\n" + session.developerInstructions())
 *             .messages(conversation)
 *             .tools(session.toolSpecs())
 *             .build());
 *     // for each tool call: session.callTool(call.id(), call.name(), call.argumentsJson())
 *     AssistantMessage answer = session.assistantMessage(response.text());
 *     show(answer.visibleText());
 * }
 * }</pre>
 *
 * <p>Opening the handle starts recording the conversation (a Codex-format rollout) and the
 * background startup task. Each call records what it did: the user's text, every tool call and its
 * output, and the answer as the user saw it (citation markup removed). Cited memories are counted
 * as used, which decides what Phase 2 keeps.
 *
 * <p>The instructions of a session name the memory tools of {@link #toolSpecs()}: a session
 * assumes the model is handed those tools. An agent whose model reads the memory folder with its
 * own shell instead uses {@link MemoryEngine#buildDeveloperInstructions()}, which follows
 * {@code dedicated_tools}.
 *
 * <p>Thread-safe; the turns of one conversation are recorded in the order the calls are made.
 */
public interface MemorySession extends AutoCloseable {

    /**
     * The conversation's id, as given in its {@link SessionContext}.
     *
     * @return the conversation's id
     */
    String threadId();

    /**
     * The project this conversation is in, as its {@link SessionContext#project()} gave it when the
     * session opened; empty for a session that sees only global memory.
     *
     * @return the project key, or empty
     */
    java.util.Optional<String> project();

    /**
     * The startup task {@link MemoryEngine#openSession} started (possibly already skipped).
     *
     * @return the session's startup task
     */
    StartupTask startupTask();

    /**
     * The memory section to add to the model's instructions now: how to use the memory tools, the
     * current summary of this session's {@link #project() project} and the global one, and notes of
     * its scope not yet consolidated. Empty when {@code use_memories} is off or there is nothing to
     * show yet.
     *
     * @return the memory section, or {@code ""}
     */
    String developerInstructions();

    /**
     * The memory tools to hand the model: list, read, search and add an ad-hoc note, bound to this
     * session's project (search and list take {@code scope}; a note defaults to the project); then
     * {@code get_goal}, {@code create_goal} and {@code update_goal} when the engine was built with
     * {@link MemoryEngine.Builder#goalTools(boolean) goalTools(true)}.
     *
     * @return the tool definitions, in that order
     */
    List<ToolSpec> toolSpecs();

    /**
     * Runs a memory tool call the model made and records the call and its output.
     *
     * @param callId the model's id for the call, recorded with it
     * @param name the tool's name, as the model gave it
     * @param argumentsJson the arguments, as the model wrote them (JSON)
     * @return the tool's JSON result, or a JSON error the model can read; bad arguments never throw
     */
    String callTool(String callId, String name, String argumentsJson);

    /**
     * Records the user's message.
     *
     * @param text the message as the user wrote it (redacted before it is stored)
     */
    void userMessage(String text);

    /**
     * This conversation's goal ({@link MemoryEngine#goals()}), if one is set.
     *
     * @return the goal, or empty when none is set
     * @throws UnsupportedOperationException when the engine's store keeps no goals
     */
    default java.util.Optional<ThreadGoal> goal() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no goals");
    }

    /**
     * Sets (creating or replacing) this conversation's goal, active, with a new goal id and usage
     * reset, as {@link ThreadGoals#set} does.
     *
     * @param objective what the conversation is to achieve
     * @param tokenBudget the most tokens the goal may use; empty for no budget
     * @return the new goal
     * @throws UnsupportedOperationException when the engine's store keeps no goals
     */
    default ThreadGoal setGoal(String objective, java.util.OptionalLong tokenBudget) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no goals");
    }

    /**
     * Charges one turn's usage to this conversation's goal, as Codex's goal accounting does: its
     * tokens count as input minus cached input plus output, and {@code elapsed} adds to the time
     * used. Only an active or budget-limited goal is charged; crossing its budget turns an active
     * goal {@link GoalStatus#BUDGET_LIMITED}. The application calls it when a turn ends, with the turn's
     * usage summed over its model calls (the adapters see single calls, not turns, so they do not).
     *
     * @param usage the turn's token usage, summed over its model calls
     * @param elapsed the turn's wall-clock time
     * @return the goal after the charge; empty when there is no goal or it may not be charged
     * @throws UnsupportedOperationException when the engine's store keeps no goals
     */
    default java.util.Optional<ThreadGoal> chargeGoal(dev.mnemo.llm.TokenUsage usage, java.time.Duration elapsed) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no goals");
    }

    /**
     * Takes a whole answer: strips citation markup, records the visible text, then counts the
     * cited memories as used.
     *
     * @param rawText the answer as the model wrote it, citation markup included
     * @return the visible text and the citations it carried
     */
    AssistantMessage assistantMessage(String rawText);

    /**
     * Takes an answer that arrives in chunks. Citation markup split across any chunk boundaries
     * never reaches {@link AnswerStream#push}'s result. A stream left without
     * {@link AnswerStream#finish()} is recorded, up to what was shown, when the session closes;
     * its citations are then not counted.
     *
     * @return a stream to push the answer's chunks into
     */
    AnswerStream streamAnswer();

    /**
     * Content from outside the conversation reached it (web search, an MCP tool, a fetched page);
     * with {@code disable_on_external_context} the conversation is marked polluted. Either way, every
     * ad-hoc note the conversation asks for from then on waits for a person's approval (see
     * {@link MemoryAdmin#pending()}), even with {@code approval = "auto"}: the outside text may have
     * written it. Report it before handing the model the content.
     *
     * @param kind what the content was, e.g. {@code web_search} or an MCP tool's name, for the log
     */
    void externalContext(String kind);

    /**
     * Claims the conversation for one exchange: the user's message, the tool calls and the answer
     * of one request. While the returned turn is open, a second {@code beginTurn()} on this
     * conversation fails at once, before anything of it is recorded, so two requests can never
     * interleave their turns in the rollout; and the session is never evicted as idle. Adapters
     * open one per request and close it when the answer is complete (or the request failed).
     *
     * <pre>{@code
     * try (MemorySession.Turn turn = session.beginTurn()) {
     *     session.userMessage(userText);
     *     ...
     *     session.assistantMessage(answer);
     * }
     * }</pre>
     *
     * <p>Calls made without a turn are recorded as before, in the order they are made.
     *
     * @return the turn; close it when the exchange is over
     * @throws ConversationBusyException when another turn of this conversation is open
     * @throws IllegalStateException when the session is closed
     */
    Turn beginTurn();

    /** One exchange's claim on a conversation; see {@link #beginTurn()}. Closing it twice is harmless. */
    interface Turn extends AutoCloseable {

        /** Ends the exchange: the conversation accepts the next one. */
        @Override
        void close();
    }

    /** Records any unfinished answer stream and stops recording. The startup task runs on. */
    @Override
    void close();

    /**
     * The conversation is finished: Phase 1 may extract it at the next startup task (or
     * {@link MemoryAdmin#runPhase1(String)}) without waiting {@code min_rollout_idle_hours}. Codex waits
     * because it cannot tell a session that is over from one that pauses; an application that knows
     * says so here. A conversation that is merely idle still waits, as in Codex, and every other rule
     * of the claim (age, source, memory mode, retries) still applies.
     *
     * <p>Nothing is recorded in the rollout, and the session stays open. Calling it again is
     * harmless (the end moves to now). A turn recorded after it (a user message, a tool call, an
     * answer) takes the conversation back: it is then under the idle rule again until it is ended
     * again ({@link ThreadInfo#finished()}). A conversation with nothing recorded yet has nothing
     * to extract and is not marked. Also allowed after {@link #close()}, while the engine is open;
     * {@link MemoryEngine#closeConversation} ends and closes in one call. When the engine's store
     * keeps no end marks the conversation waits as before, and that is logged.
     *
     * <pre>{@code
     * session.assistantMessage(lastAnswer);
     * session.end();        // the user closed the chat: extractable at the next startup task
     * }</pre>
     *
     * @throws IllegalStateException when the engine is closed
     * @throws UnsupportedOperationException from an implementation written before this method
     */
    default void end() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot end its conversation");
    }
}
