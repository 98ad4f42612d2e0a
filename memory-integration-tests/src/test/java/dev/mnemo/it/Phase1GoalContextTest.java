package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.GoalStatus;
import dev.mnemo.ThreadGoal;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Beyond Codex: Phase 1's input carries the thread's goal and status, redacted. */
class Phase1GoalContextTest {

    @TempDir
    Path home;

    @Test
    void extractionInput_carriesTheThreadsCompletedGoal_redacted() {
        try (Pipeline p = new Pipeline(home)) {
            String id = p.recordSession("set up the build", "fix the flaky test");
            ThreadGoal goal = p.engine.goals().set(id, "green CI using token sk-abcdefghijklmnopqrstuvwxyz123456",
                    OptionalLong.empty());
            p.engine.goals().updateStatus(id, goal.goalId(), GoalStatus.COMPLETE);
            p.idle();

            p.engine.admin().runPhase1("current-thread");

            String input = ScriptedModel.extractionInput(p.model.extractionRequests().get(0));
            assertThat(input).contains("- thread_goal: \"green CI using token [REDACTED_SECRET]\" (status: complete)")
                    .doesNotContain("sk-abcdefghijklmnopqrstuvwxyz123456");
            assertThat(p.model.extractionRequests().get(0).instructions()).contains("thread_goal",
                    "strong evidence");
        }
    }

    @Test
    void extractionInput_saysNone_withoutAGoal() {
        try (Pipeline p = new Pipeline(home)) {
            p.recordSession("set up the build");
            p.idle();
            p.engine.admin().runPhase1("current-thread");
            assertThat(ScriptedModel.extractionInput(p.model.extractionRequests().get(0)))
                    .contains("- thread_goal: none");
        }
    }
}
