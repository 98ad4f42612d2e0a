package dev.mnemo;

import java.util.List;

/**
 * Mnemo's own structured events, per thread ({@code logs.sqlite}): why a conversation was or was
 * not remembered. Written through a bounded queue that never blocks the caller.
 */
public interface ThreadLogs {

    /** The newest {@code limit} entries of a thread, newest last. */
    List<ThreadLogEntry> query(String threadId, int limit);

    /** Waits until every entry queued so far is written. */
    void flush();

    /** Entries dropped because the queue was full, since the engine opened. */
    long dropped();

    /**
     * Queues one entry of the application's own, never waiting: a full queue drops it (counted in
     * {@link #dropped()}). For bridges from an application's logging, such as memory-logback's
     * appender; the engine's own events are logged without it.
     *
     * @throws UnsupportedOperationException when these logs take no entries from outside (the default)
     */
    default void append(ThreadLogEntry entry) {
        throw new UnsupportedOperationException(getClass().getName() + " takes no log entries from outside");
    }
}
