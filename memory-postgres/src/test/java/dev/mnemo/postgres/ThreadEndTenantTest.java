package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.Stage1Claim;
import dev.mnemo.spi.Stage1ClaimParams;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Ending a conversation in PostgreSQL: the end mark is the tenant's (the same thread id in another
 * tenant is not ended), the fleet's due-work query sees an ended conversation as due, and the claim
 * scan stays on its index.
 */
class ThreadEndTenantTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    private static final Instant RECENT = NOW.minus(Duration.ofHours(1));
    private static final Stage1ClaimParams CLAIM = new Stage1ClaimParams("current", "worker", 5_000, 8, 30, 12,
            List.of("cli"), Duration.ofHours(1));

    private static ThreadInfo thread(String id, Instant updatedAt) {
        return ThreadInfo.builder(id).rolloutPath(Path.of("/rollouts/" + id + ".jsonl"))
                .createdAt(updatedAt.minus(Duration.ofHours(1))).updatedAt(updatedAt).source("cli")
                .preview("talk in " + id).build();
    }

    @Test
    void anEndInOneTenant_neverEndsAnotherTenantsThreadWithTheSameId() {
        try (PostgresBackend backend = DB.backend("ends");
                MemoryStore alice = backend.store("alice");
                MemoryStore bob = backend.store("bob")) {
            alice.upsertThread(thread("chat-1", RECENT));
            bob.upsertThread(thread("chat-1", RECENT));
            bob.upsertThread(thread("only-bob", RECENT));

            assertThat(bob.markThreadEnded("chat-1", RECENT)).isTrue();
            assertThat(alice.markThreadEnded("only-bob", RECENT)).as("not alice's thread").isFalse();

            assertThat(alice.thread("chat-1").orElseThrow().endedAt()).isEmpty();
            assertThat(bob.thread("chat-1").orElseThrow().endedAt()).contains(RECENT);
            assertThat(bob.thread("only-bob").orElseThrow().endedAt()).isEmpty();
            assertThat(backend.tenantsWithDueExtraction(NOW, Duration.ofHours(12), Duration.ofDays(30),
                    List.of("cli"), 10)).as("bob's ended conversation is due; nothing of alice's is").containsExactly("bob");
            assertThat(alice.claimStage1Jobs(CLAIM, NOW)).isEmpty();
            assertThat(bob.claimStage1Jobs(CLAIM, NOW)).extracting(Stage1Claim::thread).extracting(ThreadInfo::id)
                    .containsExactly("chat-1");
        }
    }

    @Test
    void claimScan_staysOnTheTenantModeAndUpdateIndex_withoutASort() throws SQLException {
        try (PostgresBackend backend = DB.backend("plan")) {
            List<String> plan;
            try (Connection connection = DB.dataSource().getConnection()) {
                connection.setAutoCommit(false);
                try (Statement statement = connection.createStatement()) {
                    statement.execute("INSERT INTO plan.tenant_threads (tenant_id, id, rollout_path, created_at_ms,"
                            + " updated_at_ms, source, preview, ended_at_ms)"
                            + " SELECT 'tenant-' || (n % 2), 'thread-' || n, '/r/' || n, " + NOW.toEpochMilli()
                            + " - n::bigint * 60000, " + NOW.toEpochMilli() + " - n::bigint * 60000, 'cli', 'hello',"
                            + " CASE WHEN n % 5 = 0 THEN " + NOW.toEpochMilli() + " END"
                            + " FROM generate_series(1, 40000) AS n");
                    statement.execute("ANALYZE plan.tenant_threads");
                    statement.execute("SELECT set_config('mnemo.tenant', 'tenant-1', true),"
                            + " set_config('search_path', 'plan', true)");
                }
                plan = explain(connection, PostgresMemoryStore.SQL.get("thread.claimCandidates"));
                connection.rollback();
            }

            String shown = String.join("\n", plan);
            assertThat(plan).as(shown).anySatisfy(line -> assertThat(line).contains("Index Scan")
                    .contains("idx_threads_memory_mode_updated_at_ms"));
            assertThat(plan).as(shown).noneSatisfy(line -> assertThat(line).containsAnyOf("Seq Scan", "Sort"));
        }
    }

    private static List<String> explain(Connection connection, String sql) throws SQLException {
        List<String> plan = new ArrayList<>();
        try (PreparedStatement explain = connection.prepareStatement("EXPLAIN " + sql)) {
            explain.setArray(1, connection.createArrayOf("text", CLAIM.allowedSources().toArray()));
            explain.setString(2, CLAIM.currentThreadId());
            explain.setLong(3, CLAIM.ageCutoff(NOW).toEpochMilli());
            explain.setLong(4, CLAIM.idleCutoff(NOW).toEpochMilli());
            explain.setInt(5, CLAIM.scanLimit());
            try (ResultSet rows = explain.executeQuery()) {
                while (rows.next()) {
                    plan.add(rows.getString(1));
                }
            }
        }
        return plan;
    }
}
