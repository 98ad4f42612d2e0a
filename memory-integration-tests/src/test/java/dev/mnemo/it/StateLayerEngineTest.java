package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.GoalStatus;
import dev.mnemo.HistoryConfig;
import dev.mnemo.HistoryEntry;
import dev.mnemo.MemoryEngine;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.ThreadGoal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The engine's message history and goals: what recording writes, and what deleting a thread removes. */
class StateLayerEngineTest {

    private static final String SECRET = "sk-abcdefghijklmnopqrstuvwxyz123456";

    @TempDir
    Path home;

    private MemoryEngine engine() {
        return MemoryEngine.builder().home(home).config(TestHomes.config()).build();
    }

    @Test
    void anEngineGivenAnExecutor_writesTheHistoryOnTheCallersThread_startingNoWriterThreadOfItsOwn() throws Exception {
        HeldExecutor given = HeldExecutor.holding();
        try (MemoryEngine engine = MemoryEngine.builder().home(home).config(TestHomes.config()).executor(given).build();
                RecordedSession session = engine.sessions().start(SessionContext.root("thread-1"))) {
            session.userMessage("ship it on friday");

            assertThat(home.resolve("history.jsonl")).as("written before the message call returned, before any read")
                    .content().contains("ship it on friday");
            assertThat(given.held()).as("nothing submitted to the given executor for it").isZero();
        }
    }


    @Test
    void recordedUserMessages_reachTheHistoryRedacted_butNotHarnessContextOrOtherRoles() {
        try (MemoryEngine engine = engine();
                RecordedSession session = engine.sessions().start(SessionContext.root("thread-1"))) {
            session.userMessage("<environment_context>\n  <cwd>/srv</cwd>\n</environment_context>");
            session.userMessage("deploy with key " + SECRET);
            session.assistantMessage("done");
            session.developerMessage("be brief");

            assertThat(engine.messageHistory().recent(10)).extracting(HistoryEntry::sessionId, HistoryEntry::text)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("thread-1",
                            "deploy with key [REDACTED_SECRET]"));
        }
        assertThat(home.resolve("history.jsonl")).content().doesNotContain(SECRET);
    }

    @Test
    void ephemeralSessions_leaveNoHistory() {
        try (MemoryEngine engine = engine();
                RecordedSession session = engine.sessions().start(new SessionContext("eph", "cli", true, false,
                        Optional.empty()))) {
            session.userMessage("forget me");
            assertThat(engine.messageHistory().recent(10)).isEmpty();
        }
    }

    @Test
    void persistenceNoneInConfigToml_writesNoHistory() throws Exception {
        Files.createDirectories(home);
        Files.writeString(home.resolve("config.toml"), "[history]\npersistence = \"none\"\n");
        try (MemoryEngine engine = engine();
                RecordedSession session = engine.sessions().start(SessionContext.root("t"))) {
            session.userMessage("not kept");
        }
        assertThat(home.resolve("history.jsonl")).doesNotExist();
    }

    @Test
    void builderHistoryConfig_trimsAtMaxBytes() {
        try (MemoryEngine engine = MemoryEngine.builder().home(home).config(TestHomes.config())
                .historyConfig(HistoryConfig.defaults().withMaxBytes(200)).build();
                RecordedSession session = engine.sessions().start(SessionContext.root("t"))) {
            for (int i = 0; i < 20; i++) {
                session.userMessage("message number " + i);
            }
            assertThat(home.resolve("history.jsonl").toFile().length()).isLessThanOrEqualTo(200);
            assertThat(engine.messageHistory().recent(1).get(0).text()).isEqualTo("message number 19");
        }
    }

    @Test
    void deletingAThread_removesItsHistoryLinesAndItsGoal() {
        try (MemoryEngine engine = engine()) {
            try (RecordedSession kept = engine.sessions().start(SessionContext.root("kept"));
                    RecordedSession dropped = engine.sessions().start(SessionContext.root("dropped"))) {
                kept.userMessage("stay");
                dropped.userMessage("go away");
                kept.userMessage("stay too");
            }
            engine.goals().set("dropped", "finish the import", OptionalLong.empty());
            engine.goals().set("kept", "keep going", OptionalLong.empty());

            engine.threads().delete("dropped");

            assertThat(engine.messageHistory().recent(10)).extracting(HistoryEntry::text)
                    .containsExactly("stay", "stay too");
            assertThat(engine.goals().get("dropped")).isEmpty();
            assertThat(engine.goals().get("kept")).isPresent();
        }
    }

    @Test
    void goals_setThroughTheEngine_persistInGoalsSqlite() {
        ThreadGoal goal;
        try (MemoryEngine engine = engine()) {
            goal = engine.goals().set("t", "ship the release", OptionalLong.of(50_000));
            assertThat(engine.goals().updateStatus("t", "stale-id", GoalStatus.COMPLETE)).isFalse();
            assertThat(engine.goals().updateStatus("t", goal.goalId(), GoalStatus.COMPLETE)).isTrue();
        }
        assertThat(home.resolve("goals.sqlite")).exists();
        try (MemoryEngine engine = engine()) {
            assertThat(engine.goals().get("t")).hasValueSatisfying(g -> {
                assertThat(g.goalId()).isEqualTo(goal.goalId());
                assertThat(g.status()).isEqualTo(GoalStatus.COMPLETE);
                assertThat(g.tokenBudget()).hasValue(50_000);
            });
        }
    }
}
