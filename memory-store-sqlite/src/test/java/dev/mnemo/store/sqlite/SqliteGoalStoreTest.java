package dev.mnemo.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.GoalStatus;
import dev.mnemo.ThreadGoal;
import dev.mnemo.spi.GoalRules;
import dev.mnemo.spi.GoalStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Thread goals in {@code goals.sqlite}: Codex's goal status rules, ported, on a real SQLite file. */
class SqliteGoalStoreTest {

    @TempDir
    Path home;

    private SqliteMemoryStore store;
    private GoalStore goals;

    @BeforeEach
    void open() {
        store = SqliteMemoryStore.open(home.resolve("mnemo.sqlite"));
        goals = store.goals();
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void goals_liveInTheirOwnWalFile_besideTheStateDatabase() throws Exception {
        goals.set("t", "ship it", OptionalLong.empty());
        assertThat(home.resolve("goals.sqlite")).exists();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + home.resolve("goals.sqlite"));
                Statement s = c.createStatement();
                ResultSet journal = s.executeQuery("PRAGMA journal_mode")) {
            journal.next();
            assertThat(journal.getString(1)).isEqualToIgnoringCase("wal");
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + home.resolve("mnemo.sqlite"));
                Statement s = c.createStatement();
                ResultSet tables = s.executeQuery(
                        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'thread_goals'")) {
            tables.next();
            assertThat(tables.getInt(1)).as("no goal table in the state database").isZero();
        }
    }

    @Test
    void set_createsAnActiveGoal_andReplacingItRegeneratesTheGoalIdAndResetsUsage() {
        ThreadGoal first = goals.set("t", "write the parser", OptionalLong.of(1_000));
        assertThat(first.status()).isEqualTo(GoalStatus.ACTIVE);
        assertThat(goals.accountUsage("t", first.goalId(), 300, Duration.ofSeconds(12))).isTrue();

        ThreadGoal second = goals.set("t", "write the printer", OptionalLong.empty());
        assertThat(second.goalId()).isNotEqualTo(first.goalId());
        assertThat(goals.get("t")).contains(new ThreadGoal("t", second.goalId(), "write the printer", GoalStatus.ACTIVE,
                OptionalLong.empty(), 0, Duration.ZERO));
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
    void aBudgetOfZero_isLimitedAtOnce() {
        assertThat(goals.set("t", "free", OptionalLong.of(0)).status()).isEqualTo(GoalStatus.BUDGET_LIMITED);
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
        assertThat(goals.updateStatus("t", goal.goalId(), GoalStatus.ACTIVE)).isTrue();
        assertThat(goals.get("t").orElseThrow().status()).isEqualTo(GoalStatus.BUDGET_LIMITED);
    }

    @Test
    void usageAccounting_addsConcurrentTokenDeltas_andClampsNegativeOnes() throws Exception {
        ThreadGoal goal = goals.set("t", "count", OptionalLong.empty());
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> charged = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                charged.add(pool.submit(() -> goals.accountUsage("t", goal.goalId(), 5, Duration.ofSeconds(1))));
            }
            for (Future<Boolean> f : charged) {
                assertThat(f.get()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
        goals.accountUsage("t", goal.goalId(), -100, Duration.ofSeconds(-5));
        ThreadGoal after = goals.get("t").orElseThrow();
        assertThat(after.tokensUsed()).isEqualTo(200);
        assertThat(after.timeUsed()).isEqualTo(Duration.ofSeconds(40));
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
    void delete_removesTheGoal() {
        goals.set("t", "gone soon", OptionalLong.empty());
        assertThat(goals.delete("t")).isTrue();
        assertThat(goals.get("t")).isEmpty();
        assertThat(goals.delete("t")).isFalse();
    }

    @Test
    void badObjectivesAndBudgets_failNamingTheValue() {
        assertThatThrownBy(() -> goals.set("t", " ", OptionalLong.empty())).hasMessageContaining("blank");
        assertThatThrownBy(() -> goals.set("t", "x".repeat(GoalRules.MAX_OBJECTIVE_CHARS + 1), OptionalLong.empty()))
                .hasMessageContaining("4000");
        assertThatThrownBy(() -> goals.set("t", "ok", OptionalLong.of(-1))).hasMessageContaining("-1");
    }

    @Test
    void anOlderMnemo_opensAGoalsFileANewerOneMigrated() throws Exception {
        goals.set("t", "survives", OptionalLong.empty());
        store.close();
        // A later Mnemo added a column and recorded its migration 2.
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + home.resolve("goals.sqlite"));
                Statement s = c.createStatement()) {
            s.execute("ALTER TABLE thread_goals ADD COLUMN priority INTEGER NOT NULL DEFAULT 0");
            s.execute("INSERT INTO goals_schema_history (installed_rank, version, description, type, script, "
                    + "checksum, installed_by, execution_time, success) VALUES (99, '2', 'goal priority', 'SQL', "
                    + "'V2__goal_priority.sql', 0, 'newer', 1, 1)");
        }
        try (SqliteGoalStore older = SqliteGoalStore.open(home.resolve("goals.sqlite"), Clock.systemUTC())) {
            assertThat(older.get("t").orElseThrow().objective()).isEqualTo("survives");
            ThreadGoal replaced = older.set("t", "still writable", OptionalLong.empty());
            assertThat(older.updateStatus("t", replaced.goalId(), GoalStatus.PAUSED)).isTrue();
        }
        store = SqliteMemoryStore.open(home.resolve("mnemo.sqlite")); // for @AfterEach
    }
}
