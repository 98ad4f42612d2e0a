package dev.mnemo.spi;

import dev.mnemo.ThreadLogEntry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * Where Mnemo's own structured events are kept, per thread: Codex's logs database
 * ({@code logs_2.sqlite}), a file of its own so log writes never wait for the state database's
 * writer. The engine writes to it through a bounded queue from one writer thread; a store need not
 * be fast, only safe for that writer and concurrent readers (other processes included).
 *
 * <p>Each thread id is one partition, capped at {@link #PARTITION_SIZE_LIMIT_BYTES} and
 * {@link #PARTITION_ROW_LIMIT} rows: older rows beyond either cap are deleted in the transaction
 * that inserted the batch. Pseudo-threads ({@code mnemo:phase2}) are partitions like any other.
 */
public interface ThreadLogStore extends AutoCloseable {

    /** Codex's {@code LOG_PARTITION_SIZE_LIMIT_BYTES}: 10 MiB of estimated bytes per thread. */
    long PARTITION_SIZE_LIMIT_BYTES = 10L * 1024 * 1024;

    /** Codex's {@code LOG_PARTITION_ROW_LIMIT}: 1,000 rows per thread. */
    int PARTITION_ROW_LIMIT = 1_000;

    /**
     * What a row counts for against {@link #PARTITION_SIZE_LIMIT_BYTES}: the UTF-8 size of its
     * message, level and target (Codex adds its module and file paths, which Mnemo's entries lack).
     *
     * @param entry the log entry
     * @return its estimated size in bytes
     */
    static long estimatedBytes(ThreadLogEntry entry) {
        return utf8(entry.message()) + utf8(entry.level()) + utf8(entry.target());
    }

    private static long utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * Inserts {@code entries} and prunes the partitions they touched past either cap, newest kept,
     * in one transaction. A row counts for its {@link #estimatedBytes}.
     *
     * @param entries the entries to keep, of any threads; may be empty
     */
    void append(List<ThreadLogEntry> entries);

    /**
     * The newest {@code query.limit()} entries that match, returned oldest first.
     *
     * @param query which entries: thread, time, levels, target and how many
     * @return the matching entries, oldest first; empty when none match
     */
    List<ThreadLogEntry> query(ThreadLogQuery query);

    /**
     * Deletes entries older than {@code cutoff} (age retention).
     *
     * @param cutoff the oldest time kept
     * @return rows deleted
     */
    int deleteOlderThan(Instant cutoff);

    /**
     * Deletes every entry of a thread (its delete forgets its logs too).
     *
     * @param threadId the thread whose entries to delete
     * @return rows deleted
     */
    int deleteThread(String threadId);

    @Override
    void close();
}
