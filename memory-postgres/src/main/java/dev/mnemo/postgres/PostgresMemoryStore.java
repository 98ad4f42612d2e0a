package dev.mnemo.postgres;

import dev.mnemo.MemoryStatus;
import dev.mnemo.spi.ComposedMemoryStore;
import dev.mnemo.spi.GoalStore;
import dev.mnemo.spi.HistoryStore;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.ThreadLogStore;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link MemoryStore} of one tenant in a PostgreSQL schema shared by many: memory-store-sqlite's
 * statements over tenant-scoped views (see {@link TenantDatabase}). Claims of one kind serialise per
 * tenant on a transaction-scoped advisory lock (the running cap needs one writer at a time, as
 * SQLite's {@code BEGIN IMMEDIATE} gives); everything else relies on row locks. After a forget that
 * deleted rows, the tables deleted from are vacuumed in the background ({@link VacuumQueue}).
 *
 * <p>Approval ({@code approval = "ask"}) follows memory-store-sqlite: a memory awaiting approval
 * counts as stored in {@link MemoryStatus#stage1Outputs()} but not as unused, and retention never
 * prunes it; notes awaiting approval have their own table, vacuumed after a take or a clear.
 *
 * <p>The state layer lives beside it, per tenant too: thread goals ({@link #goals()}), thread logs
 * ({@link #threadLogs()}) and the message history ({@link #messageHistory()}). Like threads and
 * rollouts, they are not memory data: {@link #clearMemoryData()} leaves them (it deletes the notes
 * awaiting approval too), a thread's delete
 * removes its own (the engine calls each store).
 *
 * <p>This class only gathers the roles ({@link ComposedMemoryStore}): each lives in its own class
 * with its SQL beside the rule it serves ({@link PostgresThreadStore}, {@link PostgresSpawnGraphStore}, {@link PostgresStage1Store},
 * {@link PostgresApprovalStore}, {@link PostgresPhase2Store}, {@link PostgresForgetStore},
 * {@link PostgresMaintenanceStore}), and every one opens its transactions through one
 * {@link StateTransactions}, where the tenant is bound.
 */
final class PostgresMemoryStore extends ComposedMemoryStore {

    static final SqlStatements SQL = SqlStatements.load("sql/state.sql");

    private static final Logger LOG = LoggerFactory.getLogger(PostgresMemoryStore.class);

    private final TenantDatabase database;
    private final String tenant;
    private final StateTransactions state;
    private final PostgresGoalStore goals;

    PostgresMemoryStore(TenantDatabase database, String tenant, Phase2Lock phase2Lock) {
        this(new StateTransactions(database, tenant), phase2Lock);
    }

    private PostgresMemoryStore(StateTransactions state, Phase2Lock phase2Lock) {
        super(new Roles(new PostgresThreadStore(state), new PostgresSpawnGraphStore(state),
                new PostgresStage1Store(state), new PostgresApprovalStore(state), new PostgresPhase2Store(state, phase2Lock),
                new PostgresForgetStore(state), new PostgresMaintenanceStore(state)));
        this.database = state.database();
        this.tenant = state.tenant();
        this.state = state;
        this.goals = new PostgresGoalStore(database, tenant, Clock.systemUTC());
    }

    // ---- the state layer -----------------------------------------------------------------------

    /** {@inheritDoc} Here: the tenant's rows of {@code tenant_thread_goals}. */
    @Override
    public GoalStore goals() {
        return goals;
    }

    /** {@inheritDoc} Here: the tenant's rows of {@code tenant_message_history}. */
    @Override
    public Optional<HistoryStore> messageHistory() {
        return Optional.of(new PostgresHistoryStore(database, tenant));
    }

    /** {@inheritDoc} Here: the tenant's rows of {@code tenant_thread_logs}; closing them releases nothing. */
    @Override
    public Optional<ThreadLogStore> threadLogs() {
        return Optional.of(new PostgresThreadLogStore(database, tenant));
    }

    /** The pool belongs to the application; closing a tenant's store releases nothing shared. */
    @Override
    public void close() {
        LOG.debug("closed the store of tenant {}", tenant);
    }

    @Override
    public String toString() {
        return "PostgresMemoryStore[schema " + database.schema() + ", tenant " + tenant + "]";
    }

    /** For this package's tests: runs {@code work} in a write transaction of this tenant. */
    <T> T inTransaction(TenantDatabase.Work<T> work) {
        return state.write("test access", work);
    }
}
