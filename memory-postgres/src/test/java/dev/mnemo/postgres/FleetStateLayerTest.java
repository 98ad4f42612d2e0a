package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.GoalStatus;
import dev.mnemo.HistoryEntry;
import dev.mnemo.MemoryEngine;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.StartupReport;
import dev.mnemo.ThreadGoal;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.spi.ThreadLogQuery;
import dev.mnemo.testkit.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The state layer of a fleet-mode engine (issue 31): the message history, thread logs and goals of
 * a tenant engine from {@link PostgresBackend#engineBuilder} are kept in PostgreSQL, seen by every
 * server, never in the engine's local cache; a thread's delete removes its part of each, a clear of
 * the memory none.
 */
class FleetStateLayerTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static final String SCHEMA = "state_layer";
    private static final String SECRET = "sk-abcdefghijklmnopqrstuvwxyz123456";
    private static PostgresBackend backend;

    @BeforeAll
    static void migrate() {
        backend = DB.backend(SCHEMA);
    }

    private static void record(MemoryEngine engine, String threadId, String userMessage) {
        try (RecordedSession session = engine.sessions().start(SessionContext.root(threadId))) {
            session.userMessage(userMessage);
            session.assistantMessage("Noted.");
        }
    }

    @Test
    void historyLogsAndGoals_liveInPostgres_areSharedByServers_andAThreadsDeleteRemovesItsOwn(@TempDir Path temp)
            throws Exception {
        TestClock clock = new TestClock(Fleet.START);
        try (MemoryEngine a = Fleet.engine(backend, "state-user", temp.resolve("server-a"), clock);
                MemoryEngine b = Fleet.engine(backend, "state-user", temp.resolve("server-b"), clock)) {
            // 1. The message history: the user's words, redacted, in the tenant's table.
            record(a, "conv-1", "FACT: deploys on fridays, my key is " + SECRET);
            record(a, "conv-2", "FACT: tests before merging");
            assertThat(a.messageHistory().recent(10)).extracting(HistoryEntry::sessionId, HistoryEntry::text)
                    .containsExactly(
                            org.assertj.core.groups.Tuple.tuple("conv-1",
                                    "FACT: deploys on fridays, my key is [REDACTED_SECRET]"),
                            org.assertj.core.groups.Tuple.tuple("conv-2", "FACT: tests before merging"));
            assertThat(b.messageHistory().recent(10)).as("another server reads the same history")
                    .isEqualTo(a.messageHistory().recent(10));
            assertThat(b.messageHistory().search("FRIDAYS", 10)).singleElement()
                    .extracting(HistoryEntry::sessionId).isEqualTo("conv-1");
            assertThat(DB.tablesHolding(SCHEMA, SECRET)).doesNotContain("tenant_message_history");
            assertThat(DB.tablesHolding(SCHEMA, "deploys on fridays")).contains("tenant_message_history");
            assertThat(temp.resolve("server-a/history.jsonl")).doesNotExist();

            // 2. Thread logs: a startup run's Phase 1 entries, flushed to the tenant's table.
            clock.advance(Duration.ofHours(2));
            StartupReport report = a.startStartupTask(SessionContext.root("conv-3")).completion()
                    .get(60, TimeUnit.SECONDS);
            assertThat(report.phase1().succeeded()).isEqualTo(2);
            a.threadLogs().flush();
            assertThat(a.threadLogs().query("conv-1", 50)).extracting(ThreadLogEntry::target).contains("mnemo::phase1");
            assertThat(b.threadLogs().query("conv-1", 50)).as("another server reads the same logs")
                    .isEqualTo(a.threadLogs().query("conv-1", 50));
            assertThat(backend.store("state-user").threadLogs().orElseThrow()
                    .query(ThreadLogQuery.ofThread("conv-2", 50))).isNotEmpty();
            assertThat(temp.resolve("server-a/logs.sqlite")).doesNotExist();

            // 3. Goals: set on one server, charged and read on the other.
            ThreadGoal goal = a.goals().set("conv-1", "ship the release train", OptionalLong.of(500));
            assertThat(a.goals().get("conv-1")).contains(goal);
            assertThat(b.goals().get("conv-1")).contains(goal);
            assertThat(b.goals().updateStatus("conv-1", goal.goalId(), GoalStatus.PAUSED)).isTrue();
            assertThat(a.goals().get("conv-1").orElseThrow().status()).isEqualTo(GoalStatus.PAUSED);
            a.goals().set("conv-2", "keep the tests green", OptionalLong.empty());

            // 4. A thread's delete removes its history lines, goal and logs; the other thread's stay.
            a.threads().delete("conv-1");
            a.threadLogs().flush();
            assertThat(b.messageHistory().recent(10)).extracting(HistoryEntry::sessionId).containsExactly("conv-2");
            assertThat(b.goals().get("conv-1")).isEmpty();
            assertThat(b.goals().get("conv-2")).isPresent();
            assertThat(b.threadLogs().query("conv-1", 50)).isEmpty();
            assertThat(b.threadLogs().query("conv-2", 50)).isNotEmpty();
            assertThat(DB.tablesHolding(SCHEMA, "deploys on fridays")).doesNotContain("tenant_message_history",
                    "tenant_thread_logs", "tenant_rollout_lines", "tenant_stage1_outputs");
            assertThat(DB.tablesHolding(SCHEMA, "ship the release train")).isEmpty();
            assertThat(DB.tablesHolding(SCHEMA, "tests before merging")).contains("tenant_message_history");

            // 5. Clearing the memory forgets memories, not conversations: as in a home, whose clear
            // leaves history.jsonl, goals.sqlite and logs.sqlite, the state layer stays.
            b.admin().clear();
            assertThat(a.messageHistory().recent(10)).extracting(HistoryEntry::sessionId).containsExactly("conv-2");
            assertThat(a.goals().get("conv-2")).isPresent();
            assertThat(a.threadLogs().query("conv-2", 50)).isNotEmpty();
        }
    }
}
