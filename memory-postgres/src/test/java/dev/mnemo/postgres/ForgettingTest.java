package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.testkit.TestClock;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deleting a thread leaves its text in no live row of any of Mnemo's tables; polluting one leaves it
 * only in the conversation's own record.
 */
class ForgettingTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static final String SCHEMA = "forgetting";
    private static PostgresBackend backend;

    @BeforeAll
    static void migrate() {
        backend = DB.backend(SCHEMA);
    }

    /** The tables of this test's schema (all tenants) whose live rows hold {@code text}. */
    private static List<String> tablesHolding(String text) throws SQLException {
        return DB.tablesHolding(SCHEMA, text);
    }

    private static MemoryEngine consolidatedTwoThreads(Path temp, TestClock clock, String tenant) {
        MemoryEngine engine = Fleet.engine(backend, tenant, temp.resolve(tenant), clock);
        for (String[] thread : new String[][] {{"keep", "FACT: keep me"}, {"secret", "FACT: secret zebra " + tenant}}) {
            try (RecordedSession session = engine.sessions().start(SessionContext.root(thread[0]))) {
                session.userMessage(thread[1]);
            }
        }
        clock.advance(Duration.ofHours(2));
        engine.admin().runPhase1("none");
        assertThat(engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
        return engine;
    }

    @Test
    void deletingAThread_leavesItsTextInNoLiveRow(@TempDir Path temp) throws SQLException {
        TestClock clock = new TestClock(Fleet.START);
        try (MemoryEngine engine = consolidatedTwoThreads(temp, clock, "deleter")) {
            assertThat(tablesHolding("secret zebra deleter")).contains("tenant_stage1_outputs",
                    "tenant_rollout_lines", "tenant_workspace_files", "tenant_consolidation_files");

            engine.threads().delete("secret");
            clock.advance(Duration.ofHours(7)); // past the consolidation cooldown
            assertThat(engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);

            assertThat(tablesHolding("secret zebra deleter")).isEmpty();
            assertThat(tablesHolding("keep me")).isNotEmpty();
            assertThat(engine.buildDeveloperInstructions()).contains("keep me").doesNotContain("zebra");
        }
    }

    @Test
    void deletingAThreadOnOneServer_isGoneFromTheOtherServersVeryNextInstructions_andFromEveryRow(@TempDir Path temp)
            throws SQLException {
        TestClock clock = new TestClock(Fleet.START);
        try (MemoryEngine serverA = consolidatedTwoThreads(temp, clock, "fleet-forget");
                MemoryEngine serverB = Fleet.engine(backend, "fleet-forget", temp.resolve("server-b"), clock)) {
            assertThat(serverB.buildToolInstructions()).contains("secret zebra fleet-forget");

            serverA.threads().delete("secret"); // no clock advance, no consolidation run

            // The only consolidation used it: it is dropped, and the summary with it until the re-run.
            assertThat(serverB.buildToolInstructions()).doesNotContain("zebra");
            assertThat(serverA.buildToolInstructions()).doesNotContain("zebra");
            assertThat(tablesHolding("secret zebra fleet-forget")).isEmpty();
            assertThat(serverB.admin().history()).isEmpty();
            assertThat(serverA.admin().runPhase2().outcome()).as("due at once, past the cooldown")
                    .isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(serverB.buildToolInstructions()).contains("keep me").doesNotContain("zebra");
        }
    }

    @Test
    void pollutingAThread_leavesItsTextOnlyInItsOwnConversationRecord(@TempDir Path temp) throws SQLException {
        TestClock clock = new TestClock(Fleet.START);
        try (MemoryEngine engine = consolidatedTwoThreads(temp, clock, "polluter")) {
            engine.threads().markPolluted("secret");
            clock.advance(Duration.ofHours(7));
            assertThat(engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);

            // Polluted means "learn nothing from it", not "erase the conversation": as in single-home mode,
            // its rollout, thread row (preview) and message history lines stay; every memory, file and
            // consolidation history entry is gone.
            assertThat(tablesHolding("secret zebra polluter")).containsExactlyInAnyOrder("tenant_threads",
                    "tenant_rollout_lines", "tenant_message_history");
            assertThat(engine.buildDeveloperInstructions()).doesNotContain("zebra");
        }
    }
}
