package dev.mnemo.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ModelFailure;
import dev.mnemo.ThreadInfo;
import dev.mnemo.llm.ModelException;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.PendingNote;
import dev.mnemo.testkit.contract.ApprovalUpgradeContract;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.sqlite.SQLiteDataSource;

/**
 * A state file written by an earlier Mnemo, at an older schema version, opened by this one: the
 * migrations still missing run once, and what the file held is kept and usable. The old file is
 * made by Flyway itself from this module's migrations, stopped at the older version, so the test
 * follows every migration added later. The contracts' tests open a file of schema 3, the last
 * before projects (and so before approval, schema 5).
 */
class SchemaUpgradeTest extends ApprovalUpgradeContract {

    /** Every migration applied, successfully, once: what an upgraded file's history must say. */
    private static final List<String> EVERY_VERSION = List.of("1:1", "2:1", "3:1", "4:1", "5:1", "6:1", "7:1", "8:1", "9:1", "10:1");

    @Override
    protected MemoryStore openUpgraded(Path dir) throws SQLException {
        Path file = dir.resolve("mnemo.sqlite");
        createAtVersion(file, "3");
        insertThreadAsVersion2Wrote(file);
        insertMemoryAsVersion3Wrote(file);
        SqliteMemoryStore store = SqliteMemoryStore.open(file);
        assertThat(appliedVersions(store)).containsExactlyElementsOf(EVERY_VERSION);
        return store;
    }

    @Test
    void open_upgradesAFileAtSchemaVersion2AndKeepsItsThreads() throws SQLException {
        Path file = dir.resolve("mnemo.sqlite");
        createAtVersion(file, "2");
        insertThreadAsVersion2Wrote(file);

        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            assertThat(appliedVersions(store)).containsExactlyElementsOf(EVERY_VERSION);
            ThreadInfo thread = store.thread(THREAD_ID).orElseThrow();
            assertThat(thread.preview()).isEqualTo(PREVIEW);
            assertThat(thread.updatedAt()).isEqualTo(WRITTEN_AT);
        }
    }

    @Test
    void open_upgradedFileRecordsModelFailures_theTableVersion3Added() throws SQLException {
        Path file = dir.resolve("mnemo.sqlite");
        createAtVersion(file, "2");
        insertThreadAsVersion2Wrote(file);

        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            JobClaim claim = store.tryClaimStage1Job(THREAD_ID, "worker-1", WRITTEN_AT, Duration.ofHours(1), 8,
                    WRITTEN_AT);
            assertThat(claim.isClaimed()).isTrue();
            ModelFailure failure = new ModelFailure(ModelException.Reason.RATE_LIMITED, "slow down", WRITTEN_AT);
            assertThat(store.releaseStage1AfterModelFailure(THREAD_ID, claim.token(), failure,
                    Duration.ofMinutes(5), WRITTEN_AT)).isTrue();
            assertThat(store.status(WRITTEN_AT).lastModelFailure()).contains(failure);
        }
        try (SqliteMemoryStore reopened = SqliteMemoryStore.open(file)) {
            assertThat(appliedVersions(reopened)).containsExactlyElementsOf(EVERY_VERSION);
            assertThat(reopened.status(WRITTEN_AT).lastModelFailure()).isPresent();
        }
    }

    @Test // V7: what the last consolidation before the upgrade used counts as consolidated, time unknown
    void open_upgradedFileTreatsTheLastSelectionAsConsolidatedLongAgo_andKeepsTheLastSuccess() throws SQLException {
        Path file = dir.resolve("mnemo.sqlite");
        createAtVersion(file, "6");
        insertThreadAsVersion2Wrote(file);
        insertMemoryAsVersion3Wrote(file);
        insert(file, "UPDATE stage1_outputs SET selected_for_phase2 = 1, selected_for_phase2_source_updated_at ="
                + " source_updated_at WHERE thread_id = ?", THREAD_ID);
        insert(file, "INSERT INTO jobs (kind, job_key, status, finished_at, retry_remaining, input_watermark,"
                + " last_success_watermark) VALUES ('memory_consolidate_global', 'global', 'done', ?, 3, 0, 0)",
                WRITTEN_AT.getEpochSecond());

        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            assertThat(appliedVersions(store)).containsExactlyElementsOf(EVERY_VERSION);
            assertThat(store.firstConsolidated(THREAD_ID)).contains(java.time.Instant.EPOCH);
            assertThat(store.pendingForgets()).isEmpty();
            JobClaim claim = store.tryClaimPhase2JobNow("w", Duration.ofHours(1), WRITTEN_AT.plusSeconds(60));
            store.markPhase2Failed(claim.token(), "failed_agent", Duration.ofHours(1), WRITTEN_AT.plusSeconds(60));
            assertThat(store.status(WRITTEN_AT.plusSeconds(60)).lastPhase2Success())
                    .contains(java.time.Instant.ofEpochSecond(WRITTEN_AT.getEpochSecond()));
        }
    }

    @Test
    void open_upgradesANoteKeptAtSchemaVersion6_asHeldForApprovalAlone() throws SQLException {
        Path file = dir.resolve("mnemo.sqlite");
        createAtVersion(file, "6");
        insert(file, "INSERT INTO notes_awaiting_approval (id, filename, project_slug, content, thread_id, created_at)"
                + " VALUES (?, ?, NULL, ?, ?, ?)", "note-1", "2026-06-01T12-00-00-tabs.md", "tabs", "chat-1",
                WRITTEN_AT.getEpochSecond());

        try (SqliteMemoryStore store = SqliteMemoryStore.open(file)) {
            assertThat(appliedVersions(store)).containsExactlyElementsOf(EVERY_VERSION);
            assertThat(store.pendingNotes()).containsExactly(new PendingNote("note-1", "2026-06-01T12-00-00-tabs.md",
                    Optional.empty(), "tabs", Optional.of("chat-1"), WRITTEN_AT, false));
            assertThat(store.takePendingNotesOf("chat-1")).hasSize(1);
            assertThat(store.isNoteRejected("chat-1", "hash")).isFalse();
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

    /** The contract's thread row in the columns schemas 1–3 had. */
    private static void insertThreadAsVersion2Wrote(Path file) throws SQLException {
        insert(file, "INSERT INTO threads (id, rollout_path, created_at_ms, updated_at_ms, source, preview)"
                + " VALUES (?, ?, ?, ?, 'cli', ?)", THREAD_ID, "/rollouts/" + THREAD_ID + ".jsonl",
                WRITTEN_AT.toEpochMilli(), WRITTEN_AT.toEpochMilli(), PREVIEW);
    }

    /** The contract's memory row in the columns schemas 1–3 had (times in epoch seconds). */
    private static void insertMemoryAsVersion3Wrote(Path file) throws SQLException {
        insert(file, "INSERT INTO stage1_outputs (thread_id, source_updated_at, raw_memory, rollout_summary,"
                + " generated_at) VALUES (?, ?, ?, ?, ?)", THREAD_ID, WRITTEN_AT.getEpochSecond(), RAW_MEMORY,
                ROLLOUT_SUMMARY, WRITTEN_AT.getEpochSecond());
    }

    /** Runs one insert with plain JDBC, outside the store. */
    private static void insert(Path file, String sql, Object... values) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + file);
                PreparedStatement insert = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                insert.setObject(i + 1, values[i]);
            }
            insert.executeUpdate();
        }
    }

    private static List<String> appliedVersions(SqliteMemoryStore store) {
        return store.onConnection(connection -> Jdbc.query(connection,
                "SELECT version, success FROM mnemo_schema_history WHERE version IS NOT NULL ORDER BY installed_rank",
                row -> row.getString(1) + ":" + row.getInt(2)));
    }
}
