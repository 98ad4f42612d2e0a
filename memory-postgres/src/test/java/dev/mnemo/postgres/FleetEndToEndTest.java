package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.testkit.TestClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Two application servers (two engines, two cache folders) sharing one database. */
class FleetEndToEndTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static PostgresBackend backend;

    @BeforeAll
    static void migrate() {
        backend = DB.backend("fleet");
    }

    @Test
    void sessionRecordedOnA_isExtractedAndConsolidatedOnB_andAsNextInstructionsCarryBsSummary(@TempDir Path temp)
            throws Exception {
        TestClock clock = new TestClock(Fleet.START);
        try (MemoryEngine a = Fleet.engine(backend, "user-1", temp.resolve("server-a"), clock);
                MemoryEngine b = Fleet.engine(backend, "user-1", temp.resolve("server-b"), clock)) {
            try (RecordedSession session = a.sessions().start(SessionContext.root("conversation-1"))) {
                session.userMessage("Remember this. FACT: user prefers tabs");
                session.assistantMessage("Noted.");
            }
            assertThat(a.buildDeveloperInstructions()).isEmpty();
            clock.advance(Duration.ofHours(2));

            Phase1Report extracted = b.admin().runPhase1("no-current-thread");
            assertThat(extracted.claimed()).isEqualTo(1);
            assertThat(extracted.succeeded()).isEqualTo(1);
            assertThat(b.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);

            assertThat(a.buildDeveloperInstructions()).contains("FACT: user prefers tabs");
            assertThat(Files.readString(temp.resolve("server-a/memories/memory_summary.md")))
                    .contains("FACT: user prefers tabs");
            assertThat(a.admin().history()).hasSize(1);
            assertThat(Files.list(temp.resolve("server-a")).map(p -> p.getFileName().toString()))
                    .doesNotContain("sessions");
        }
    }

    @Test
    void memoryTools_onAnotherServer_readTheCommittedFiles(@TempDir Path temp) {
        TestClock clock = new TestClock(Fleet.START);
        try (MemoryEngine a = Fleet.engine(backend, "user-2", temp.resolve("server-a"), clock);
                MemoryEngine b = Fleet.engine(backend, "user-2", temp.resolve("server-b"), clock)) {
            try (RecordedSession session = b.sessions().start(SessionContext.root("conversation-2"))) {
                session.userMessage("FACT: build with maven");
            }
            clock.advance(Duration.ofHours(2));
            b.admin().runPhase1("none");
            b.admin().runPhase2();

            String read = a.tools().call("memories_read", "{\"path\":\"MEMORY.md\"}");

            assertThat(read).contains("FACT: build with maven");
        }
    }
}
