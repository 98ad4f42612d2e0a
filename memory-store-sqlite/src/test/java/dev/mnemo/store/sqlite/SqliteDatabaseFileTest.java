package dev.mnemo.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MemoryStoreException;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.MemoryStoreProvider;
import dev.mnemo.spi.Stage1Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConnection;

/** What is specific to the SQLite file: pragmas, migrations, refusing foreign files, forgetting on disk. */
class SqliteDatabaseFileTest {

    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

    @TempDir
    Path dir;

    @Test
    void connections_runWithWalBusyTimeoutSecureDeleteForeignKeysAndNoGeneratedKeys() {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir.resolve("mnemo.sqlite"))) {
            assertThat(pragma(store, "journal_mode")).isEqualTo("wal");
            assertThat(Long.parseLong(pragma(store, "busy_timeout"))).isGreaterThanOrEqualTo(5_000);
            assertThat(pragma(store, "secure_delete")).isEqualTo("1");
            assertThat(pragma(store, "foreign_keys")).isEqualTo("1");
            assertThat(pragma(store, "synchronous")).isEqualTo("1"); // NORMAL
            boolean generatedKeys = store.onConnection(
                    connection -> ((SQLiteConnection) connection.jdbc()).getConnectionConfig().isGetGeneratedKeys());
            assertThat(generatedKeys).as("sqlite-jdbc's extra query after each INSERT").isFalse();
        }
    }

    @Test
    void reopening_keepsDataAndAppliesMigrationsOnceInItsOwnHistoryTable() {
        Path file = dir.resolve("mnemo.sqlite");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            store.upsertThread(thread("a"));
        }
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            assertThat(store.thread("a")).isPresent();
            List<String> applied = store.onConnection(connection -> Jdbc.query(connection,
                    "SELECT version, success FROM mnemo_schema_history WHERE version IS NOT NULL",
                    row -> row.getString(1) + ":" + row.getInt(2)));
            long flywayDefaultTables = store.onConnection(connection -> Jdbc.queryLong(connection,
                    "SELECT COUNT(*) FROM sqlite_master WHERE name = 'flyway_schema_history'"));
            assertThat(applied).containsExactly("1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1", "8:1", "9:1", "10:1");
            assertThat(flywayDefaultTables).isZero();
        }
    }

    @Test
    void schemaVersionConstant_namesTheNewestMigration() throws Exception {
        Path migrations = Path.of(SqliteDatabase.class.getResource("migration").toURI());
        try (var files = Files.list(migrations)) {
            int newest = files.map(path -> path.getFileName().toString())
                    .filter(name -> name.matches("V\\d+__.+\\.sql"))
                    .mapToInt(name -> Integer.parseInt(name.substring(1, name.indexOf("__"))))
                    .max().orElseThrow();
            assertThat(SqliteDatabase.SCHEMA_VERSION).isEqualTo(Integer.toString(newest));
        }
    }

    @Test
    void migrating_stampsTheSchemaVersionInTheFileHeader() {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(dir.resolve("mnemo.sqlite"))) {
            assertThat(store.<Long>onConnection(connection -> Jdbc.queryLong(connection, "PRAGMA user_version")))
                    .isEqualTo(Long.parseLong(SqliteDatabase.SCHEMA_VERSION));
        }
    }

    @Test
    void open_ofAFileStampedCurrent_opensNoConnectionUntilTheFirstOperation() {
        Path file = dir.resolve("mnemo.sqlite");
        Path wal = dir.resolve("mnemo.sqlite-wal");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            store.upsertThread(thread("a"));
        }
        assertThat(wal).as("the last connection's close checkpoints and removes the WAL").doesNotExist();

        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            assertThat(wal).as("no connection was opened").doesNotExist();
            assertThat(store.thread("a")).isPresent();
            assertThat(wal).exists();
        }
    }

    @Test
    void open_ofAFileMigratedBeforeVersionsWereStamped_checksItWithSqlAndStampsIt() throws Exception {
        Path file = dir.resolve("mnemo.sqlite");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            store.upsertThread(thread("a"));
            store.onConnection(connection -> {
                connection.executeOnce("PRAGMA user_version = 0");
                return null;
            });
        }
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            assertThat(store.thread("a")).isPresent();
            assertThat(store.<Long>onConnection(connection -> Jdbc.queryLong(connection, "PRAGMA user_version")))
                    .isEqualTo(Long.parseLong(SqliteDatabase.SCHEMA_VERSION));
        }
    }

    @Test
    void open_refusesATextFileAndLeavesItUntouched() throws IOException {
        Path file = dir.resolve("mnemo.sqlite");
        Files.writeString(file, "these are my notes, not a database\n");
        assertRefusedAndUntouched(file);
    }

    @Test
    void open_refusesRandomBytesAndATruncatedHeader() throws IOException {
        Path random = dir.resolve("random.sqlite");
        byte[] bytes = new byte[8192];
        new Random(7).nextBytes(bytes);
        Files.write(random, bytes);
        assertRefusedAndUntouched(random);

        Path truncated = dir.resolve("truncated.sqlite");
        Files.write(truncated, "SQLite for".getBytes(StandardCharsets.US_ASCII));
        assertRefusedAndUntouched(truncated);
    }

    @Test
    void open_refusesADatabaseWhoseHeaderIsRightButWhosePagesAreGarbage() throws IOException {
        Path file = dir.resolve("mnemo.sqlite");
        byte[] bytes = new byte[8192];
        new Random(11).nextBytes(bytes);
        byte[] header = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(header, 0, bytes, 0, header.length);
        Files.write(file, bytes);

        assertThatThrownBy(() -> SqliteMemoryStore.open(file)).isInstanceOf(MemoryStoreException.class)
                .hasMessageContaining(file.toString());
        assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
    }

    @Test
    void open_acceptsAnEmptyFileAsANewDatabase() throws IOException {
        Path file = Files.createFile(dir.resolve("mnemo.sqlite"));
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            assertThat(store.threads()).isEmpty();
        }
    }

    @Test
    void sqlFailures_becomeMemoryStoreExceptionsNamingTheFile() {
        Path file = dir.resolve("mnemo.sqlite");
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            store.onConnection(connection -> Jdbc.update(connection, "DROP TABLE stage1_outputs"));

            assertThatThrownBy(() -> store.stage1Output("a")).isInstanceOf(MemoryStoreException.class)
                    .hasMessageContaining(file.toString()).hasMessageContaining("stage1_outputs");
        }
    }

    @Test
    void closedStore_refusesWork() {
        SqliteMemoryStore store = SqliteMemoryStore.open(dir.resolve("mnemo.sqlite"));
        store.close();
        store.close();

        assertThatThrownBy(store::threads).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void provider_isFoundAsSqliteAndCreatesTheHomeFolder() {
        List<MemoryStoreProvider> providers = ServiceLoader.load(MemoryStoreProvider.class).stream()
                .map(ServiceLoader.Provider::get).toList();
        assertThat(providers).extracting(MemoryStoreProvider::name).containsExactly("sqlite");

        Path home = dir.resolve("not/yet/there");
        try (MemoryStore store = providers.get(0).open(home)) {
            store.upsertThread(thread("a"));
        }
        assertThat(home.resolve("mnemo.sqlite")).isRegularFile();
    }

    @Test
    void pollutedMemory_leavesNoTraceInTheDatabaseOrItsWal() throws IOException {
        Path file = dir.resolve("mnemo.sqlite");
        String secret = "the deploy password is hunter2-" + "x".repeat(200);
        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            store.upsertThread(thread("a"));
            String token = store.tryClaimStage1Job("a", "w", NOW, Duration.ofHours(1), 4, NOW).token();
            store.markStage1Succeeded("a", token, NOW, new Stage1Result(secret, secret, Optional.empty()), NOW);
            assertThat(contains(file, "hunter2") || contains(wal(file), "hunter2")).as("stored first").isTrue();

            store.markThreadPolluted("a", NOW);

            assertThat(contains(file, "hunter2")).as("in the database file").isFalse();
            assertThat(contains(wal(file), "hunter2")).as("in the WAL").isFalse();
        }
    }

    private static Path wal(Path file) {
        return file.resolveSibling(file.getFileName() + "-wal");
    }

    private static boolean contains(Path file, String text) throws IOException {
        return Files.exists(file) && new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(text);
    }

    private static void assertRefusedAndUntouched(Path file) throws IOException {
        byte[] before = Files.readAllBytes(file);
        assertThatThrownBy(() -> SqliteMemoryStore.open(file)).isInstanceOf(MemoryStoreException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("not an SQLite database");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        assertThat(wal(file)).doesNotExist();
    }

    private static String pragma(SqliteMemoryStore store, String name) {
        return store.onConnection(connection -> Jdbc.queryFirst(connection, "PRAGMA " + name,
                row -> row.getString(1)).orElseThrow());
    }

    private static ThreadInfo thread(String id) {
        return ThreadInfo.builder(id).rolloutPath(Path.of("/rollouts/" + id + ".jsonl")).createdAt(NOW)
                .updatedAt(NOW).source("cli").preview("hello").build();
    }
}
