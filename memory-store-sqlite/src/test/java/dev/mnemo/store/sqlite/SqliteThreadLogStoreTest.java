package dev.mnemo.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ThreadLogEntry;
import dev.mnemo.spi.ThreadLogStore;
import dev.mnemo.testkit.contract.ThreadLogStoreContract;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Instant;
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

    static Path wal(Path file) {
        return file.resolveSibling(file.getFileName() + "-wal");
    }

    static boolean contains(Path file, String text) throws java.io.IOException {
        return java.nio.file.Files.exists(file) && new String(java.nio.file.Files.readAllBytes(file),
                java.nio.charset.StandardCharsets.ISO_8859_1).contains(text);
    }
}
