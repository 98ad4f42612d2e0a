package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.PendingNote;
import dev.mnemo.testkit.contract.ApprovalUpgradeContract;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A schema migrated by an earlier Mnemo, holding a tenant's thread and memory, opened by this one:
 * the migrations still missing run once, and what the schema held is kept and usable. The old
 * schema is made by Flyway itself from this module's migrations, stopped at version 5 (the last
 * before projects, and so before approval, version 7), so the test follows every migration added
 * later.
 */
class SchemaUpgradeTest extends ApprovalUpgradeContract {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    /** Each test's schema is its own: {@code before_projects_<n>}. */
    private static final AtomicInteger SCHEMAS = new AtomicInteger();
    private static final String TENANT = "tenant-of-schema-5";
    /** Every migration applied, successfully, once: what an upgraded schema's history must say. */
    private static final List<String> EVERY_VERSION = List.of("1:true", "2:true", "3:true", "4:true", "5:true",
            "6:true", "7:true", "8:true", "9:true", "10:true", "11:true", "12:true", "13:true");

    private PostgresBackend backend;

    @Override
    protected MemoryStore openUpgraded(Path dir) throws SQLException {
        String schema = "before_projects_" + SCHEMAS.incrementAndGet();
        migrate(schema, "5");
        insertAsVersion5Wrote(schema);
        backend = DB.backend(schema);
        assertThat(appliedVersions(schema)).containsExactlyElementsOf(EVERY_VERSION);
        return backend.store(TENANT);
    }

    @AfterEach
    void closeBackend() {
        if (backend != null) {
            backend.close();
        }
    }

    @Test
    void aNoteKeptAtSchema9_readsAsHeldForApprovalAlone_andGoesWithItsConversation() throws SQLException {
        String schema = "before_note_sources_" + SCHEMAS.incrementAndGet();
        migrate(schema, "9");
        insert("INSERT INTO " + schema + ".tenant_notes_awaiting_approval (tenant_id, id, filename, project_slug,"
                + " content, thread_id, created_at) VALUES (?, ?, ?, NULL, ?, ?, ?)", TENANT, "note-1",
                "2026-06-01T12-00-00-tabs.md", "tabs", "chat-1", WRITTEN_AT.getEpochSecond());
        backend = DB.backend(schema);
        assertThat(appliedVersions(schema)).containsExactlyElementsOf(EVERY_VERSION);

        MemoryStore store = backend.store(TENANT);
        assertThat(store.pendingNotes()).containsExactly(new PendingNote("note-1", "2026-06-01T12-00-00-tabs.md",
                Optional.empty(), "tabs", Optional.of("chat-1"), WRITTEN_AT, false));
        assertThat(store.takePendingNotesOf("chat-1")).hasSize(1);
        assertThat(store.pendingNotes()).isEmpty();
    }

    /** The schema as a Mnemo whose newest migration was {@code version} left it. */
    private static void migrate(String schema, String version) {
        Flyway.configure(PostgresBackend.class.getClassLoader())
                .dataSource(DB.dataSource())
                .schemas(schema)
                .defaultSchema(schema)
                .table("mnemo_schema_history")
                .locations("classpath:dev/mnemo/postgres/migration")
                .target(version)
                .load()
                .migrate();
    }

    /** The contract's thread and memory in the columns schemas 1–5 had, written to the tables. */
    private static void insertAsVersion5Wrote(String schema) throws SQLException {
        insert("INSERT INTO " + schema + ".tenant_threads (tenant_id, id, rollout_path, created_at_ms,"
                + " updated_at_ms, source, preview) VALUES (?, ?, ?, ?, ?, 'cli', ?)", TENANT, THREAD_ID,
                "/rollouts/" + THREAD_ID + ".jsonl", WRITTEN_AT.toEpochMilli(), WRITTEN_AT.toEpochMilli(), PREVIEW);
        insert("INSERT INTO " + schema + ".tenant_stage1_outputs (tenant_id, thread_id, source_updated_at,"
                + " raw_memory, rollout_summary, generated_at) VALUES (?, ?, ?, ?, ?, ?)", TENANT, THREAD_ID,
                WRITTEN_AT.getEpochSecond(), RAW_MEMORY, ROLLOUT_SUMMARY, WRITTEN_AT.getEpochSecond());
    }

    /** Runs one insert with plain JDBC, outside the store. */
    private static void insert(String sql, Object... values) throws SQLException {
        try (Connection connection = DB.dataSource().getConnection();
                PreparedStatement insert = connection.prepareStatement(sql)) {
            for (int i = 0; i < values.length; i++) {
                insert.setObject(i + 1, values[i]);
            }
            insert.executeUpdate();
        }
    }

    private static List<String> appliedVersions(String schema) throws SQLException {
        List<String> applied = new ArrayList<>();
        try (Connection connection = DB.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT version, success FROM " + schema
                        + ".mnemo_schema_history WHERE version IS NOT NULL ORDER BY installed_rank")) {
            while (rows.next()) {
                applied.add(rows.getString(1) + ":" + rows.getBoolean(2));
            }
        }
        return applied;
    }
}
