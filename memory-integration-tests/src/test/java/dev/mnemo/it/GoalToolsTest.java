package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.GoalStatus;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemorySession;
import dev.mnemo.SessionContext;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A session's goal accessors, and the optional goal tools offered beside the memory tools. */
class GoalToolsTest {

    @TempDir
    Path home;

    private MemoryEngine engine(boolean goalTools) {
        return MemoryEngine.builder().home(home).config(TestHomes.config()).goalTools(goalTools).build();
    }

    @Test
    void goalTools_areOfferedOnlyWhenTheApplicationEnablesThem() {
        try (MemoryEngine engine = engine(false); MemorySession session = engine.openSession(SessionContext.root("t"))) {
            assertThat(session.toolSpecs()).extracting(ToolSpec::name)
                    .doesNotContain("get_goal", "create_goal", "update_goal");
        }
        try (MemoryEngine engine = engine(true); MemorySession session = engine.openSession(SessionContext.root("t"))) {
            assertThat(session.toolSpecs()).extracting(ToolSpec::name)
                    .contains("get_goal", "create_goal", "update_goal");
        }
    }

    @Test
    void goalTools_areHiddenFromEphemeralSessions_butOfferedToSpawnedSubAgents() {
        SessionContext ephemeral = new SessionContext("e", "cli", true, false, Optional.empty());
        try (MemoryEngine engine = engine(true); MemorySession throwAway = engine.openSession(ephemeral);
                MemorySession subAgent = engine.openSession(SessionContext.root("child").spawnedBy("parent"))) {
            assertThat(throwAway.toolSpecs()).extracting(ToolSpec::name).doesNotContain("get_goal");
            assertThat(throwAway.callTool("c", "get_goal", "{}")).contains("\"error\"");
            assertThat(subAgent.toolSpecs()).extracting(ToolSpec::name).contains("get_goal", "create_goal");
        }
    }

    @Test
    void chargeGoal_countsUncachedInputAndOutput_andCrossingTheBudgetLimitsTheGoal() {
        try (MemoryEngine engine = engine(false); MemorySession session = engine.openSession(SessionContext.root("t"))) {
            assertThat(session.chargeGoal(new TokenUsage(100, 0, 50, 0), Duration.ofSeconds(3))).isEmpty();
            session.setGoal("ship the release", OptionalLong.of(1_000));

            assertThat(session.chargeGoal(new TokenUsage(600, 200, 100, 40), Duration.ofSeconds(3)))
                    .hasValueSatisfying(goal -> {
                        assertThat(goal.tokensUsed()).isEqualTo(500); // 600 - 200 cached + 100 out
                        assertThat(goal.timeUsed()).isEqualTo(Duration.ofSeconds(3));
                        assertThat(goal.status()).isEqualTo(GoalStatus.ACTIVE);
                    });
            assertThat(session.chargeGoal(new TokenUsage(600, 0, 0, 0), Duration.ofSeconds(2)))
                    .hasValueSatisfying(goal -> assertThat(goal.status()).isEqualTo(GoalStatus.BUDGET_LIMITED));

            engine.goals().updateStatus("t", session.goal().orElseThrow().goalId(), GoalStatus.COMPLETE);
            assertThat(session.chargeGoal(new TokenUsage(10, 0, 10, 0), Duration.ZERO)).isEmpty(); // done: not charged
            assertThat(session.goal().orElseThrow().tokensUsed()).isEqualTo(1_100);
        }
    }

    @Test
    void createGoal_refusesAnUnfinishedGoal_andUpdateGoalCompletesIt() {
        try (MemoryEngine engine = engine(true); MemorySession session = engine.openSession(SessionContext.root("t"))) {
            assertThat(session.callTool("c0", "get_goal", "{}")).isEqualTo("{\"goal\":null}");
            assertThat(session.callTool("c1", "create_goal", "{\"objective\":\"migrate the schema\",\"token_budget\":500}"))
                    .contains("\"objective\":\"migrate the schema\"", "\"status\":\"active\"", "\"tokens_remaining\":500");
            assertThat(session.callTool("c2", "create_goal", "{\"objective\":\"something else\"}"))
                    .contains("\"error\"", "unfinished goal");
            assertThat(session.callTool("c3", "update_goal", "{\"status\":\"paused\"}")).contains("\"error\"");
            assertThat(session.callTool("c4", "update_goal", "{\"status\":\"complete\"}"))
                    .contains("\"status\":\"complete\"");
            assertThat(session.goal()).hasValueSatisfying(g -> assertThat(g.status()).isEqualTo(GoalStatus.COMPLETE));
            assertThat(session.callTool("c5", "create_goal", "{\"objective\":\"next one\",\"token_budget\":0}"))
                    .contains("token_budget must be a positive integer");
            assertThat(session.callTool("c6", "create_goal", "{\"objective\":\"next one\"}"))
                    .contains("\"status\":\"active\"");
        }
    }

    @Test
    void sessionSetGoal_replacesTheGoalWithANewId() {
        try (MemoryEngine engine = engine(false); MemorySession session = engine.openSession(SessionContext.root("t"))) {
            var first = session.setGoal("write the docs", OptionalLong.empty());
            var second = session.setGoal("write better docs", OptionalLong.of(1_000));
            assertThat(second.goalId()).isNotEqualTo(first.goalId());
            assertThat(session.goal()).contains(second);
            assertThat(engine.goals().updateStatus("t", first.goalId(), GoalStatus.COMPLETE)).isFalse();
        }
    }
}
