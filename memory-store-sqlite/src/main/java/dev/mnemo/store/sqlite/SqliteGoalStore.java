package dev.mnemo.store.sqlite;

import dev.mnemo.GoalStatus;
import dev.mnemo.ThreadGoal;
import dev.mnemo.spi.GoalRules;
import dev.mnemo.spi.GoalStore;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * Thread goals in their own SQLite file, {@code goals.sqlite} beside {@code mnemo.sqlite}, as Codex
 * keeps {@code goals_1.sqlite}: so goal writes never wait for the state database's single writer.
 * The file runs with the same pragmas (WAL, {@code synchronous=NORMAL}, the busy timeout) and its
 * own migrations, which tolerate versions a newer Mnemo applied. Every status comes from
 * {@link GoalRules}; each change is one {@code BEGIN IMMEDIATE} transaction, so the goal-id check
 * and the write cannot be split by another process.
 */
final class SqliteGoalStore implements GoalStore, AutoCloseable {

    /** The file's name inside the Mnemo home. */
    static final String FILE_NAME = "goals.sqlite";
    static final SqliteDatabase.Schema SCHEMA =
            new SqliteDatabase.Schema("goals database", "classpath:dev/mnemo/store/sqlite/goals",
                    "goals_schema_history", "1");

    private static final String COLUMNS = "thread_id, goal_id, objective, status, token_budget, tokens_used, "
            + "time_used_seconds";

    private final SqliteDatabase database;
    private final Clock clock;

    private SqliteGoalStore(SqliteDatabase database, Clock clock) {
        this.database = database;
        this.clock = clock;
    }

    /** Opens (creating and migrating) the goals file {@code file}. */
    static SqliteGoalStore open(Path file, Clock clock) {
        return new SqliteGoalStore(SqliteDatabase.open(file, SCHEMA), clock);
    }

    /** Opens an existing goals file for reading only (no creation, no migration). */
    static SqliteGoalStore openReadOnly(Path file, Clock clock) {
        return new SqliteGoalStore(SqliteDatabase.openReadOnly(file, SCHEMA), clock);
    }

    Path file() {
        return database.file();
    }

    @Override
    public ThreadGoal set(String threadId, String objective, OptionalLong tokenBudget) {
        Objects.requireNonNull(threadId, "threadId");
        GoalRules.checkObjective(objective);
        GoalRules.checkBudget(tokenBudget);
        String goalId = UUID.randomUUID().toString();
        GoalStatus status = GoalRules.created(tokenBudget, 0);
        long now = clock.millis();
        database.write("set the goal of thread " + threadId, connection -> Jdbc.update(connection,
                "INSERT INTO thread_goals (" + COLUMNS + ", created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, 0, 0, ?, ?) "
                        + "ON CONFLICT(thread_id) DO UPDATE SET goal_id = excluded.goal_id, "
                        + "objective = excluded.objective, status = excluded.status, "
                        + "token_budget = excluded.token_budget, tokens_used = 0, time_used_seconds = 0, "
                        + "created_at_ms = excluded.created_at_ms, updated_at_ms = excluded.updated_at_ms",
                threadId, goalId, objective, status.dbValue(), budget(tokenBudget), now, now));
        return new ThreadGoal(threadId, goalId, objective, status, tokenBudget, 0, Duration.ZERO);
    }

    @Override
    public Optional<ThreadGoal> get(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return database.read("read the goal of thread " + threadId, connection -> select(connection, threadId));
    }

    @Override
    public boolean updateStatus(String threadId, String expectedGoalId, GoalStatus status) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(expectedGoalId, "expectedGoalId");
        Objects.requireNonNull(status, "status");
        return database.write("update the goal status of thread " + threadId, connection -> {
            Optional<ThreadGoal> goal = select(connection, threadId).filter(g -> g.goalId().equals(expectedGoalId));
            if (goal.isEmpty()) {
                return false;
            }
            ThreadGoal row = goal.get();
            GoalStatus next = GoalRules.requested(row.status(), status, row.tokenBudget(), row.tokensUsed());
            return Jdbc.update(connection, "UPDATE thread_goals SET status = ?, updated_at_ms = ? "
                    + "WHERE thread_id = ? AND goal_id = ?", next.dbValue(), clock.millis(), threadId, expectedGoalId) == 1;
        });
    }

    @Override
    public boolean accountUsage(String threadId, String expectedGoalId, long tokens, Duration time) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(expectedGoalId, "expectedGoalId");
        Objects.requireNonNull(time, "time");
        long addTokens = Math.max(0, tokens);
        long addSeconds = Math.max(0, time.toSeconds());
        return database.write("charge the goal of thread " + threadId, connection -> {
            Optional<ThreadGoal> goal = select(connection, threadId)
                    .filter(g -> g.goalId().equals(expectedGoalId) && GoalRules.chargeable(g.status()));
            if (goal.isEmpty()) {
                return false;
            }
            ThreadGoal row = goal.get();
            long used = row.tokensUsed() + addTokens;
            GoalStatus next = GoalRules.charged(row.status(), row.tokenBudget(), used);
            return Jdbc.update(connection, "UPDATE thread_goals SET tokens_used = tokens_used + ?, "
                    + "time_used_seconds = time_used_seconds + ?, status = ?, updated_at_ms = ? "
                    + "WHERE thread_id = ? AND goal_id = ?", addTokens, addSeconds, next.dbValue(), clock.millis(),
                    threadId, expectedGoalId) == 1;
        });
    }

    @Override
    public boolean delete(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        boolean deleted = database.write("delete the goal of thread " + threadId,
                connection -> Jdbc.update(connection, "DELETE FROM thread_goals WHERE thread_id = ?", threadId) > 0);
        if (deleted) {
            database.checkpointBestEffort(); // the objective's text should not linger in the WAL
        }
        return deleted;
    }

    @Override
    public void close() {
        database.close();
    }

    private static Optional<ThreadGoal> select(PooledConnection connection, String threadId) throws SQLException {
        return Jdbc.queryFirst(connection, "SELECT " + COLUMNS + " FROM thread_goals WHERE thread_id = ?",
                SqliteGoalStore::goal, threadId);
    }

    private static ThreadGoal goal(ResultSet row) throws SQLException {
        Long budget = Jdbc.nullableLong(row, "token_budget");
        return new ThreadGoal(row.getString("thread_id"), row.getString("goal_id"), row.getString("objective"),
                GoalStatus.fromDbValue(row.getString("status")),
                budget == null ? OptionalLong.empty() : OptionalLong.of(budget), row.getLong("tokens_used"),
                Duration.ofSeconds(row.getLong("time_used_seconds")));
    }

    private static Long budget(OptionalLong tokenBudget) {
        return tokenBudget.isPresent() ? tokenBudget.getAsLong() : null;
    }

    @Override
    public String toString() {
        return "SqliteGoalStore[" + database.file() + "]";
    }
}
