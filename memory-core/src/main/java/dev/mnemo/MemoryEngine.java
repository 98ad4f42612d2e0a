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

    /** A builder; only a model is needed for the pipeline to run. */
    static Builder builder() {
        return new EngineBuilder();
    }

    /**
     * Opens the handle for one conversation: starts recording it and submits the startup task.
     * A conversation whose rollout this home already recorded is continued in the same rollout.
     *
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
     */
    MemorySession conversation(String conversationId);

    /**
     * {@link #conversation(String)} for a conversation with a context: opened with {@code session}
     * on first use (its project, working folder and source), shared afterwards. Adapters use it to
     * put a conversation in a project ({@link SessionContext#inProject}).
     *
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
     * @return false when the conversation had no open session
     */
    boolean closeConversation(String conversationId);

    /**
     * Submits the background pipeline for a session that is starting: sync threads, prune, Phase 1
     * and Phase 2. Returns at once; the work runs on the engine's executor.
     */
    StartupTask startStartupTask(SessionContext session);

    /**
     * The memory part of the developer instructions: how to use the memory folder and the current
     * summary. Empty when {@code use_memories} is off or there is no summary yet.
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
     */
    String buildDeveloperInstructions(String projectKey);

    /**
     * The memory part of the instructions for a model that is handed {@link #tools()} rather than a
     * shell, whatever {@code dedicated_tools} says: every step names a memory tool and every path is
     * relative to the memory folder, so nothing sent to a model provider names a path on this
     * machine. What {@link MemorySession#developerInstructions()} returns; for framework adapters
     * that have no session for a request. Empty when {@code use_memories} is off or there is no
     * summary yet.
     */
    String buildToolInstructions();

    /** {@link #buildToolInstructions()} for a session in a project, scoped as {@link #buildDeveloperInstructions(String)}. */
    String buildToolInstructions(String projectKey);

    /**
     * Strips citation markup from an answer and counts the cited memories as used. The thread id
     * names the conversation that cited them for {@link MemoryEventListener#memoriesCited}; usage
     * itself is counted per memory, as in Codex.
     */
    AssistantMessage processAssistantMessage(String threadId, String text);

    ThreadRegistry threads();

    /**
     * Records sessions; the engine keeps track of those it started and closes the ones still open
     * when it closes. Its {@code start(..)} fails with {@link IllegalStateException} once the engine
     * is closed.
     */
    SessionRecorder sessions();

    MemoryTools tools();

    /** The short-term layer: user messages of recorded sessions ({@code history.jsonl}). */
    MessageHistory messageHistory();

    /** Which thread spawned which sub-agent. */
    AgentGraph agentGraph();

    /** Mnemo's structured events per thread. */
    ThreadLogs threadLogs();

    /** Each thread's goal. */
    ThreadGoals goals();

    MemoryAdmin admin();

    MemoriesConfig config();

    /**
     * How this engine counts tokens for the summary cap ({@code summary_token_limit}) and what
     * shows it (the console's budget bars): its model's {@link LanguageModel#tokenCounter()}
     * (the extraction model's, when one is set apart), else {@link TokenCounter#estimate()},
     * four UTF-8 bytes to a token, as Codex counts.
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

        /** The folder for state, sessions and memories; default {@code $MNEMO_HOME}, else {@code ~/.mnemo}. */
        Builder home(Path home);

        /** Settings; default {@code <home>/config.toml}'s {@code [memories]} table, else the defaults. */
        Builder config(MemoriesConfig config);

        /** The model for both phases. */
        Builder model(LanguageModel model);

        /** The model for Phase 1 only (overrides {@link #model}). */
        Builder extractionModel(LanguageModel model);

        /** The model for the default consolidation agent only (overrides {@link #model}). */
        Builder consolidationModel(LanguageModel model);

        /** Replaces the default tool-loop consolidation agent. */
        Builder consolidationAgent(ConsolidationAgent agent);

        /** The state store; default: the one {@link dev.mnemo.spi.MemoryStoreProvider} on the class path. */
        Builder store(MemoryStore store);

        /** The workspace; default: the one {@link dev.mnemo.spi.MemoryWorkspaceProvider} on the class path. */
        Builder workspace(MemoryWorkspace workspace);

        /** Adds a rollout source; the session recorder's own folder is always scanned. */
        Builder rolloutSource(RolloutSource source);

        /**
         * Where recorded sessions are written and read back by Phase 1; default: files under
         * {@code <home>/sessions/}. Fleet mode keeps them in a database shared by every server.
         */
        Builder sessionStore(SessionStore sessionStore);

        /** Replaces the built-in secret redactor. */
        Builder redactor(SecretRedactor redactor);

        /** Adds a listener for pipeline events. */
        Builder listener(MemoryEventListener listener);

        /** The clock for leases, windows and backoffs; default the system UTC clock. */
        Builder clock(Clock clock);

        /**
         * The clock for what is reported rather than decided: history entries (their time and id)
         * and elapsed times. Default: the {@link #clock(Clock) pipeline clock}. Set both to replay
         * old sessions: a fixed pipeline clock in the past decides eligibility, while history and
         * reports keep the real time.
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
         */
        Builder executor(ExecutorService executor);

        /**
         * How long a conversation opened by {@link MemoryEngine#conversation(String)} may go unused
         * (no call on its session, no turn open, no answer streaming) before the engine closes it;
         * default 30 minutes. Closing only ends the recording: the conversation's next request
         * continues the same rollout. What keeps a server that runs for months from holding every
         * conversation it ever saw.
         */
        Builder conversationIdleTimeout(Duration idle);

        /**
         * The most conversations {@link MemoryEngine#conversation(String)} keeps open; beyond it the
         * least recently used idle ones are closed. Default 10,000.
         */
        Builder maxOpenConversations(int conversations);

        /**
         * The {@code [history]} settings of the message history; default {@code <home>/config.toml}'s
         * {@code [history]} table, else Codex's defaults (save every user message, never trim).
         */
        Builder historyConfig(HistoryConfig history);

        /**
         * Offers the goal tools {@code get_goal}, {@code create_goal} and {@code update_goal} to
         * models beside the memory tools; off by default.
         */
        Builder goalTools(boolean enabled);

        /**
         * How long {@link MemoryEngine#close()} waits for running startup tasks before cancelling
         * them and releasing their jobs; default 10 seconds.
         */
        Builder closeTimeout(Duration timeout);

        /**
         * An engine that only looks, for tools that report on a home ({@code mnemo status},
         * {@code logs}, {@code threads}, {@code inputs}): the store the engine discovers is opened
         * read-only (nothing created, nothing migrated), its thread logs, goals and message history
         * are read only where they already exist, and no retention or other clean-up runs. Writes
         * through it fail. Off by default. Implementations that have no such mode throw
         * {@link UnsupportedOperationException}.
         */
        default Builder readOnly(boolean readOnly) {
            throw new UnsupportedOperationException(getClass().getName() + " has no read-only mode");
        }

        /**
         * Builds the engine.
         *
         * @throws MemoryConfigurationException when a setting is invalid or a default part cannot be found
         */
        MemoryEngine build();
    }
}
