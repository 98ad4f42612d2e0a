package dev.mnemo.postgres;

import dev.mnemo.GoalStatus;
import dev.mnemo.ThreadGoal;
import dev.mnemo.spi.GoalRules;
import dev.mnemo.spi.GoalStore;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/**
 * The thread goals of one tenant, in {@code tenant_thread_goals} (memory-store-sqlite's
 * {@code goals.sqlite}). Every status comes from {@link GoalRules}; a compare-and-set reads the row
 * {@code FOR UPDATE} and writes it in the same transaction, so the goal-id check and the write cannot
 * be split by another server, and usage is added by an increment in SQL. A NUL in an objective is
 * kept as U+FFFD ({@link StorableText}).
 */
final class PostgresGoalStore implements GoalStore {

    static final SqlStatements SQL = SqlStatements.load("sql/goals.sql");
    private static final List<String> TABLES = List.of("tenant_thread_goals");

    private final TenantDatabase database;
    private final String tenant;
    private final Clock clock;

    PostgresGoalStore(TenantDatabase database, String tenant, Clock clock) {
        this.database = database;
        this.tenant = tenant;
        this.clock = clock;
    }

    @Override
    public ThreadGoal set(String threadId, String objective, OptionalLong tokenBudget) {
        Objects.requireNonNull(threadId, "threadId");
        String kept = StorableText.of(GoalRules.checkObjective(objective));
        GoalRules.checkBudget(tokenBudget);
        String goalId = UUID.randomUUID().toString();
        GoalStatus status = GoalRules.created(tokenBudget, 0);
        long now = clock.millis();
        database.write(tenant, SQL, "set the goal of thread " + threadId, tx -> tx.update("goal.set", threadId, goalId,
                kept, status.dbValue(), budget(tokenBudget), now, now));
        return new ThreadGoal(threadId, goalId, kept, status, tokenBudget, 0, Duration.ZERO);
    }

    @Override
    public Optional<ThreadGoal> get(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return database.read(tenant, SQL, "read the goal of thread " + threadId,
                tx -> tx.first("goal.find", PostgresGoalStore::goal, threadId));
    }

    @Override
    public boolean updateStatus(String threadId, String expectedGoalId, GoalStatus status) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(expectedGoalId, "expectedGoalId");
        Objects.requireNonNull(status, "status");
        return database.write(tenant, SQL, "update the goal status of thread " + threadId, tx -> {
            Optional<ThreadGoal> goal = tx.first("goal.findForUpdate", PostgresGoalStore::goal, threadId)
                    .filter(g -> g.goalId().equals(expectedGoalId));
            if (goal.isEmpty()) {
                return false;
            }
            ThreadGoal row = goal.get();
            GoalStatus next = GoalRules.requested(row.status(), status, row.tokenBudget(), row.tokensUsed());
            return tx.update("goal.setStatus", next.dbValue(), clock.millis(), threadId, expectedGoalId) == 1;
        });
    }

    @Override
    public boolean accountUsage(String threadId, String expectedGoalId, long tokens, Duration time) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(expectedGoalId, "expectedGoalId");
        Objects.requireNonNull(time, "time");
        long addTokens = Math.max(0, tokens);
        long addSeconds = Math.max(0, time.toSeconds());
        return database.write(tenant, SQL, "charge the goal of thread " + threadId, tx -> {
            Optional<ThreadGoal> goal = tx.first("goal.findForUpdate", PostgresGoalStore::goal, threadId)
                    .filter(g -> g.goalId().equals(expectedGoalId) && GoalRules.chargeable(g.status()));
            if (goal.isEmpty()) {
                return false;
            }
            ThreadGoal row = goal.get();
            GoalStatus next = GoalRules.charged(row.status(), row.tokenBudget(), row.tokensUsed() + addTokens);
            return tx.update("goal.charge", addTokens, addSeconds, next.dbValue(), clock.millis(), threadId,
                    expectedGoalId) == 1;
        });
    }

    /** {@inheritDoc} The table is vacuumed in the background, so the objective leaves no dead row behind. */
    @Override
    public boolean delete(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        boolean deleted = database.write(tenant, SQL, "delete the goal of thread " + threadId,
                tx -> tx.update("goal.delete", threadId)) > 0;
        if (deleted) {
            database.vacuumLater(TABLES, "deleting the goal of a thread of tenant " + tenant);
        }
        return deleted;
    }

    private static ThreadGoal goal(ResultSet row) throws SQLException {
        Long budget = Tx.nullableLong(row, "token_budget");
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
        return "PostgresGoalStore[schema " + database.schema() + ", tenant " + tenant + "]";
    }
}
