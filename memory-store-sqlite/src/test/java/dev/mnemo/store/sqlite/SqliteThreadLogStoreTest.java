package dev.mnemo.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MemoryStoreException;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.spi.ThreadLogQuery;
import dev.mnemo.spi.ThreadLogStore;
import dev.mnemo.testkit.contract.ThreadLogStoreContract;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code logs.sqlite}: {@link ThreadLogStoreContract} (Codex's partition caps, pruned in the insert's
 * transaction, the queries, age retention) on a real file, plus the file's own settings.
 */
class SqliteThreadLogStoreTest extends ThreadLogStoreContract {

    @TempDir
    Path dir;

    @Override
    protected ThreadLogStore openLogs() {
        return SqliteThreadLogStore.open(dir.resolve("logs.sqlite"));
    }

    @Test
    void logsFile_isItsOwnWalDatabase_besideNoStateTables() throws Exception {
        logs.append(List.of(new ThreadLogEntry("a", Instant.parse("2026-06-01T12:00:00Z"), "INFO", "t", "x")));
        try (var connection = DriverManager.getConnection("jdbc:sqlite:" + ((SqliteThreadLogStore) logs).file());
                var statement = connection.createStatement()) {
            try (var rows = statement.executeQuery("PRAGMA journal_mode")) {
                assertThat(rows.getString(1)).isEqualTo("wal");
            }
            try (var rows = statement.executeQuery("SELECT COUNT(*) FROM sqlite_master WHERE name = 'threads'")) {
                assertThat(rows.getInt(1)).isZero();
            }
        }
    }

    @Test
    void logsConnections_checkpointTheirWalAtFourThousandPages_theStateDatabasesAtSqlitesDefault() {
        SqliteThreadLogStore store = (SqliteThreadLogStore) logs;
        assertThat(store.<Long>onConnection(connection -> Jdbc.queryLong(connection, "PRAGMA wal_autocheckpoint")))
                .isEqualTo(4_000L);
        try (SqliteMemoryStore state = SqliteMemoryStore.open(dir.resolve("mnemo.sqlite"))) {
            assertThat(state.<Long>onConnection(connection -> Jdbc.queryLong(connection, "PRAGMA wal_autocheckpoint")))
                    .isEqualTo(1_000L);
        }
    }

    /** Issue 36: a deleted thread's entries stayed readable in {@code logs.sqlite-wal}. */
    @Test
    void deleteThread_leavesNoTextInTheDatabaseOrItsWal() throws Exception {
        Path file = ((SqliteThreadLogStore) logs).file();
        String secret = "the deploy password is hunter2-" + "x".repeat(200);
        logs.append(List.of(new ThreadLogEntry("a", Instant.parse("2026-06-01T12:00:00Z"), "INFO", "t", secret)));
        assertThat(contains(file, "hunter2") || contains(wal(file), "hunter2")).as("stored first").isTrue();

        logs.deleteThread("a");

        assertThat(contains(file, "hunter2")).as("in the database file").isFalse();
        assertThat(contains(wal(file), "hunter2")).as("in the WAL").isFalse();
    }

    /**
     * The cap check reads {@code log_partitions}, which triggers keep: rows another writer of the file
     * inserted without pruning, and rows retention deleted, are counted all the same, so the next
     * batch still keeps exactly the newest 1,000 of the thread.
     */
    @Test
    void capCheck_countsRowsOfAnyWriter_andForgetsDeletedOnes() throws Exception {
        Path file = ((SqliteThreadLogStore) logs).file();
        Instant t0 = Instant.parse("2026-06-01T12:00:00Z");
        logs.append(List.of(new ThreadLogEntry("a", t0, "INFO", "t", "first")));
        try (var connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                var insert = connection.prepareStatement("INSERT INTO logs (ts, ts_nanos, level, target, message, "
                        + "thread_id, estimated_bytes) VALUES (?, 0, 'INFO', 't', ?, 'a', 6)")) {
            for (int i = 1; i <= 1_100; i++) {
                insert.setLong(1, t0.getEpochSecond() + 2 * i);
                insert.setString(2, "row " + i);
                insert.executeUpdate();
            }
        }
        logs.append(List.of(new ThreadLogEntry("a", t0.plusSeconds(10_000), "INFO", "t", "newest")));

        List<ThreadLogEntry> kept = logs.query(ThreadLogQuery.ofThread("a", 2_000));
        assertThat(kept).hasSize(ThreadLogStore.PARTITION_ROW_LIMIT);
        assertThat(kept.get(0).message()).isEqualTo("row 102");
        assertThat(kept.get(kept.size() - 1).message()).isEqualTo("newest");

        // Retention takes the 500 oldest; the sizes follow, so 500 more fit before the cap prunes.
        assertThat(logs.deleteOlderThan(t0.plusSeconds(2 * 602))).isEqualTo(500);
        List<ThreadLogEntry> more = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            more.add(new ThreadLogEntry("a", t0.plusSeconds(20_000 + i), "INFO", "t", "more " + i));
        }
        logs.append(more);
        assertThat(logs.query(ThreadLogQuery.ofThread("a", 2_000))).hasSize(ThreadLogStore.PARTITION_ROW_LIMIT)
                .first().extracting(ThreadLogEntry::message).isEqualTo("row 602");
        assertThat(partitionRows(file, "a")).isEqualTo(ThreadLogStore.PARTITION_ROW_LIMIT);

        logs.deleteThread("a");
        assertThat(partitionRows(file, "a")).as("a deleted thread leaves no size row").isEqualTo(-1);
    }

    /** A row given another thread by hand is found, counted and forgotten under that thread. */
    @Test
    void rowMovedToAnotherThreadByHand_isFoundCountedAndForgottenUnderIt() throws Exception {
        Path file = ((SqliteThreadLogStore) logs).file();
        Instant t0 = Instant.parse("2026-06-01T12:00:00Z");
        logs.append(List.of(new ThreadLogEntry("a", t0, "INFO", "t", "one"),
                new ThreadLogEntry("a", t0.plusSeconds(1), "INFO", "t", "two")));
        try (var connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                var statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE logs SET thread_id = 'b' WHERE message = 'two'");
        }

        assertThat(logs.query(ThreadLogQuery.ofThread("a", 10))).extracting(ThreadLogEntry::message).containsExactly("one");
        assertThat(logs.query(ThreadLogQuery.ofThread("b", 10))).extracting(ThreadLogEntry::message).containsExactly("two");
        assertThat(partitionRows(file, "a")).isEqualTo(1);
        assertThat(partitionRows(file, "b")).isEqualTo(1);

        assertThat(logs.deleteThread("b")).isEqualTo(1);
        assertThat(contains(file, "two") || contains(wal(file), "two")).isFalse();
    }

    /**
     * Within one second the rows are ordered by their nanoseconds, not by when they were written:
     * past the cap, the row dropped is the oldest by its time even when it was written last.
     */
    @Test
    void rowCap_dropsTheOldestByTime_whenRowsOfOneSecondWereWrittenNewestFirst() {
        Instant second = Instant.parse("2026-06-01T12:00:00Z");
        List<ThreadLogEntry> newestFirst = new ArrayList<>();
        for (int i = 0; i < ThreadLogStore.PARTITION_ROW_LIMIT; i++) {
            newestFirst.add(new ThreadLogEntry("a", second.plusNanos(1_000_000L - i), "INFO", "t", "nano " + (1_000_000 - i)));
        }
        logs.append(newestFirst);

        logs.append(List.of(new ThreadLogEntry("a", second.plusSeconds(1), "INFO", "t", "next second")));

        List<String> kept = logs.query(ThreadLogQuery.ofThread("a", 2_000)).stream().map(ThreadLogEntry::message)
                .toList();
        assertThat(kept).hasSize(ThreadLogStore.PARTITION_ROW_LIMIT).doesNotContain("nano 999001")
                .startsWith("nano 999002", "nano 999003").endsWith("nano 1000000", "next second");
    }

    /**
     * The writer remembers each thread's partition id; another program that forgets the thread and
     * writes for a new one may be given the same id, and the next batch must not file the old
     * thread's entry under the new one.
     */
    @Test
    void partitionIdGivenToAnotherThreadByAnotherProgram_isNotReusedForTheForgottenThread() throws Exception {
        Path file = ((SqliteThreadLogStore) logs).file();
        Instant t0 = Instant.parse("2026-06-01T12:00:00Z");
        logs.append(List.of(new ThreadLogEntry("a", t0, "INFO", "t", "a one")));
        asAnotherProgram(file, "DELETE FROM logs WHERE thread_id = 'a'",
                "DELETE FROM log_partitions WHERE thread_id = 'a'", insertWithoutPartition(t0, "b", "b one"));
        assertThat(partitionId(file, "b")).as("the id 'a' had").isEqualTo(1);

        logs.append(List.of(new ThreadLogEntry("a", t0.plusSeconds(1), "INFO", "t", "a two")));

        assertThat(messages("a")).containsExactly("a two");
        assertThat(messages("b")).containsExactly("b one");
        assertThat(partitionRows(file, "a")).isEqualTo(1);
        assertThat(partitionRows(file, "b")).isEqualTo(1);
    }

    /**
     * A batch that fails rolls back the partition it made for a new thread; that id may then go to
     * another thread, so the writer must not have remembered it.
     */
    @Test
    void batchRolledBack_leavesNoPartitionIdRemembered() throws Exception {
        Path file = ((SqliteThreadLogStore) logs).file();
        Instant t0 = Instant.parse("2026-06-01T12:00:00Z");
        logs.append(List.of(new ThreadLogEntry("a", t0, "INFO", "t", "a one")));
        asAnotherProgram(file, "CREATE TRIGGER refuse BEFORE INSERT ON logs WHEN new.message = 'refused'"
                + " BEGIN SELECT RAISE(ABORT, 'refused by a test'); END");
        assertThatThrownBy(() -> logs.append(List.of(new ThreadLogEntry("c", t0, "INFO", "t", "refused"))))
                .isInstanceOf(MemoryStoreException.class);
        asAnotherProgram(file, "DROP TRIGGER refuse", insertWithoutPartition(t0, "d", "d one"));
        assertThat(partitionId(file, "d")).as("the id the failed batch made for 'c'").isEqualTo(2);

        logs.append(List.of(new ThreadLogEntry("c", t0.plusSeconds(1), "INFO", "t", "c one")));

        assertThat(messages("c")).containsExactly("c one");
        assertThat(messages("d")).containsExactly("d one");
    }

    private List<String> messages(String threadId) {
        return logs.query(ThreadLogQuery.ofThread(threadId, 10)).stream().map(ThreadLogEntry::message).toList();
    }

    /** Runs {@code statements} on a connection of its own, as another program writing the file would. */
    private static void asAnotherProgram(Path file, String... statements) throws Exception {
        try (var connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                var statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.executeUpdate(sql);
            }
        }
    }

    /** A row as another program would insert it: no partition id, which the file's triggers give it. */
    private static String insertWithoutPartition(Instant ts, String threadId, String message) {
        return "INSERT INTO logs (ts, ts_nanos, level, target, message, thread_id, estimated_bytes) VALUES ("
                + ts.getEpochSecond() + ", 0, 'INFO', 't', '" + message + "', '" + threadId + "', 10)";
    }

    private static long partitionId(Path file, String threadId) throws Exception {
        return partitionColumn(file, "id", threadId);
    }

    private static long partitionRows(Path file, String threadId) throws Exception {
        return partitionColumn(file, "rows", threadId);
    }

    private static long partitionColumn(Path file, String column, String threadId) throws Exception {
        try (var connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                var query = connection.prepareStatement("SELECT " + column + " FROM log_partitions WHERE thread_id = ?")) {
            query.setString(1, threadId);
            try (var rows = query.executeQuery()) {
                return rows.next() ? rows.getLong(1) : -1;
            }
        }
    }

    static Path wal(Path file) {
        return file.resolveSibling(file.getFileName() + "-wal");
    }

    static boolean contains(Path file, String text) throws java.io.IOException {
        return java.nio.file.Files.exists(file) && new String(java.nio.file.Files.readAllBytes(file),
                java.nio.charset.StandardCharsets.ISO_8859_1).contains(text);
    }
}
