package dev.mnemo;

import dev.mnemo.internal.engine.EngineBuilder;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.TokenCounter;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.MemoryWorkspace;
import dev.mnemo.spi.RolloutSource;
import dev.mnemo.spi.SecretRedactor;
import dev.mnemo.spi.SessionStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;

/**
 * Long-term memory for one agent application. Build it once, share it, close it on shutdown.
 *
 * <pre>{@code
 * try (MemoryEngine memory = MemoryEngine.builder().model(model).build();
 *      MemorySession session = memory.openSession(SessionContext.root(conversationId))) {
 *     session.userMessage(userText);
 *     String instructions = session.developerInstructions();   // plus session.toolSpecs() for the model
 *     ...
 *     AssistantMessage shown = session.assistantMessage(modelAnswer);
 * }
 * }</pre>
 *
 * <p>{@link #openSession} is the one handle an agent needs per conversation; the separate calls
 * below ({@link #startStartupTask}, {@link #sessions()}, {@link #buildDeveloperInstructions()},
 * {@link #processAssistantMessage}) remain for agents that wire the steps themselves.
 *
 * <p>All methods are thread-safe.
 */
public interface MemoryEngine extends AutoCloseable {

    /**
     * A builder; only a model is needed for the pipeline to run.
     *
     * @return a new builder with the defaults
     */
    static Builder builder() {
        return new EngineBuilder();
    }

    /**
     * Opens the handle for one conversation: starts recording it and submits the startup task.
     * A conversation whose rollout this home already recorded is continued in the same rollout.
     *
     * @param session the conversation's thread id, project, working folder and source
     * @return the conversation's handle, to close when the conversation's part in this process ends
     * @throws IllegalStateException when a session for this thread id is already open in this
     *     engine (use {@link #conversation(String)} to share it) or the engine is closed
     */
    MemorySession openSession(SessionContext session);

    /**
     * The open session of a conversation, opened with {@link SessionContext#root(String)} on first
     * use and shared by every caller afterwards: what framework adapters use, where requests
     * name a conversation but nothing opens or closes it. Closed by {@link #close()} at the latest.
     *
     * @param conversationId any non-blank id
     * @return the conversation's shared session; callers do not close it
     */
    MemorySession conversation(String conversationId);

    /**
     * {@link #conversation(String)} for a conversation with a context: opened with {@code session}
     * on first use (its project, working folder and source), shared afterwards. Adapters use it to
     * put a conversation in a project ({@link SessionContext#inProject}).
     *
     * @param session the conversation's context, used only when the conversation is not open yet
     * @return the conversation's shared session; callers do not close it
     * @throws IllegalArgumentException when the conversation is already open in another project:
     *     answering it with the other project's memory would mix the two
     */
    MemorySession conversation(SessionContext session);

    /**
     * Ends a conversation now: closes its open session, as {@link MemorySession#close()} does, then
     * marks it finished, as {@link MemorySession#end()} does (also when no session of it was open,
     * e.g. one closed as idle), so Phase 1 may extract it without waiting
     * {@code min_rollout_idle_hours}. What an application calls when a conversation ends (a chat
     * closed, a user logged out). A later {@link #conversation(String)} for the same id continues its
     * rollout, and its next turn puts it back under the idle rule. Conversations opened by
     * {@link #conversation(String)} are also closed by the engine once idle for the builder's
     * {@link Builder#conversationIdleTimeout(Duration) conversationIdleTimeout}, or when more than
     * {@link Builder#maxOpenConversations(int) maxOpenConversations} are open; that close is not an
     * end, and such a conversation waits for its idle window.
     *
     * @param conversationId the conversation's id, as given to {@link #conversation(String)}
     * @return false when the conversation had no open session
     */
    boolean closeConversation(String conversationId);

    /**
     * Submits the background pipeline for a session that is starting: sync threads, prune, Phase 1
     * and Phase 2. Returns at once; the work runs on the engine's executor.
     *
     * @param session the starting session, whose own thread Phase 1 never claims
     * @return the submitted task, to wait for or inspect
     */
    StartupTask startStartupTask(SessionContext session);

    /**
     * The memory part of the developer instructions: how to use the memory folder and the current
     * summary. Empty when {@code use_memories} is off or there is no summary yet.
     *
     * @return the instructions' text, or {@code ""}
     */
    String buildDeveloperInstructions();

    /**
     * {@link #buildDeveloperInstructions()} for a session in a project: that project's summary
     * first (cut last), then the global one, both within {@code summary_token_limit}, and the notes
     * the user asked to remember in that scope that no consolidation has folded in yet. Another
     * project's memory is never included. The no-argument form, for a session without a project,
     * carries the global summary and a one-line index of the projects that have memory.
     *
     * @param projectKey a project key, as {@link SessionContext#project()} gives it
     * @return the instructions' text, or {@code ""}
     */
    String buildDeveloperInstructions(String projectKey);

    /**
     * The memory part of the instructions for a model that is handed {@link #tools()} rather than a
     * shell, whatever {@code dedicated_tools} says: every step names a memory tool and every path is
     * relative to the memory folder, so nothing sent to a model provider names a path on this
     * machine. What {@link MemorySession#developerInstructions()} returns; for framework adapters
     * that have no session for a request. Empty when {@code use_memories} is off or there is no
     * summary yet.
     *
     * @return the instructions' text, or {@code ""}
     */
    String buildToolInstructions();

    /**
     * {@link #buildToolInstructions()} for a session in a project, scoped as
     * {@link #buildDeveloperInstructions(String)}.
     *
     * @param projectKey a project key, as {@link SessionContext#project()} gives it
     * @return the instructions' text, or {@code ""}
     */
    String buildToolInstructions(String projectKey);

    /**
     * Strips citation markup from an answer and counts the cited memories as used. The thread id
     * names the conversation that cited them for {@link MemoryEventListener#memoriesCited}; usage
     * itself is counted per memory, as in Codex.
     *
     * @param threadId the conversation that gave the answer
     * @param text the model's whole answer, with its citation markup
     * @return the visible text, the parsed citation and how many memories were counted
     */
    AssistantMessage processAssistantMessage(String threadId, String text);

    /**
     * The registered threads and their memory modes.
     *
     * @return the engine's thread registry
     */
    ThreadRegistry threads();

    /**
     * Records sessions; the engine keeps track of those it started and closes the ones still open
     * when it closes. Its {@code start(..)} fails with {@link IllegalStateException} once the engine
     * is closed.
     *
     * @return the engine's session recorder
     */
    SessionRecorder sessions();

    /**
     * The memory tools a model may call (list, read, search the memory folder, remember a note),
     * for agents that hand tools rather than a shell to their model.
     *
     * @return the engine's memory tools
     */
    MemoryTools tools();

    /**
     * The short-term layer: user messages of recorded sessions ({@code history.jsonl}).
     *
     * @return the engine's message history
     */
    MessageHistory messageHistory();

    /**
     * Which thread spawned which sub-agent.
     *
     * @return the engine's spawn graph
     */
    AgentGraph agentGraph();

    /**
     * Mnemo's structured events per thread.
     *
     * @return the engine's thread logs
     */
    ThreadLogs threadLogs();

    /**
     * Each thread's goal.
     *
     * @return the engine's goals
     */
    ThreadGoals goals();

    /**
     * Operations for tools and operators: run phases on demand, look inside, roll back, forget.
     *
     * @return the engine's admin operations
     */
    MemoryAdmin admin();

    /**
     * The {@code [memories]} settings the engine was built with.
     *
     * @return the settings, clamped as {@link MemoriesConfig.Builder#build()} clamps
     */
    MemoriesConfig config();

    /**
     * How this engine counts tokens for the summary cap ({@code summary_token_limit}) and what
     * shows it (the console's budget bars): its model's {@link LanguageModel#tokenCounter()}
     * (the extraction model's, when one is set apart), else {@link TokenCounter#estimate()},
     * four UTF-8 bytes to a token, as Codex counts.
     *
     * @return the counter; the default implementation gives the estimate
     */
    default TokenCounter tokenCounter() {
        return TokenCounter.estimate();
    }

    /**
     * Closes the open sessions (recording what their unfinished answers showed), and every session
     * started through {@link #sessions()} that is still recording, then waits a bounded time for
     * running work, then cancels it and releases the jobs it owns for
     * another worker; closes the store and workspace the engine opened itself.
     */
    @Override
    void close();

    /** Configures a {@link MemoryEngine}; {@link #build()} validates everything at once. */
    interface Builder {

        /**
         * The folder for state, sessions and memories; default {@code $MNEMO_HOME}, else {@code ~/.mnemo}.
         *
         * @param home the home folder, holding the state, {@code sessions/}, the memory folder and {@code config.toml}
         * @return this builder
         */
        Builder home(Path home);

        /**
         * Settings; default {@code <home>/config.toml}'s {@code [memories]} table, else the defaults.
         *
         * @param config the {@code [memories]} settings, replacing what {@code config.toml} says
         * @return this builder
         */
        Builder config(MemoriesConfig config);

        /**
         * The model for both phases.
         *
         * @param model the model that extracts and consolidates, unless one is set for a phase
         * @return this builder
         */
        Builder model(LanguageModel model);

        /**
         * The model for Phase 1 only (overrides {@link #model}).
         *
         * @param model the model that extracts memories from rollouts
         * @return this builder
         */
        Builder extractionModel(LanguageModel model);

        /**
         * The model for the default consolidation agent only (overrides {@link #model}).
         *
         * @param model the model the default consolidation agent runs
         * @return this builder
         */
        Builder consolidationModel(LanguageModel model);

        /**
         * Replaces the default tool-loop consolidation agent.
         *
         * @param agent the agent that runs Phase 2 over the memory folder
         * @return this builder
         */
        Builder consolidationAgent(ConsolidationAgent agent);

        /**
         * The state store; default: the one {@link dev.mnemo.spi.MemoryStoreProvider} on the class path.
         *
         * @param store the store; the engine does not close a store it was given
         * @return this builder
         */
        Builder store(MemoryStore store);

        /**
         * The workspace; default: the one {@link dev.mnemo.spi.MemoryWorkspaceProvider} on the class path.
         *
         * @param workspace the memory folder's workspace; the engine does not close a workspace it was given
         * @return this builder
         */
        Builder workspace(MemoryWorkspace workspace);

        /**
         * Adds a rollout source; the session recorder's own folder is always scanned.
         *
         * @param source another place rollouts are found, such as Codex's own sessions folder
         * @return this builder
         */
        Builder rolloutSource(RolloutSource source);

        /**
         * Where recorded sessions are written and read back by Phase 1; default: files under
         * {@code <home>/sessions/}. Fleet mode keeps them in a database shared by every server.
         *
         * @param sessionStore where rollouts of recorded sessions are kept
         * @return this builder
         */
        Builder sessionStore(SessionStore sessionStore);

        /**
         * Replaces the built-in secret redactor.
         *
         * @param redactor the redactor applied to text before it is stored or sent to a model
         * @return this builder
         */
        Builder redactor(SecretRedactor redactor);

        /**
         * Adds a listener for pipeline events.
         *
         * @param listener called on pipeline events; several may be added
         * @return this builder
         */
        Builder listener(MemoryEventListener listener);

        /**
         * The clock for leases, windows and backoffs; default the system UTC clock.
         *
         * @param clock the pipeline clock, for tests a fixed or manual one
         * @return this builder
         */
        Builder clock(Clock clock);

        /**
         * The clock for what is reported rather than decided: history entries (their time and id)
         * and elapsed times. Default: the {@link #clock(Clock) pipeline clock}. Set both to replay
         * old sessions: a fixed pipeline clock in the past decides eligibility, while history and
         * reports keep the real time.
         *
         * @param clock the clock for reported times
         * @return this builder
         */
        Builder wallClock(Clock clock);

        /**
         * The executor for all background work: startup tasks, and within a run the Phase 1 helper
         * extractions, the Phase 2 lease heartbeat and the consolidation agent's watchdog. With an
         * executor given, the engine starts no threads of its own. A run also works on its own
         * thread, so a small pool never deadlocks, it only lowers parallelism: Phase 1 extracts up to
         * {@code phase1_concurrency} rollouts at once when the pool has that many free threads, and
         * Phase 2 needs two free threads for its heartbeat and time bound (without them the agent
         * runs unbounded). A pool of {@code phase1_concurrency + 2} threads, or a cached or
         * virtual-thread executor, gives the full behaviour.
         *
         * <p>Default: a two-thread daemon pool for startup tasks plus a cached daemon pool for the
         * rest, both owned and shut down by the engine. A given executor is not shut down by {@link
         * MemoryEngine#close()}.
         *
         * @param executor the executor for background work; not shut down by the engine
         * @return this builder
         */
        Builder executor(ExecutorService executor);

        /**
         * How long a conversation opened by {@link MemoryEngine#conversation(String)} may go unused
         * (no call on its session, no turn open, no answer streaming) before the engine closes it;
         * default 30 minutes. Closing only ends the recording: the conversation's next request
         * continues the same rollout. What keeps a server that runs for months from holding every
         * conversation it ever saw.
         *
         * @param idle how long an open conversation may go unused; positive
         * @return this builder
         * @throws IllegalArgumentException when {@code idle} is zero or negative
         */
        Builder conversationIdleTimeout(Duration idle);

        /**
         * The most conversations {@link MemoryEngine#conversation(String)} keeps open; beyond it the
         * least recently used idle ones are closed. Default 10,000.
         *
         * @param conversations the limit, at least 1
         * @return this builder
         * @throws IllegalArgumentException when {@code conversations} is less than 1
         */
        Builder maxOpenConversations(int conversations);

        /**
         * The {@code [history]} settings of the message history; default {@code <home>/config.toml}'s
         * {@code [history]} table, else Codex's defaults (save every user message, never trim).
         *
         * @param history the message history settings, replacing what {@code config.toml} says
         * @return this builder
         */
        Builder historyConfig(HistoryConfig history);

        /**
         * Offers the goal tools {@code get_goal}, {@code create_goal} and {@code update_goal} to
         * models beside the memory tools; off by default.
         *
         * @param enabled true to offer the goal tools
         * @return this builder
         */
        Builder goalTools(boolean enabled);

        /**
         * How long {@link MemoryEngine#close()} waits for running startup tasks before cancelling
         * them and releasing their jobs, and for a background forget (of a conversation that saw
         * external context) to finish rewriting the memory folder; default 10 seconds. A
         * background forget not started by then is completed by the next consolidation.
         *
         * @param timeout how long to wait; zero cancels at once, negative is rejected
         * @return this builder
         * @throws IllegalArgumentException when {@code timeout} is negative
         */
        Builder closeTimeout(Duration timeout);

        /**
         * An engine that only looks, for tools that report on a home ({@code mnemo status},
         * {@code logs}, {@code threads}, {@code inputs}): the store the engine discovers is opened
         * read-only (nothing created, nothing migrated), its thread logs, goals and message history
         * are read only where they already exist, and no retention or other clean-up runs. Writes
         * through it fail. Off by default. Implementations that have no such mode throw
         * {@link UnsupportedOperationException}.
         *
         * @param readOnly true for an engine that only reads
         * @return this builder
         * @throws UnsupportedOperationException when the implementation has no read-only mode (the default)
         */
        default Builder readOnly(boolean readOnly) {
            throw new UnsupportedOperationException(getClass().getName() + " has no read-only mode");
        }

        /**
         * The id this engine's store goes by in what listeners hear ({@link
         * dev.mnemo.spi.MemoryEventListener#memoryOperation}'s store id, OpenTelemetry's
         * {@code gen_ai.memory.store.id}): by default the tenant's id when {@link MemoryEngines}
         * builds the engine for a tenant, else the name of the home's folder. A backend that builds
         * engines per tenant outside {@link MemoryEngines} sets the tenant's id here. Its
         * {@code /}, {@code \} and {@code %} are written as {@code %2F}, {@code %5C} and
         * {@code %25}, so the id never reads as a path.
         *
         * @param storeId any non-blank string
         * @return this builder
         * @throws IllegalArgumentException when {@code storeId} is blank
         * @throws UnsupportedOperationException when the implementation cannot name its store (the default)
         */
        default Builder storeId(String storeId) {
            throw new UnsupportedOperationException(getClass().getName() + " cannot name its store");
        }

        /**
         * Builds the engine.
         *
         * @return the engine, open; close it on shutdown
         * @throws MemoryConfigurationException when a setting is invalid or a default part cannot be found
         */
        MemoryEngine build();
    }
}
