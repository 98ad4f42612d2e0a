package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.GoalStatus;
import dev.mnemo.ThreadGoal;
import dev.mnemo.spi.GoalRules;
import dev.mnemo.spi.GoalStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link GoalStore} must do: Codex's goal tests ({@code state/src/runtime/goals.rs}) ported
 * (a replaced goal's version is ignored, concurrent usage deltas add up, a budget-limited goal keeps
 * its status when paused or blocked, deleting a thread deletes its goal), on the statuses
 * {@link GoalRules} decides. A store's test extends it and opens an empty store.
 */
public abstract class GoalStoreContract {

    /** The store under test, opened before each test. */
    protected GoalStore goals;

    /**
     * An empty goal store.
     *
     * @return a store holding no goal
     * @throws Exception if the store cannot be opened
     */
    protected abstract GoalStore openGoals() throws Exception;

    /**
     * Releases what {@link #openGoals} opened; by default nothing.
     *
     * @throws Exception if releasing fails; the test then fails
     */
    protected void closeGoals() throws Exception {
    }

    @BeforeEach
    void openGoalStore() throws Exception {
        goals = openGoals();
    }

    @AfterEach
    void closeGoalStore() throws Exception {
        closeGoals();
    }

    @Test
    void set_createsAnActiveGoal_andReplacingItRegeneratesTheGoalIdAndResetsUsage() {
        ThreadGoal first = goals.set("t", "write the parser", OptionalLong.of(1_000));
        assertThat(first.status()).isEqualTo(GoalStatus.ACTIVE);
        assertThat(goals.get("t")).contains(first);
        assertThat(goals.accountUsage("t", first.goalId(), 300, Duration.ofSeconds(12))).isTrue();

        ThreadGoal second = goals.set("t", "write the printer", OptionalLong.empty());
        assertThat(second.goalId()).isNotEqualTo(first.goalId());
        assertThat(goals.get("t")).contains(new ThreadGoal("t", second.goalId(), "write the printer", GoalStatus.ACTIVE,
                OptionalLong.empty(), 0, Duration.ZERO));
    }

    @Test
    void get_ofAThreadWithNoGoal_isEmpty_andGoalsAreKeptPerThread() {
        assertThat(goals.get("nobody")).isEmpty();
        ThreadGoal a = goals.set("a", "goal a", OptionalLong.empty());
        ThreadGoal b = goals.set("b", "goal b", OptionalLong.of(7));
        assertThat(goals.get("a")).contains(a);
        assertThat(goals.get("b")).contains(b);
    }

    @Test
    void updateStatus_ignoresAReplacedGoalVersion() {
        ThreadGoal old = goals.set("t", "one", OptionalLong.empty());
        ThreadGoal current = goals.set("t", "two", OptionalLong.empty());
        assertThat(goals.updateStatus("t", old.goalId(), GoalStatus.COMPLETE)).isFalse();
        assertThat(goals.get("t").orElseThrow().status()).isEqualTo(GoalStatus.ACTIVE);
        assertThat(goals.updateStatus("t", current.goalId(), GoalStatus.COMPLETE)).isTrue();
        assertThat(goals.get("t").orElseThrow().status()).isEqualTo(GoalStatus.COMPLETE);
        assertThat(goals.updateStatus("missing", current.goalId(), GoalStatus.PAUSED)).isFalse();
    }

    @Test
    void accountUsage_ignoresAReplacedGoalVersion() {
        ThreadGoal old = goals.set("t", "one", OptionalLong.empty());
        goals.set("t", "two", OptionalLong.empty());
        assertThat(goals.accountUsage("t", old.goalId(), 50, Duration.ofSeconds(3))).isFalse();
        assertThat(goals.get("t").orElseThrow().tokensUsed()).isZero();
        assertThat(goals.accountUsage("missing", old.goalId(), 50, Duration.ZERO)).isFalse();
    }

    @Test
    void aBudgetOfZero_isLimitedAtOnce() {
        assertThat(goals.set("t", "free", OptionalLong.of(0)).status()).isEqualTo(GoalStatus.BUDGET_LIMITED);
        assertThat(goals.get("t").orElseThrow().status()).isEqualTo(GoalStatus.BUDGET_LIMITED);
    }

    @Test
    void pausingOrBlockingABudgetLimitedGoal_preservesItsStatus() {
        ThreadGoal goal = goals.set("t", "limited", OptionalLong.of(10));
        assertThat(goals.accountUsage("t", goal.goalId(), 10, Duration.ZERO)).isTrue();
        assertThat(goals.get("t").orElseThrow().status()).isEqualTo(GoalStatus.BUDGET_LIMITED);

        assertThat(goals.updateStatus("t", goal.goalId(), GoalStatus.PAUSED)).isTrue();
        assertThat(goals.get("t").orElseThrow().status()).isEqualTo(GoalStatus.BUDGET_LIMITED);
        assertThat(goals.updateStatus("t", goal.goalId(), GoalStatus.BLOCKED)).isTrue();
        assertThat(goals.get("t").orElseThrow().status()).isEqualTo(GoalStatus.BUDGET_LIMITED);
        assertThat(goals.updateStatus("t", goal.goalId(), GoalStatus.COMPLETE)).isTrue();
        assertThat(goals.get("t").orElseThrow().status()).isEqualTo(GoalStatus.COMPLETE);
    }

    @Test
    void resumingAGoalOverBudget_keepsItBudgetLimited() {
        ThreadGoal goal = goals.set("t", "limited", OptionalLong.of(5));
        goals.accountUsage("t", goal.goalId(), 7, Duration.ZERO);
        goals.updateStatus("t", goal.goalId(), GoalStatus.USAGE_LIMITED);
        assertThat(goals.get("t").orElseThrow().status()).isEqualTo(GoalStatus.USAGE_LIMITED);
        assertThat(goals.updateStatus("t", goal.goalId(), GoalStatus.ACTIVE)).isTrue();
        assertThat(goals.get("t").orElseThrow().status()).isEqualTo(GoalStatus.BUDGET_LIMITED);
    }

    @Test
    void usageAccounting_addsConcurrentTokenDeltas_andClampsNegativeOnes() throws Exception {
        ThreadGoal goal = goals.set("t", "count", OptionalLong.empty());
        List<Callable<Boolean>> charges = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            charges.add(() -> goals.accountUsage("t", goal.goalId(), 5, Duration.ofSeconds(1)));
        }
        assertThat(runConcurrently(charges)).containsOnly(true);

        goals.accountUsage("t", goal.goalId(), -100, Duration.ofSeconds(-5));
        ThreadGoal after = goals.get("t").orElseThrow();
        assertThat(after.tokensUsed()).isEqualTo(200);
        assertThat(after.timeUsed()).isEqualTo(Duration.ofSeconds(40));
    }

    @Test
    void concurrentStatusUpdatesAndUsage_preserveEachOthersFields() throws Exception {
        ThreadGoal goal = goals.set("t", "both", OptionalLong.of(1_000_000));
        List<Callable<Boolean>> work = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            work.add(() -> goals.accountUsage("t", goal.goalId(), 3, Duration.ZERO));
            work.add(() -> goals.updateStatus("t", goal.goalId(), GoalStatus.ACTIVE));
        }
        assertThat(runConcurrently(work)).containsOnly(true);
        ThreadGoal after = goals.get("t").orElseThrow();
        assertThat(after.tokensUsed()).isEqualTo(60);
        assertThat(after.status()).isEqualTo(GoalStatus.ACTIVE);
        assertThat(after.objective()).isEqualTo("both");
        assertThat(after.goalId()).isEqualTo(goal.goalId());
    }

    @Test
    void usageIsChargedOnlyToActiveOrBudgetLimitedGoals_andCrossingTheBudgetLimitsIt() {
        ThreadGoal goal = goals.set("t", "count", OptionalLong.of(100));
        assertThat(goals.accountUsage("t", goal.goalId(), 60, Duration.ZERO)).isTrue();
        assertThat(goals.get("t").orElseThrow().status()).isEqualTo(GoalStatus.ACTIVE);
        assertThat(goals.accountUsage("t", goal.goalId(), 60, Duration.ZERO)).isTrue();
        assertThat(goals.get("t").orElseThrow().status()).isEqualTo(GoalStatus.BUDGET_LIMITED);
        assertThat(goals.accountUsage("t", goal.goalId(), 1, Duration.ZERO)).as("budget-limited still accrues").isTrue();

        goals.updateStatus("t", goal.goalId(), GoalStatus.COMPLETE);
        assertThat(goals.accountUsage("t", goal.goalId(), 1, Duration.ZERO)).isFalse();
        assertThat(goals.get("t").orElseThrow().tokensUsed()).isEqualTo(121);
    }

    @Test
    void pausedBlockedOrUsageLimitedGoals_areNotCharged() {
        for (GoalStatus stopped : List.of(GoalStatus.PAUSED, GoalStatus.BLOCKED, GoalStatus.USAGE_LIMITED)) {
            ThreadGoal goal = goals.set("t", "stopped", OptionalLong.empty());
            assertThat(goals.updateStatus("t", goal.goalId(), stopped)).isTrue();
            assertThat(goals.accountUsage("t", goal.goalId(), 5, Duration.ofSeconds(1))).as(stopped.name()).isFalse();
            assertThat(goals.get("t").orElseThrow().tokensUsed()).isZero();
        }
    }

    @Test
    void deletingAThreadsGoal_removesIt() {
        goals.set("t", "gone soon", OptionalLong.empty());
        goals.set("other", "stays", OptionalLong.empty());
        assertThat(goals.delete("t")).isTrue();
        assertThat(goals.get("t")).isEmpty();
        assertThat(goals.delete("t")).isFalse();
        assertThat(goals.get("other")).isPresent();
    }

    @Test
    void badObjectivesAndBudgets_failNamingTheValue() {
        assertThatThrownBy(() -> goals.set("t", " ", OptionalLong.empty())).hasMessageContaining("blank");
        assertThatThrownBy(() -> goals.set("t", "x".repeat(GoalRules.MAX_OBJECTIVE_CHARS + 1), OptionalLong.empty()))
                .hasMessageContaining("4000");
        assertThatThrownBy(() -> goals.set("t", "ok", OptionalLong.of(-1))).hasMessageContaining("-1");
        assertThat(goals.get("t")).isEmpty();
    }

    @Test
    void anObjectiveOfTheMaximumLength_andAnyText_roundTrip() {
        String objective = "ü\"'\n🙂 ".repeat(571) + "end"; // 7 · 571 + 3 = 4,000 UTF-16 chars
        goals.set("t", objective, OptionalLong.of(Long.MAX_VALUE));
        assertThat(goals.get("t").orElseThrow().objective()).isEqualTo(objective);
        assertThat(goals.get("t").orElseThrow().tokenBudget()).hasValue(Long.MAX_VALUE);
    }

    private static <T> List<T> runConcurrently(List<Callable<T>> work) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<T> results = new ArrayList<>();
            for (Future<T> future : pool.invokeAll(work)) {
                results.add(future.get());
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
