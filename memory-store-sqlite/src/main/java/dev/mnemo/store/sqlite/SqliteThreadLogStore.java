package dev.mnemo.store.sqlite;

import dev.mnemo.ThreadLogEntry;
import dev.mnemo.spi.ThreadLogQuery;
import dev.mnemo.spi.ThreadLogStore;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The default {@link ThreadLogStore}: {@code <home>/logs.sqlite}, a file of its own (WAL,
 * {@code synchronous=NORMAL}, the busy timeout, like the state database) with its own migrations,
 * so log writes never wait for or block the state database's writer.
 *
 * <p>Pruning follows Codex's: only partitions (threads) the batch touched are checked, first with
 * a count and a sum, then, when over a cap, with one window-function delete of every row past the
 * 1,000th newest or past 10 MiB of newest-first cumulative size; a single row over 10 MiB goes at once.
 */
public final class SqliteThreadLogStore implements ThreadLogStore {

    /** The file name inside the Mnemo home. */
    public static final String FILE_NAME = "logs.sqlite";

    static final SqliteDatabase.Schema LOGS = new SqliteDatabase.Schema("logs database",
            "classpath:dev/mnemo/store/sqlite/logs-migration", "mnemo_schema_history", "2");

    private static final String INSERT = "INSERT INTO logs (ts, ts_nanos, level, target, message, thread_id, "
            + "estimated_bytes) VALUES (?, ?, ?, ?, ?, ?, ?)";
    /** Past the row cap only: the rows after the newest {@code PARTITION_ROW_LIMIT}, found through the index. */
    private static final String PRUNE_ROWS = """
            DELETE FROM logs WHERE id IN (
                SELECT id FROM logs WHERE thread_id = ? ORDER BY ts DESC, ts_nanos DESC, id DESC LIMIT -1 OFFSET ?)""";
    /** Past the byte cap: every row past either cap, by rank and by newest-first cumulative size. */
    private static final String PRUNE = """
            DELETE FROM logs WHERE id IN (
                SELECT id FROM (
                    SELECT id,
                        ROW_NUMBER() OVER (ORDER BY ts DESC, ts_nanos DESC, id DESC) AS newest_rank,
                        SUM(estimated_bytes) OVER (ORDER BY ts DESC, ts_nanos DESC, id DESC
                            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS newest_bytes
                    FROM logs WHERE thread_id = ?)
                WHERE newest_rank > ? OR newest_bytes > ?)""";

    private final SqliteDatabase database;

    private SqliteThreadLogStore(SqliteDatabase database) {
        this.database = database;
    }

    /**
     * Opens (creating and migrating when needed) the logs database at {@code file}.
     *
     * @param file the logs database ({@code logs.sqlite} in an engine's home)
     * @return the open store; close it when done
     */
    public static SqliteThreadLogStore open(Path file) {
        return new SqliteThreadLogStore(SqliteDatabase.open(Objects.requireNonNull(file, "file"), LOGS));
    }

    /**
     * Opens an existing {@code logs.sqlite} for reading only: nothing is created or migrated, and
     * any write or delete fails.
     *
     * @param file the existing logs database
     * @return the open, read-only store; close it when done
     * @throws dev.mnemo.MemoryStoreException when the file does not exist or is not an SQLite database
     */
    public static SqliteThreadLogStore openReadOnly(Path file) {
        return new SqliteThreadLogStore(SqliteDatabase.openReadOnly(Objects.requireNonNull(file, "file"), LOGS));
    }

    /**
     * The database file.
     *
     * @return the path the store was opened at
     */
    public Path file() {
        return database.file();
    }

    @Override
    public void append(List<ThreadLogEntry> entries) {
        Objects.requireNonNull(entries, "entries");
        if (entries.isEmpty()) {
            return;
        }
        database.write("append " + entries.size() + " log entries", connection -> {
            Set<String> touched = new LinkedHashSet<>();
            for (ThreadLogEntry entry : entries) {
                Jdbc.update(connection, INSERT, entry.ts().getEpochSecond(), entry.ts().getNano(), entry.level(),
                        entry.target(), entry.message(), entry.threadId(), ThreadLogStore.estimatedBytes(entry));
                touched.add(entry.threadId());
            }
            for (String threadId : touched) {
                prune(connection, threadId);
            }
            return null;
        });
    }

    /**
     * Applies both caps to one thread. Most batches find it within them; a thread at its row cap
     * (the common case for a busy pseudo-thread) loses its oldest rows through the index, and only
     * a thread past its byte cap needs the cumulative-size ranking.
     */
    private static void prune(PooledConnection connection, String threadId) throws java.sql.SQLException {
        long[] size = Jdbc.queryFirst(connection, "SELECT COUNT(*), COALESCE(SUM(estimated_bytes), 0) FROM logs "
                + "WHERE thread_id = ?", row -> new long[] {row.getLong(1), row.getLong(2)}, threadId)
                .orElse(new long[2]);
        if (size[1] > PARTITION_SIZE_LIMIT_BYTES) {
            Jdbc.update(connection, PRUNE, threadId, PARTITION_ROW_LIMIT, PARTITION_SIZE_LIMIT_BYTES);
        } else if (size[0] > PARTITION_ROW_LIMIT) {
            Jdbc.update(connection, PRUNE_ROWS, threadId, PARTITION_ROW_LIMIT);
        }
    }

    @Override
    public List<ThreadLogEntry> query(ThreadLogQuery query) {
        Objects.requireNonNull(query, "query");
        ThreadLogQuery.SqlFilter filter = query.sqlFilter();
        String sql = "SELECT thread_id, ts, ts_nanos, level, target, message FROM logs WHERE " + filter.conditions()
                + " ORDER BY ts DESC, ts_nanos DESC, id DESC LIMIT ?";
        List<Object> args = new ArrayList<>(filter.arguments());
        args.add(query.limit());
        List<ThreadLogEntry> newestFirst = database.read("query logs", connection -> Jdbc.query(connection,
                sql, row -> new ThreadLogEntry(row.getString(1),
                        Instant.ofEpochSecond(row.getLong(2), row.getLong(3)), row.getString(4), row.getString(5),
                        row.getString(6)), args.toArray()));
        List<ThreadLogEntry> oldestFirst = new ArrayList<>(newestFirst);
        Collections.reverse(oldestFirst);
        return oldestFirst;
    }

    @Override
    public int deleteOlderThan(Instant cutoff) {
        Objects.requireNonNull(cutoff, "cutoff");
        int deleted = database.write("delete logs older than " + cutoff,
                connection -> Jdbc.update(connection, "DELETE FROM logs WHERE ts < ?", cutoff.getEpochSecond()));
        if (deleted > 0) {
            database.checkpointBestEffort();
        }
        return deleted;
    }

    @Override
    public int deleteThread(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        int deleted = database.write("delete logs of thread " + threadId,
                connection -> Jdbc.update(connection, "DELETE FROM logs WHERE thread_id = ?", threadId));
        if (deleted > 0) {
            database.checkpointBestEffort(); // a deleted thread's entries should not linger in the WAL
        }
        return deleted;
    }

    @Override
    public void close() {
        database.close();
    }

    @Override
    public String toString() {
        return "SqliteThreadLogStore[" + database.file() + "]";
    }
}
