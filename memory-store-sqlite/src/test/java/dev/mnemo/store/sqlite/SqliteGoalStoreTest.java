package dev.mnemo.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.GoalStatus;
import dev.mnemo.ThreadGoal;
import dev.mnemo.spi.GoalStore;
import dev.mnemo.testkit.contract.GoalStoreContract;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thread goals in {@code goals.sqlite}: {@link GoalStoreContract} (Codex's goal status rules) on a
 * real SQLite file, plus what is the file's own: WAL beside the state database, and migrations a
 * newer Mnemo applied.
 */
class SqliteGoalStoreTest extends GoalStoreContract {

    @TempDir
    Path home;

    private SqliteMemoryStore store;

    @Override
    protected GoalStore openGoals() {
        store = SqliteMemoryStore.open(home.resolve("mnemo.sqlite"));
        return store.goals();
    }

    @Override
    protected void closeGoals() {
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

    /** Issue 36: a deleted goal's objective stayed readable in {@code goals.sqlite-wal}. */
    @Test
    void delete_leavesNoObjectiveTextInTheDatabaseOrItsWal() throws Exception {
        Path file = home.resolve("goals.sqlite");
        goals.set("t", "ship the hunter2 release-" + "x".repeat(200), OptionalLong.empty());
        assertThat(SqliteThreadLogStoreTest.contains(file, "hunter2")
                || SqliteThreadLogStoreTest.contains(SqliteThreadLogStoreTest.wal(file), "hunter2")).as("stored first")
                .isTrue();

        assertThat(goals.delete("t")).isTrue();

        assertThat(SqliteThreadLogStoreTest.contains(file, "hunter2")).as("in the database file").isFalse();
        assertThat(SqliteThreadLogStoreTest.contains(SqliteThreadLogStoreTest.wal(file), "hunter2")).as("in the WAL")
                .isFalse();
    }
}
