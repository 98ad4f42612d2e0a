package dev.mnemo.internal.engine;

import dev.mnemo.AgentGraph;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.MessageHistory;
import dev.mnemo.ThreadGoal;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.ThreadLogs;
import dev.mnemo.internal.history.QueuedHistory;
import dev.mnemo.internal.rollout.ContextualFragments;
import dev.mnemo.spi.GoalStore;
import dev.mnemo.spi.MemoryStore;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the engine keeps of a thread beside its memory, as Codex's state layer does: the message
 * history of what users typed, each thread's goal, the thread logs, and the spawn graph between a
 * conversation and its sub-agents. It answers the engine's accessors for them, feeds the history
 * from recorded sessions, writes the thread registry's journal lines, and deletes a thread's state
 * when the thread is deleted.
 */
final class EngineStateLayer {

    /** The engine's logger: these lines keep the name they were logged under before they moved here. */
    private static final Logger LOG = LoggerFactory.getLogger(DefaultMemoryEngine.class);

    /** The store, for its goals ({@link MemoryStore#goals()}) and its spawn graph. */
    private final MemoryStore store;
    private final EngineLogs logs;
    /** The message history; a recorded session's appends are written off its thread. */
    private final QueuedHistory history;
    private final Clock wallClock;
    private final AgentGraph agentGraph;

    /** @param wallClock times the journal's lines, as the rest of what is reported */
    EngineStateLayer(MemoryStore store, EngineLogs logs, QueuedHistory history, Clock wallClock) {
        this.store = store;
        this.logs = logs;
        this.history = history;
        this.wallClock = wallClock;
        this.agentGraph = new StoreAgentGraph(store);
    }

    MessageHistory messageHistory() {
        return history;
    }

    AgentGraph agentGraph() {
        return agentGraph;
    }

    ThreadLogs threadLogs() {
        return logs.threadLogs();
    }

    /** The store's goals ({@code goals.sqlite} for SQLite); a store that keeps none throws, saying so. */
    GoalStore goals() {
        return store.goals();
    }

    /** The thread's goal, for Phase 1's context; none when the store keeps no goals. */
    Optional<ThreadGoal> goalOf(String threadId) {
        try {
            return store.goals().get(threadId);
        } catch (UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    /**
     * A user message a session recorded goes to the message history too, as Codex's TUI keeps what
     * was typed: only the user's own words (no AGENTS.md, no harness context), redacted by the
     * history. Like Codex's TUI, which spawns the append, the caller does not wait for the file: the
     * line is queued and written by the history's writer ({@link QueuedHistory}); a failure is logged
     * and the conversation goes on, as in Codex.
     */
    void recordInput(String threadId, String text) {
        if (!ContextualFragments.isRealUserText(text)) {
            return;
        }
        try {
            history.append(threadId, text);
        } catch (RuntimeException e) {
            LOG.warn("could not add a message of thread {} to the message history {}", threadId, history, e);
        }
    }

    /**
     * What a deleted thread leaves outside the state database, removed before its rows (Codex's
     * order, so a failure here leaves the thread to delete again): its lines in the message history
     * and its goal.
     */
    void deleteThreadState(String threadId) {
        int lines = history.removeSession(threadId);
        if (lines > 0) {
            LOG.info("thread {}: {} line(s) removed from the message history", threadId, lines);
        }
        GoalStore goals;
        try {
            goals = store.goals();
        } catch (UnsupportedOperationException e) {
            return; // a store that keeps no goals holds none of this thread's
        }
        if (goals.delete(threadId)) {
            LOG.info("thread {}: goal deleted", threadId);
        }
    }

    /** A deleted thread's logs go with it. */
    void forgetThreadLogs(String threadId) {
        logs.forgetThread(threadId);
    }

    /** A line of the thread registry's for the thread's own logs: why its memory was forgotten or disabled. */
    void journal(String threadId, String message) {
        logs.log(new ThreadLogEntry(threadId, wallClock.instant(), "INFO", "mnemo::threads", message));
    }

    /** A turn's receipt, in its conversation's thread log (nothing when the engine writes no logs). */
    void receipt(MemoryReceipt receipt) {
        logs.log(new ThreadLogEntry(receipt.threadId(), wallClock.instant(), "INFO", MemoryReceipt.LOG_TARGET,
                receipt.toLogMessage()));
    }

    /** A line about the thread's Phase 1 job for the thread's own logs (a retry by hand). */
    void phase1Journal(String threadId, String message) {
        logs.log(new ThreadLogEntry(threadId, wallClock.instant(), "INFO", DeadJobJournal.TARGET, message));
    }

    /**
     * Writes the message history's queued lines, then what the thread logs still queue, and closes the
     * logs; a failure is logged, the engine closes anyway.
     */
    void closeLogs() {
        try {
            history.flush(); // the lines still queued, before the store they go to closes
        } catch (RuntimeException e) {
            LOG.warn("memory engine closing: the message history's queued lines were not written", e);
        }
        try {
            logs.close();
        } catch (RuntimeException e) {
            LOG.warn("memory engine closing: the thread logs did not close cleanly", e);
        }
    }
}
