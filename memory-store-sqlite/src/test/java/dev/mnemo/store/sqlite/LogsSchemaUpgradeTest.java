package dev.mnemo.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ThreadLogEntry;
import dev.mnemo.spi.ThreadLogQuery;
import dev.mnemo.spi.ThreadLogStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * {@code logs.sqlite} written by an earlier Mnemo (schema 3: the per-thread index keyed by the
 * thread id; schema 4: rows counted by a trigger) opened by this one (keyed by each thread's
 * partition id, rows counted by the writer): every row kept and found under its thread, the sizes
 * carried over so the caps go on where they were, and the queries on the new indexes. The old file
 * is made by Flyway from this module's own migrations, stopped at the old version.
 */
class LogsSchemaUpgradeTest {

    private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");

    @TempDir
    Path dir;

    @Test
    void open_upgradesAVersion3File_keepingEveryThreadsRowsAndSizes() throws SQLException {
        Path file = dir.resolve("logs.sqlite");
        createAtVersion3(file);
        insertAsVersion3Wrote(file, "full", ThreadLogStore.PARTITION_ROW_LIMIT);
        insertAsVersion3Wrote(file, "small", 3);

        try (SqliteThreadLogStore logs = SqliteThreadLogStore.open(file)) {
            assertThat(logs.query(ThreadLogQuery.ofThread("full", 2_000))).hasSize(ThreadLogStore.PARTITION_ROW_LIMIT)
                    .allSatisfy(entry -> assertThat(entry.threadId()).isEqualTo("full"));
            assertThat(logs.query(ThreadLogQuery.ofThread("small", 10))).extracting(ThreadLogEntry::message)
                    .containsExactly("small 0", "small 1", "small 2");
            assertThat(partitions(file)).containsExactly("full:1000", "small:3");

            // The carried-over count is what the cap reads: one more row drops exactly the oldest.
            logs.append(List.of(new ThreadLogEntry("full", T0.plusSeconds(100_000), "INFO", "t", "newest")));
            List<ThreadLogEntry> full = logs.query(ThreadLogQuery.ofThread("full", 2_000));
            assertThat(full).hasSize(ThreadLogStore.PARTITION_ROW_LIMIT);
            assertThat(full.get(0).message()).isEqualTo("full 1");
            assertThat(full.get(full.size() - 1).message()).isEqualTo("newest");

            assertThat(logs.deleteThread("small")).isEqualTo(3);
            assertThat(logs.query(ThreadLogQuery.ofThread("small", 10))).isEmpty();
            assertThat(partitions(file)).containsExactly("full:1000");
        }
    }

    /** {@code mnemo logs} on a home no engine has opened since the upgrade: read as it is, not migrated. */
    @Test
    void openReadOnly_readsAVersion3FileAsItIs_andLeavesItAtVersion3() throws SQLException {
        Path file = dir.resolve("logs.sqlite");
        createAtVersion3(file);
        insertAsVersion3Wrote(file, "small", 3);
        insertAsVersion3Wrote(file, "other", 2);

        try (SqliteThreadLogStore logs = SqliteThreadLogStore.openReadOnly(file)) {
            assertThat(logs.query(ThreadLogQuery.ofThread("small", 10))).extracting(ThreadLogEntry::message)
                    .containsExactly("small 0", "small 1", "small 2");
            assertThat(logs.query(new ThreadLogQuery(Optional.empty(), Optional.empty(), Set.of(), 10))).hasSize(5);
        }
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                ResultSet rows = connection.createStatement().executeQuery(
                        "SELECT COUNT(*) FROM pragma_table_info('logs') WHERE name = 'partition_id'")) {
            assertThat(rows.getInt(1)).as("columns added").isZero();
        }
    }

    @Test
    void threadQuery_searchesThePartitionIndex_andNeedsNoSort() {
        ThreadLogQuery query = new ThreadLogQuery(Optional.of("thread-1"), Optional.of(T0), Set.of("INFO", "WARN"), 50);

        List<String> plan;
        try (SqliteThreadLogStore logs = SqliteThreadLogStore.open(dir.resolve("logs.sqlite"))) {
            plan = plan(logs, SqliteThreadLogStore.select(query, true));
        }

        assertThat(plan).anySatisfy(step -> assertThat(step)
                .startsWith("SEARCH logs USING INDEX idx_logs_partition_size (partition_id=?"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).startsWith("SCAN logs"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
    }

    @Test
    void queryOfEveryThread_readsTheTimeIndex_andNeedsNoSort() {
        ThreadLogQuery query = new ThreadLogQuery(Optional.empty(), Optional.empty(), Set.of(), 50);

        List<String> plan;
        try (SqliteThreadLogStore logs = SqliteThreadLogStore.open(dir.resolve("logs.sqlite"))) {
            plan = plan(logs, SqliteThreadLogStore.select(query, true));
        }

        assertThat(plan).anySatisfy(step -> assertThat(step).contains("USING INDEX idx_logs_ts"));
        assertThat(plan).noneSatisfy(step -> assertThat(step).contains("TEMP B-TREE"));
    }

    private static List<String> plan(SqliteThreadLogStore logs, SqliteThreadLogStore.Select select) {
        return logs.onConnection(connection -> {
            List<String> details = new ArrayList<>();
            try (PreparedStatement statement = connection.jdbc().prepareStatement("EXPLAIN QUERY PLAN " + select.sql())) {
                for (int i = 0; i < select.arguments().size(); i++) {
                    statement.setObject(i + 1, select.arguments().get(i));
                }
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        details.add(rows.getString("detail"));
                    }
                }
            }
            return details;
        });
    }

    /**
     * A version 4 file (rows counted by an insert trigger) opened by this Mnemo (the writer counts
     * its batches): the counts carried over are what the cap goes on from, and rows another program
     * inserts without a partition id are still counted.
     */
    @Test
    void open_upgradesAVersion4File_andTheCountsGoOnFromItsOwn() throws SQLException {
        Path file = dir.resolve("logs.sqlite");
        createAt(file, "4");
        insertAsVersion3Wrote(file, "full", ThreadLogStore.PARTITION_ROW_LIMIT);
        insertAsVersion3Wrote(file, "small", 3);
        assertThat(partitions(file)).containsExactly("full:1000", "small:3");

        try (SqliteThreadLogStore logs = SqliteThreadLogStore.open(file)) {
            logs.append(List.of(new ThreadLogEntry("full", T0.plusSeconds(100_000), "INFO", "t", "newest"),
                    new ThreadLogEntry("small", T0.plusSeconds(100_000), "INFO", "t", "small 3"),
                    new ThreadLogEntry("small", T0.plusSeconds(100_001), "INFO", "t", "small 4")));
            assertThat(partitions(file)).containsExactly("full:1000", "small:5");
            List<ThreadLogEntry> full = logs.query(ThreadLogQuery.ofThread("full", 2_000));
            assertThat(full).hasSize(ThreadLogStore.PARTITION_ROW_LIMIT);
            assertThat(full.get(0).message()).isEqualTo("full 1");
            assertThat(full.get(full.size() - 1).message()).isEqualTo("newest");

            insertAsVersion3Wrote(file, "small", 2);
            assertThat(partitions(file)).containsExactly("full:1000", "small:7");
        }
    }

    /** The file as a Mnemo whose newest logs migration was V3 left it. */
    private static void createAtVersion3(Path file) {
        createAt(file, "3");
    }

    /** The file as a Mnemo whose newest logs migration was {@code version} left it. */
    private static void createAt(Path file, String version) {
        SQLiteDataSource dataSource = new SQLiteDataSource();
        dataSource.setUrl("jdbc:sqlite:" + file);
        Flyway.configure(SqliteDatabase.class.getClassLoader())
                .dataSource(dataSource)
                .locations("classpath:dev/mnemo/store/sqlite/logs-migration")
                .table("mnemo_schema_history")
                .target(version)
                .load()
                .migrate();
    }

    /** {@code count} rows of {@code threadId} in the columns schema 3 had (its triggers count them). */
    private static void insertAsVersion3Wrote(Path file, String threadId, int count) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                PreparedStatement insert = connection.prepareStatement("INSERT INTO logs (ts, ts_nanos, level, target,"
                        + " message, thread_id, estimated_bytes) VALUES (?, 0, 'INFO', 't', ?, ?, ?)")) {
            connection.setAutoCommit(false);
            for (int i = 0; i < count; i++) {
                String message = threadId + " " + i;
                insert.setLong(1, T0.getEpochSecond() + i);
                insert.setString(2, message);
                insert.setString(3, threadId);
                insert.setLong(4, message.length() + "INFO".length() + "t".length());
                insert.addBatch();
            }
            insert.executeBatch();
            connection.commit();
        }
    }

    /** Each partition as {@code thread:rows}, in id order. */
    private static List<String> partitions(Path file) throws SQLException {
        List<String> partitions = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                ResultSet rows = connection.createStatement().executeQuery(
                        "SELECT thread_id, rows FROM log_partitions ORDER BY id")) {
            while (rows.next()) {
                partitions.add(rows.getString(1) + ":" + rows.getLong(2));
            }
        }
        return partitions;
    }
}
