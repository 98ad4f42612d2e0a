package dev.mnemo.store.sqlite;

import dev.mnemo.ThreadLogEntry;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The partition ids of the threads {@link SqliteThreadLogStore} writes, remembered between batches,
 * and each batch's count of rows and bytes per partition.
 *
 * <p>An id read in one transaction is trusted in a later one only while {@code log_partition_epoch}
 * (raised by a trigger whenever any connection or process deletes a partition, since the file's V5)
 * still holds the number it was read under: a deleted partition's id may be given to another thread.
 * Ids found or made by a batch are remembered only once its transaction has committed, so a batch
 * rolled back leaves no id behind. At most {@link #REMEMBERED} threads are remembered, the least
 * recently written forgotten first.
 *
 * <p>The store resolves a batch inside its write transaction and remembers it after the commit;
 * the methods are synchronized, so another thread's append in between finds the ids and the epoch
 * they were read under always together.
 */
final class LogPartitions {

    /** Threads whose partition ids are remembered; past it, the least recently written is looked up again. */
    static final int REMEMBERED = 4_096;

    private static final String EPOCH = "SELECT epoch FROM log_partition_epoch";
    /** A thread's partition id (none for a thread the file has no rows of). */
    static final String PARTITION_OF = "SELECT id FROM log_partitions WHERE thread_id = ?";
    private static final String NEW_PARTITION = "INSERT INTO log_partitions (thread_id) VALUES (?)";
    private static final String COUNT = "UPDATE log_partitions SET rows = rows + ?, bytes = bytes + ? WHERE id = ?";

    private final Map<String, Long> remembered = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > REMEMBERED;
        }
    };
    /** The epoch {@link #remembered} was read under. */
    private long epoch = -1;

    /**
     * Step one of a batch, inside its transaction: the partition id of each thread of
     * {@code entries}, made for a thread new to the file.
     */
    synchronized Batch resolve(PooledConnection connection, List<ThreadLogEntry> entries) throws SQLException {
        long now = Jdbc.queryLong(connection, EPOCH);
        if (now != epoch) {
            remembered.clear();
        }
        Map<String, Long> ids = new HashMap<>();
        for (ThreadLogEntry entry : entries) {
            String threadId = entry.threadId();
            if (!ids.containsKey(threadId)) {
                Long known = remembered.get(threadId);
                ids.put(threadId, known != null ? known : lookUpOrMake(connection, threadId));
            }
        }
        return new Batch(now, ids, new HashMap<>());
    }

    /** After the batch's transaction committed: its ids are remembered under the epoch it read. */
    synchronized void remember(Batch batch) {
        if (batch.epoch() != epoch) {
            remembered.clear();
            epoch = batch.epoch();
        }
        remembered.putAll(batch.ids());
    }

    /** Forgets every id, after a batch that failed: nothing it saw is trusted. */
    synchronized void forgetAll() {
        remembered.clear();
        epoch = -1;
    }

    private static long lookUpOrMake(PooledConnection connection, String threadId) throws SQLException {
        PreparedStatement find = connection.prepare(PARTITION_OF);
        find.setString(1, threadId);
        try (ResultSet row = find.executeQuery()) {
            if (row.next()) {
                return row.getLong(1);
            }
        }
        Jdbc.update(connection, NEW_PARTITION, threadId);
        return Jdbc.queryLong(connection, "SELECT last_insert_rowid()");
    }

    /**
     * One batch's partitions: the id of each of its threads, and the rows and bytes it added to each
     * partition, counted as the rows are bound.
     */
    record Batch(long epoch, Map<String, Long> ids, Map<Long, long[]> added) {

        /** The partition of {@code threadId}, one row of {@code bytes} counted to it. */
        long add(String threadId, long bytes) {
            long id = ids.get(threadId);
            long[] count = added.computeIfAbsent(id, k -> new long[2]);
            count[0]++;
            count[1] += bytes;
            return id;
        }

        /** Adds the counted rows and bytes to each partition's totals: one update per partition. */
        void count(PooledConnection connection) throws SQLException {
            PreparedStatement update = connection.prepare(COUNT);
            try {
                for (Map.Entry<Long, long[]> partition : added.entrySet()) {
                    update.setLong(1, partition.getValue()[0]);
                    update.setLong(2, partition.getValue()[1]);
                    update.setLong(3, partition.getKey());
                    update.addBatch();
                }
                update.executeBatch();
            } finally {
                update.clearBatch();
                update.clearParameters();
            }
        }

        /** The partitions the batch added rows to. */
        Set<Long> touched() {
            return added.keySet();
        }
    }
}
