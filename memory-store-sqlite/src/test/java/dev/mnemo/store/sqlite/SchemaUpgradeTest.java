package dev.mnemo.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ModelFailure;
import dev.mnemo.ThreadInfo;
import dev.mnemo.llm.ModelException;
import dev.mnemo.spi.JobClaim;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/**
 * A state file written by an earlier Mnemo, at an older schema version, opened by this one: the
 * migrations still missing run once, and what the file held is kept and usable. The old file is
 * made by Flyway itself from this module's migrations, stopped at the older version, so the test
 * follows every migration added later.
 */
class SchemaUpgradeTest {

    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");

    @TempDir
    Path dir;

    @Test
    void open_upgradesAFileAtSchemaVersion2AndKeepsItsThreads() throws SQLException {
        Path file = dir.resolve("mnemo.sqlite");
        createAtVersion(file, "2");
        insertThreadAsVersion2Wrote(file, "old-thread");

        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            assertThat(appliedVersions(store)).containsExactly("1:1", "2:1", "3:1");
            ThreadInfo thread = store.thread("old-thread").orElseThrow();
            assertThat(thread.preview()).isEqualTo("hello from schema 2");
            assertThat(thread.updatedAt()).isEqualTo(NOW);
        }
    }

    @Test
    void open_upgradedFileRecordsModelFailures_theTableVersion3Added() throws SQLException {
        Path file = dir.resolve("mnemo.sqlite");
        createAtVersion(file, "2");
        insertThreadAsVersion2Wrote(file, "old-thread");

        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            JobClaim claim = store.tryClaimStage1Job("old-thread", "worker-1", NOW, Duration.ofHours(1), 8, NOW);
            assertThat(claim.isClaimed()).isTrue();
            ModelFailure failure = new ModelFailure(ModelException.Reason.RATE_LIMITED, "slow down", NOW);
            assertThat(store.releaseStage1AfterModelFailure("old-thread", claim.token(), failure,
                    Duration.ofMinutes(5), NOW)).isTrue();
            assertThat(store.status(NOW).lastModelFailure()).contains(failure);
        }
        try (SqliteMemoryStore reopened = SqliteMemoryStore.open(file)) {
            assertThat(appliedVersions(reopened)).containsExactly("1:1", "2:1", "3:1");
            assertThat(reopened.status(NOW).lastModelFailure()).isPresent();
        }
    }

    /** The file as a Mnemo whose newest migration was {@code version} left it. */
    private static void createAtVersion(Path file, String version) {
        SQLiteDataSource dataSource = new SQLiteDataSource();
        dataSource.setUrl("jdbc:sqlite:" + file);
        Flyway.configure(SqliteDatabase.class.getClassLoader())
                .dataSource(dataSource)
                .locations("classpath:dev/mnemo/store/sqlite/migration")
                .table("mnemo_schema_history")
                .target(version)
                .load()
                .migrate();
    }

    /** A thread row in the columns schema 1–2 had, written with plain JDBC. */
    private static void insertThreadAsVersion2Wrote(Path file, String id) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                PreparedStatement insert = connection.prepareStatement("INSERT INTO threads (id, rollout_path,"
                        + " created_at_ms, updated_at_ms, source, preview) VALUES (?, ?, ?, ?, 'cli', ?)")) {
            insert.setString(1, id);
            insert.setString(2, "/rollouts/" + id + ".jsonl");
            insert.setLong(3, NOW.toEpochMilli());
            insert.setLong(4, NOW.toEpochMilli());
            insert.setString(5, "hello from schema 2");
            insert.executeUpdate();
        }
    }

    private static List<String> appliedVersions(SqliteMemoryStore store) {
        return store.onConnection(connection -> Jdbc.query(connection,
                "SELECT version, success FROM mnemo_schema_history WHERE version IS NOT NULL ORDER BY installed_rank",
                row -> row.getString(1) + ":" + row.getInt(2)));
    }
}
