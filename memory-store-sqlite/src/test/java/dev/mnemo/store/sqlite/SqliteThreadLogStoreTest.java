package dev.mnemo.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ThreadLogEntry;
import dev.mnemo.spi.ThreadLogQuery;
import dev.mnemo.spi.ThreadLogStore;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code logs.sqlite}: Codex's partition caps ({@code insert_logs_prunes_*}) per thread, pruned in
 * the insert's transaction, plus the queries, age retention and the file's own settings.
 */
class SqliteThreadLogStoreTest {

    private static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");
    private static final int MIB = 1024 * 1024;

    @TempDir
    Path dir;

    private SqliteThreadLogStore store;

    @BeforeEach
    void open() {
        store = SqliteThreadLogStore.open(dir.resolve("logs.sqlite"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static ThreadLogEntry entry(String thread, int second, String message) {
        return new ThreadLogEntry(thread, T0.plusSeconds(second), "INFO", "t", message);
    }

    private List<ThreadLogEntry> all(String thread) {
        return store.query(ThreadLogQuery.ofThread(thread, 100_000));
    }

    @Test
    void append_prunesAThreadPastTheRowCap_keepingTheNewest() {
        List<ThreadLogEntry> batch = new ArrayList<>();
        for (int i = 0; i < ThreadLogStore.PARTITION_ROW_LIMIT + 5; i++) {
            batch.add(entry("a", i, "row " + i));
        }
        store.append(batch);

        List<ThreadLogEntry> kept = all("a");
        assertThat(kept).hasSize(ThreadLogStore.PARTITION_ROW_LIMIT);
        assertThat(kept.get(0).message()).isEqualTo("row 5");
        assertThat(kept.get(kept.size() - 1).message()).isEqualTo("row 1004");
    }

    @Test
    void append_prunesAThreadPastTheByteCap_acrossBatches() {
        String oneMib = "x".repeat(MIB - 5); // + "INFO" + "t" = 1 MiB estimated
        for (int i = 0; i < 12; i++) {
            store.append(List.of(entry("big", i, i + oneMib.substring(Integer.toString(i).length()))));
        }

        List<ThreadLogEntry> kept = all("big");
        assertThat(kept).hasSize(10);
        assertThat(kept.get(0).message()).startsWith("2x");
        assertThat(kept.stream().mapToLong(SqliteThreadLogStore::estimatedBytes).sum())
                .isLessThanOrEqualTo(ThreadLogStore.PARTITION_SIZE_LIMIT_BYTES);
    }

    @Test
    void append_deletesASingleRowOverTheByteCapAtOnce() {
        store.append(List.of(entry("huge", 0, "small")));
        store.append(List.of(entry("huge", 1, "y".repeat(10 * MIB + 1))));

        assertThat(all("huge")).isEmpty();
    }

    @Test
    void append_prunesOnlyThePartitionsItTouched() {
        List<ThreadLogEntry> batch = new ArrayList<>();
        for (int i = 0; i < ThreadLogStore.PARTITION_ROW_LIMIT; i++) {
            batch.add(entry("quiet", i, "q" + i));
        }
        store.append(batch);
        batch.clear();
        for (int i = 0; i < ThreadLogStore.PARTITION_ROW_LIMIT + 1; i++) {
            batch.add(entry("mnemo:phase2", i, "p" + i));
        }
        store.append(batch);

        assertThat(all("quiet")).hasSize(ThreadLogStore.PARTITION_ROW_LIMIT);
        assertThat(all("mnemo:phase2")).hasSize(ThreadLogStore.PARTITION_ROW_LIMIT);
    }

    @Test
    void query_filtersByThreadLevelsAndSince_andReturnsTheNewestOldestFirst() {
        store.append(List.of(
                new ThreadLogEntry("a", T0, "DEBUG", "t", "debug"),
                new ThreadLogEntry("a", T0.plusSeconds(1), "WARN", "t", "warn"),
                new ThreadLogEntry("b", T0.plusSeconds(2), "ERROR", "t", "other thread"),
                new ThreadLogEntry("a", T0.plusSeconds(3), "info", "t", "lower-case level")));

        assertThat(store.query(ThreadLogQuery.ofThread("a", 2))).extracting(ThreadLogEntry::message)
                .containsExactly("warn", "lower-case level");
        assertThat(store.query(new ThreadLogQuery(Optional.empty(), Optional.empty(), ThreadLogQuery.atLeast("warn"),
                10))).extracting(ThreadLogEntry::message).containsExactly("warn", "other thread");
        assertThat(store.query(new ThreadLogQuery(Optional.of("a"), Optional.of(T0.plusSeconds(1)), Set.of(), 10)))
                .extracting(ThreadLogEntry::message).containsExactly("warn", "lower-case level");
        assertThat(store.query(ThreadLogQuery.ofThread("a", 1)).get(0).level()).as("stored level kept")
                .isEqualTo("info");
    }

    @Test
    void deleteOlderThan_appliesAgeRetention_andDeleteThreadForgetsOneThread() {
        store.append(List.of(entry("a", 0, "old"), entry("a", (int) Duration.ofDays(11).toSeconds(), "new"),
                entry("b", 0, "b old")));

        assertThat(store.deleteOlderThan(T0.plus(Duration.ofDays(1)))).isEqualTo(2);
        assertThat(all("a")).extracting(ThreadLogEntry::message).containsExactly("new");

        assertThat(store.deleteThread("a")).isEqualTo(1);
        assertThat(all("a")).isEmpty();
    }

    @Test
    void logsFile_isItsOwnWalDatabase_besideNoStateTables() throws Exception {
        store.append(List.of(entry("a", 0, "x")));
        try (var connection = DriverManager.getConnection("jdbc:sqlite:" + store.file());
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
