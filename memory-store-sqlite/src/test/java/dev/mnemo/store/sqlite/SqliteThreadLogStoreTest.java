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
}
