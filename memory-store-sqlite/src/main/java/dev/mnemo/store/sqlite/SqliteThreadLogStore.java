package dev.mnemo.store.sqlite;

import dev.mnemo.ThreadLogEntry;
import dev.mnemo.spi.ThreadLogQuery;
import dev.mnemo.spi.ThreadLogStore;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The default {@link ThreadLogStore}: {@code <home>/logs.sqlite}, a file of its own (WAL,
 * {@code synchronous=NORMAL}, the busy timeout, like the state database) with its own migrations,
 * so log writes never wait for or block the state database's writer.
 *
 * <p>Pruning follows Codex's: only partitions (threads) the batch touched are checked, then, when
 * over a cap, every row past the 1,000th newest or past 10 MiB of newest-first cumulative size is
 * deleted; a single row over 10 MiB goes at once. Unlike Codex, the check does not count the
 * partitions' rows: {@code log_partitions} holds each thread's row count and size (this writer adds
 * a batch's per partition; triggers count every delete, and the rows another program inserts), with
 * a partial index of the threads over a cap, so the check is one small read; and a thread only over
 * its row cap loses exactly its oldest surplus rows.
 *
 * <p>Each thread's partition has a small integer id ({@code log_partitions.id}, since the file's
 * V4), and the per-thread index is keyed by it rather than by the thread id: a row's insert into
 * that index is what a log entry costs most, and with narrow keys it costs about half. Rows keep
 * their {@code thread_id}. The writer remembers the partition ids of the threads it wrote
 * ({@link LogPartitions}, since V5) while no partition has been deleted since, which the file
 * itself records, so an id is never stale, whoever else writes or deletes.
 */
public final class SqliteThreadLogStore implements ThreadLogStore {

    /** The file name inside the Mnemo home. */
    public static final String FILE_NAME = "logs.sqlite";

    /**
     * With a WAL of up to 4,000 pages (16 MiB) before it is copied back, four times SQLite's
     * default: every batch rewrites index pages spread over the threads it touches (the per-thread
     * index, {@code log_partitions}), mostly the same pages as the batches before it, and a
     * checkpoint copies each page once however often the WAL holds it. A quarter as many
     * checkpoints cost the log writer about a sixth less CPU in {@code phase1_overhead}.
     */
    static final SqliteDatabase.Schema LOGS = new SqliteDatabase.Schema("logs database",
            "classpath:dev/mnemo/store/sqlite/logs-migration", "mnemo_schema_history", "5", 4_000);

    private static final String INSERT = "INSERT INTO logs (ts, ts_nanos, level, target, message, thread_id, "
            + "estimated_bytes, partition_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    /**
     * The partitions over a cap with their row count and size (kept by the writer and the triggers
     * of {@code V4__logs_partition_ids.sql}), read from its partial index, whose condition this repeats.
     */
    private static final String OVER_CAP = "SELECT id, rows, bytes FROM log_partitions WHERE rows > "
            + PARTITION_ROW_LIMIT + " OR bytes > " + PARTITION_SIZE_LIMIT_BYTES;
    /** A thread's rows through the per-partition index (the thread's own condition alone would scan the table). */
    private static final String OF_THREAD = "partition_id = (" + LogPartitions.PARTITION_OF + ")";
    /**
     * Past the row cap only: the given number of oldest rows, which are the rows after the newest
     * {@code PARTITION_ROW_LIMIT}, read from the old end of the thread's index (no rows skipped).
     */
    private static final String PRUNE_OLDEST = """
            DELETE FROM logs WHERE id IN (
                SELECT id FROM logs WHERE partition_id = ? ORDER BY ts ASC, ts_nanos ASC, id ASC LIMIT ?)""";
    /** Past the byte cap: every row past either cap, by rank and by newest-first cumulative size. */
    private static final String PRUNE = """
            DELETE FROM logs WHERE id IN (
                SELECT id FROM (
                    SELECT id,
                        ROW_NUMBER() OVER (ORDER BY ts DESC, ts_nanos DESC, id DESC) AS newest_rank,
                        SUM(estimated_bytes) OVER (ORDER BY ts DESC, ts_nanos DESC, id DESC
                            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS newest_bytes
                    FROM logs WHERE partition_id = ?)
                WHERE newest_rank > ? OR newest_bytes > ?)""";

    private final SqliteDatabase database;
    /** The partition ids of the threads written, remembered between batches. */
    private final LogPartitions partitions = new LogPartitions();
    /**
     * Whether the file's rows carry partition ids (schema 4 on): always for a store that migrated it;
     * for a read-only one, which migrates nothing, asked of the file at the first query.
     */
    private volatile Boolean partitioned;

    private SqliteThreadLogStore(SqliteDatabase database, Boolean partitioned) {
        this.database = database;
        this.partitioned = partitioned;
    }

    /**
     * Opens (creating and migrating when needed) the logs database at {@code file}.
     *
     * @param file the logs database ({@code logs.sqlite} in an engine's home)
     * @return the open store; close it when done
     */
    public static SqliteThreadLogStore open(Path file) {
        return new SqliteThreadLogStore(SqliteDatabase.open(Objects.requireNonNull(file, "file"), LOGS), true);
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
        return new SqliteThreadLogStore(SqliteDatabase.openReadOnly(Objects.requireNonNull(file, "file"), LOGS), null);
    }

    /**
     * The database file.
     *
     * @return the path the store was opened at
     */
    public Path file() {
        return database.file();
    }

    /** For this package's tests: runs {@code work} on one of the store's own connections. */
    <T> T onConnection(SqliteDatabase.Work<T> work) {
        return database.read("test access", work);
    }

    @Override
    public void append(List<ThreadLogEntry> entries) {
        Objects.requireNonNull(entries, "entries");
        if (entries.isEmpty()) {
            return;
        }
        LogPartitions.Batch batch;
        try {
            batch = database.write("append " + entries.size() + " log entries", connection -> {
                LogPartitions.Batch resolved = partitions.resolve(connection, entries);
                insert(connection, entries, resolved);
                resolved.count(connection);
                prune(connection, resolved.touched());
                return resolved;
            });
        } catch (RuntimeException e) {
            partitions.forgetAll();
            throw e;
        }
        partitions.remember(batch);
    }

    /**
     * Inserts the rows as one JDBC batch with typed parameters, counting each to its partition. One
     * batch, not an update per row: on a connection in auto-commit mode sqlite-jdbc follows each
     * update with its own {@code BEGIN} (which fails inside our transaction, as meant); a batch does
     * that once.
     */
    private static void insert(PooledConnection connection, List<ThreadLogEntry> entries, LogPartitions.Batch batch)
            throws SQLException {
        PreparedStatement insert = connection.prepare(INSERT);
        try {
            for (ThreadLogEntry entry : entries) {
                long bytes = ThreadLogStore.estimatedBytes(entry);
                insert.setLong(1, entry.ts().getEpochSecond());
                insert.setInt(2, entry.ts().getNano());
                insert.setString(3, entry.level());
                insert.setString(4, entry.target());
                insert.setString(5, entry.message());
                insert.setString(6, entry.threadId());
                insert.setLong(7, bytes);
                insert.setLong(8, batch.add(entry.threadId(), bytes));
                insert.addBatch();
            }
            insert.executeBatch();
        } finally {
            insert.clearBatch();
            insert.clearParameters();
        }
    }

    /**
     * Applies both caps to the threads the batch touched (Codex's per-partition check, for only
     * those). Most batches find none over; a thread over its row cap only (the common case for a
     * busy pseudo-thread) loses its oldest surplus rows through the index, and only a thread past
     * its byte cap needs the cumulative-size ranking.
     */
    private static void prune(PooledConnection connection, Set<Long> touched) throws SQLException {
        Map<Long, long[]> over = new LinkedHashMap<>();
        try (ResultSet row = connection.prepare(OVER_CAP).executeQuery()) {
            while (row.next()) {
                if (touched.contains(row.getLong(1))) {
                    over.put(row.getLong(1), new long[] {row.getLong(2), row.getLong(3)});
                }
            }
        }
        for (Map.Entry<Long, long[]> partition : over.entrySet()) {
            long rows = partition.getValue()[0];
            if (partition.getValue()[1] > PARTITION_SIZE_LIMIT_BYTES) {
                Jdbc.update(connection, PRUNE, partition.getKey(), PARTITION_ROW_LIMIT, PARTITION_SIZE_LIMIT_BYTES);
            } else {
                Jdbc.update(connection, PRUNE_OLDEST, partition.getKey(), rows - PARTITION_ROW_LIMIT);
            }
        }
    }

    @Override
    public List<ThreadLogEntry> query(ThreadLogQuery query) {
        Select select = select(Objects.requireNonNull(query, "query"), partitioned());
        List<ThreadLogEntry> newestFirst = database.read("query logs", connection -> Jdbc.query(connection,
                select.sql(), row -> new ThreadLogEntry(row.getString(1),
                        Instant.ofEpochSecond(row.getLong(2), row.getLong(3)), row.getString(4), row.getString(5),
                        row.getString(6)), select.arguments().toArray()));
        List<ThreadLogEntry> oldestFirst = new ArrayList<>(newestFirst);
        Collections.reverse(oldestFirst);
        return oldestFirst;
    }

    /**
     * Whether the rows carry partition ids. A file an older Mnemo wrote, read by a read-only store
     * (which migrates nothing: {@code mnemo logs} on a home no engine has opened since), has none and
     * is read by the thread id, through the per-thread index it has.
     */
    private boolean partitioned() {
        Boolean known = partitioned;
        if (known == null) {
            known = database.read("look for partition ids", connection -> Jdbc.queryLong(connection,
                    "SELECT COUNT(*) FROM pragma_table_info('logs') WHERE name = 'partition_id'") > 0);
            partitioned = known;
        }
        return known;
    }

    /**
     * The newest {@code query.limit()} rows the query matches, newest first; a thread's through its
     * partition when the rows carry partition ids.
     */
    static Select select(ThreadLogQuery query, boolean partitioned) {
        ThreadLogQuery.SqlFilter filter = query.sqlFilter();
        List<Object> args = new ArrayList<>();
        String conditions = filter.conditions();
        if (partitioned && query.threadId().isPresent()) {
            conditions = OF_THREAD + " AND " + conditions;
            args.add(query.threadId().get());
        }
        args.addAll(filter.arguments());
        args.add(query.limit());
        return new Select("SELECT thread_id, ts, ts_nanos, level, target, message FROM logs WHERE " + conditions
                + " ORDER BY ts DESC, ts_nanos DESC, id DESC LIMIT ?", args);
    }

    /** A query's SQL and its arguments, in order. */
    record Select(String sql, List<Object> arguments) {}

    @Override
    public int deleteOlderThan(Instant cutoff) {
        Objects.requireNonNull(cutoff, "cutoff");
        int deleted = database.write("delete logs older than " + cutoff, connection -> {
            int rows = Jdbc.update(connection, "DELETE FROM logs WHERE ts < ?", cutoff.getEpochSecond());
            Jdbc.update(connection, "DELETE FROM log_partitions WHERE rows <= 0");
            return rows;
        });
        if (deleted > 0) {
            database.checkpointBestEffort();
        }
        return deleted;
    }

    @Override
    public int deleteThread(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        int deleted = database.write("delete logs of thread " + threadId, connection -> {
            int rows = Jdbc.update(connection, "DELETE FROM logs WHERE " + OF_THREAD, threadId);
            Jdbc.update(connection, "DELETE FROM log_partitions WHERE thread_id = ?", threadId);
            return rows;
        });
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
