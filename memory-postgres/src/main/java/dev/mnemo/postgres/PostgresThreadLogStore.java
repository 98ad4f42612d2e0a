package dev.mnemo.postgres;

import dev.mnemo.ThreadLogEntry;
import dev.mnemo.spi.ThreadLogQuery;
import dev.mnemo.spi.ThreadLogStore;
import java.sql.Array;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The thread logs of one tenant, in {@code tenant_thread_logs}: memory-store-sqlite's
 * {@code logs.sqlite} per tenant. A batch is inserted and the partitions (threads) it touched are
 * pruned in one transaction, under the tenant's log lock so writers on several servers keep the caps
 * exact: first a count and a sum, then, when over a cap, one window-function delete of every row past
 * the 1,000th newest or past 10 MiB of newest-first cumulative size. A NUL in a message or target
 * is kept as U+FFFD ({@link StorableText}) rather than failing the batch. Closing it releases
 * nothing: the pool is the application's.
 */
final class PostgresThreadLogStore implements ThreadLogStore {

    static final SqlStatements SQL = SqlStatements.load("sql/logs.sql");
    private static final List<String> TABLES = List.of("tenant_thread_logs");

    private final TenantDatabase database;
    private final String tenant;

    PostgresThreadLogStore(TenantDatabase database, String tenant) {
        this.database = database;
        this.tenant = tenant;
    }

    @Override
    public void append(List<ThreadLogEntry> entries) {
        Objects.requireNonNull(entries, "entries");
        if (entries.isEmpty()) {
            return;
        }
        database.write(tenant, SQL, "append " + entries.size() + " log entries", tx -> {
            tx.first("logs.lock", row -> Boolean.TRUE);
            Set<String> touched = new LinkedHashSet<>();
            try (PreparedStatement insert = tx.connection().prepareStatement(SQL.get("logs.insert"))) {
                for (ThreadLogEntry given : entries) {
                    ThreadLogEntry entry = new ThreadLogEntry(given.threadId(), given.ts(), given.level(),
                            StorableText.of(given.target()), StorableText.of(given.message()));
                    insert.setLong(1, entry.ts().getEpochSecond());
                    insert.setInt(2, entry.ts().getNano());
                    insert.setString(3, entry.level());
                    insert.setString(4, entry.target());
                    insert.setString(5, entry.message());
                    insert.setString(6, entry.threadId());
                    insert.setLong(7, ThreadLogStore.estimatedBytes(entry));
                    insert.addBatch();
                    touched.add(entry.threadId());
                }
                insert.executeBatch();
            }
            // The touched threads now past a cap, in one statement; past the byte cap: the
            // cumulative-size ranking; past the row cap only: the oldest rows through the index.
            Array threads = tx.connection().createArrayOf("text", touched.toArray());
            for (Partition over : tx.query("logs.overCaps", row -> new Partition(row.getString(1), row.getLong(2)),
                    threads, PARTITION_ROW_LIMIT, PARTITION_SIZE_LIMIT_BYTES)) {
                if (over.bytes() > PARTITION_SIZE_LIMIT_BYTES) {
                    tx.update("logs.prune", over.threadId(), PARTITION_ROW_LIMIT, PARTITION_SIZE_LIMIT_BYTES);
                } else {
                    tx.update("logs.pruneRows", over.threadId(), PARTITION_ROW_LIMIT);
                }
            }
            return null;
        });
    }

    /** A thread past a cap, with its estimated bytes. */
    private record Partition(String threadId, long bytes) {}

    @Override
    public List<ThreadLogEntry> query(ThreadLogQuery query) {
        Objects.requireNonNull(query, "query");
        ThreadLogQuery.SqlFilter filter = query.sqlFilter();
        String sql = "SELECT thread_id, ts, ts_nanos, level, target, message FROM thread_logs WHERE " + filter.conditions()
                + " ORDER BY ts DESC, ts_nanos DESC, id DESC LIMIT ?";
        List<Object> args = new ArrayList<>(filter.arguments());
        args.add(query.limit());
        List<ThreadLogEntry> newestFirst = database.read(tenant, SQL, "query logs", tx -> {
            List<ThreadLogEntry> rows = new ArrayList<>();
            try (PreparedStatement statement = tx.connection().prepareStatement(sql)) {
                for (int i = 0; i < args.size(); i++) {
                    statement.setObject(i + 1, args.get(i));
                }
                try (var result = statement.executeQuery()) {
                    while (result.next()) {
                        rows.add(new ThreadLogEntry(result.getString(1),
                                Instant.ofEpochSecond(result.getLong(2), result.getLong(3)), result.getString(4),
                                result.getString(5), result.getString(6)));
                    }
                }
            }
            return rows;
        });
        Collections.reverse(newestFirst);
        return newestFirst;
    }

    @Override
    public int deleteOlderThan(Instant cutoff) {
        Objects.requireNonNull(cutoff, "cutoff");
        return database.write(tenant, SQL, "delete logs older than " + cutoff,
                tx -> tx.update("logs.deleteOlderThan", cutoff.getEpochSecond()));
    }

    /** {@inheritDoc} The table is vacuumed in the background, as after every forget. */
    @Override
    public int deleteThread(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        int deleted = database.write(tenant, SQL, "delete logs of thread " + threadId,
                tx -> tx.update("logs.deleteThread", threadId));
        if (deleted > 0) {
            database.vacuumLater(TABLES, "deleting the logs of a thread of tenant " + tenant);
        }
        return deleted;
    }

    /** Releases nothing: the pool is the application's. */
    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "PostgresThreadLogStore[schema " + database.schema() + ", tenant " + tenant + "]";
    }
}
