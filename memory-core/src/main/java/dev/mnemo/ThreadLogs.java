package dev.mnemo;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Mnemo's own structured events, per thread ({@code logs.sqlite}): why a conversation was or was
 * not remembered. Written through a bounded queue that never blocks the caller.
 */
public interface ThreadLogs {

    /** The pseudo-thread of the startup runs: skips, syncs, each run's report. */
    String STARTUP_THREAD = "mnemo:startup";
    /** The pseudo-thread of Phase 1 as a whole: its claims (each job is logged under its thread). */
    String PHASE1_THREAD = "mnemo:phase1";
    /** The pseudo-thread of Phase 2: steps, the consolidation agent's tool calls, outcomes, model calls. */
    String PHASE2_THREAD = "mnemo:phase2";
    /** The pseudo-thread where lost entries are reported, with how many were lost. */
    String LOSSES_THREAD = "mnemo:logs";
    /** Every pseudo-thread, for readers that list the engine's own entries beside the conversations'. */
    List<String> PSEUDO_THREADS = List.of(STARTUP_THREAD, PHASE1_THREAD, PHASE2_THREAD, LOSSES_THREAD);

    /**
     * The newest {@code limit} entries of a thread, newest last.
     *
     * @param threadId the thread, or one of {@link #PSEUDO_THREADS}
     * @param limit the most entries to return
     * @return the entries, oldest first; empty when there are none
     */
    List<ThreadLogEntry> query(String threadId, int limit);

    /**
     * The newest {@code limit} entries of a thread logged under {@code target} (e.g.
     * {@link MemoryReceipt#LOG_TARGET}), newest last: the store filters, so other entries never
     * crowd them out.
     *
     * @param threadId the thread, or one of {@link #PSEUDO_THREADS}
     * @param target the logger target to keep, e.g. {@code mnemo::receipt}
     * @param limit the most entries to return
     * @return the entries, oldest first; empty when there are none
     * @throws UnsupportedOperationException when these logs cannot filter by target (the default)
     */
    default List<ThreadLogEntry> query(String threadId, String target, int limit) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot query thread logs by target");
    }

    /**
     * The newest {@code limit} entries of every thread logged under {@code target} at or after
     * {@code since}, newest last: one bounded read for a figure across conversations, such as the
     * share of the last day's turns that were given memory.
     *
     * @param target the logger target to keep
     * @param since the earliest time to include
     * @param limit the most entries to return
     * @return the entries, oldest first; empty when there are none
     * @throws UnsupportedOperationException when these logs cannot filter by target (the default)
     */
    default List<ThreadLogEntry> queryTarget(String target, Instant since, int limit) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot query thread logs by target");
    }

    /** Waits until every entry queued so far is written. */
    void flush();

    /**
     * Entries dropped because the queue was full, since the engine opened.
     *
     * @return the number of entries dropped, 0 when none
     */
    long dropped();

    /**
     * The newest report of lost entries any process wrote under {@link #LOSSES_THREAD} (which
     * {@link #dropped()}, counting this engine's only, cannot see).
     *
     * @return the newest loss report, or empty when none was written
     */
    default Optional<ThreadLogEntry> newestLossReport() {
        return query(LOSSES_THREAD, 1).stream().findFirst();
    }

    /**
     * Queues one entry of the application's own, never waiting: a full queue drops it (counted in
     * {@link #dropped()}). For bridges from an application's logging, such as memory-logback's
     * appender; the engine's own events are logged without it.
     *
     * @param entry the entry to queue
     * @throws UnsupportedOperationException when these logs take no entries from outside (the default)
     */
    default void append(ThreadLogEntry entry) {
        throw new UnsupportedOperationException(getClass().getName() + " takes no log entries from outside");
    }
}
