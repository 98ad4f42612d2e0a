package dev.mnemo.postgres;

import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryStatus;
import dev.mnemo.ModelFailure;
import dev.mnemo.Phase1Preview;
import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.GoalStore;
import dev.mnemo.spi.HistoryStore;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.PendingNote;
import dev.mnemo.spi.SelectedInput;
import dev.mnemo.spi.Stage1Claim;
import dev.mnemo.spi.Stage1ClaimParams;
import dev.mnemo.spi.Stage1Output;
import dev.mnemo.spi.Stage1Result;
import dev.mnemo.spi.ThreadLogStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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
 * rollouts, they are not memory data: {@link #clearMemoryData()} leaves them, a thread's delete
 * removes its own (the engine calls each store).
 *
 * <p>This class only gathers the roles: each lives in its own class with its SQL beside the rule it
 * serves ({@link PostgresThreadStore}, {@link PostgresSpawnGraphStore}, {@link PostgresStage1Store},
 * {@link PostgresApprovalStore}, {@link PostgresPhase2Store}, {@link PostgresForgetStore},
 * {@link PostgresMaintenanceStore}), and every one opens its transactions through one
 * {@link StateTransactions}, where the tenant is bound.
 */
final class PostgresMemoryStore implements MemoryStore {

    static final SqlStatements SQL = SqlStatements.load("sql/state.sql");

    private static final Logger LOG = LoggerFactory.getLogger(PostgresMemoryStore.class);

    private final TenantDatabase database;
    private final String tenant;
    private final StateTransactions state;
    private final PostgresThreadStore threads;
    private final PostgresSpawnGraphStore spawnGraph;
    private final PostgresStage1Store stage1;
    private final PostgresApprovalStore approvals;
    private final PostgresPhase2Store phase2;
    private final PostgresForgetStore forgets;
    private final PostgresMaintenanceStore maintenance;
    private final PostgresGoalStore goals;

    PostgresMemoryStore(TenantDatabase database, String tenant, Phase2Lock phase2Lock) {
        this.database = database;
        this.tenant = tenant;
        this.state = new StateTransactions(database, tenant);
        this.threads = new PostgresThreadStore(state);
        this.spawnGraph = new PostgresSpawnGraphStore(state);
        this.stage1 = new PostgresStage1Store(state);
        this.approvals = new PostgresApprovalStore(state);
        this.phase2 = new PostgresPhase2Store(state, phase2Lock);
        this.forgets = new PostgresForgetStore(state);
        this.maintenance = new PostgresMaintenanceStore(state);
        this.goals = new PostgresGoalStore(database, tenant, Clock.systemUTC());
    }

    // ---- threads -------------------------------------------------------------------------------

    @Override
    public void upsertThread(ThreadInfo thread) {
        threads.upsertThread(thread);
    }

    @Override
    public Optional<ThreadInfo> thread(String threadId) {
        return threads.thread(threadId);
    }

    @Override
    public List<ThreadInfo> threads() {
        return threads.threads();
    }

    @Override
    public boolean setThreadMemoryMode(String threadId, MemoryMode mode, Instant now) {
        return threads.setThreadMemoryMode(threadId, mode, now);
    }

    @Override
    public boolean markThreadPolluted(String threadId, Instant now) {
        return threads.markThreadPolluted(threadId, now);
    }

    @Override
    public boolean deleteThread(String threadId, Instant now) {
        return threads.deleteThread(threadId, now);
    }

    // ---- the spawn graph -----------------------------------------------------------------------

    @Override
    public void upsertSpawnEdge(String parentThreadId, String childThreadId, SpawnEdgeStatus status) {
        spawnGraph.upsertSpawnEdge(parentThreadId, childThreadId, status);
    }

    @Override
    public boolean setSpawnEdgeStatus(String childThreadId, SpawnEdgeStatus status) {
        return spawnGraph.setSpawnEdgeStatus(childThreadId, status);
    }

    @Override
    public List<String> spawnChildren(String parentThreadId, Optional<SpawnEdgeStatus> status) {
        return spawnGraph.spawnChildren(parentThreadId, status);
    }

    @Override
    public List<String> spawnDescendants(String threadId, Optional<SpawnEdgeStatus> status) {
        return spawnGraph.spawnDescendants(threadId, status);
    }

    @Override
    public Optional<String> spawnParent(String childThreadId) {
        return spawnGraph.spawnParent(childThreadId);
    }

    // ---- Phase 1 -------------------------------------------------------------------------------

    @Override
    public List<Stage1Claim> claimStage1Jobs(Stage1ClaimParams params, Instant now) {
        return stage1.claimStage1Jobs(params, now);
    }

    @Override
    public List<Phase1Preview.Candidate> previewStage1Claims(Stage1ClaimParams params, Instant now) {
        return stage1.previewStage1Claims(params, now);
    }

    @Override
    public JobClaim tryClaimStage1Job(String threadId, String workerId, Instant sourceUpdatedAt, Duration lease,
            int maxRunning, Instant now) {
        return stage1.tryClaimStage1Job(threadId, workerId, sourceUpdatedAt, lease, maxRunning, now);
    }

    @Override
    public boolean markStage1Succeeded(String threadId, String ownershipToken, Instant sourceUpdatedAt,
            Stage1Result result, Instant now) {
        return stage1.markStage1Succeeded(threadId, ownershipToken, sourceUpdatedAt, result, now);
    }

    @Override
    public boolean markStage1Succeeded(String threadId, String ownershipToken, Instant sourceUpdatedAt,
            Stage1Result result, Instant now, boolean awaitingApproval) {
        return stage1.markStage1Succeeded(threadId, ownershipToken, sourceUpdatedAt, result, now, awaitingApproval);
    }

    @Override
    public boolean markStage1SucceededNoOutput(String threadId, String ownershipToken, Instant now) {
        return stage1.markStage1SucceededNoOutput(threadId, ownershipToken, now);
    }

    @Override
    public boolean markStage1Failed(String threadId, String ownershipToken, String reason, Duration retryDelay,
            Instant now) {
        return stage1.markStage1Failed(threadId, ownershipToken, reason, retryDelay, now);
    }

    @Override
    public boolean releaseStage1AfterModelFailure(String threadId, String ownershipToken, ModelFailure failure,
            Duration retryDelay, Instant now) {
        return stage1.releaseStage1AfterModelFailure(threadId, ownershipToken, failure, retryDelay, now);
    }

    @Override
    public Optional<Stage1Output> stage1Output(String threadId) {
        return stage1.stage1Output(threadId);
    }

    @Override
    public int recordUsage(List<String> threadIds, Instant now) {
        return stage1.recordUsage(threadIds, now);
    }

    @Override
    public int pruneStage1Outputs(int maxUnusedDays, int limit, Instant now) {
        return stage1.pruneStage1Outputs(maxUnusedDays, limit, now);
    }

    @Override
    public int pruneStage1Outputs(int maxUnusedDays, int limit, Instant now, Set<String> keep) {
        return stage1.pruneStage1Outputs(maxUnusedDays, limit, now, keep);
    }

    // ---- approval ------------------------------------------------------------------------------

    @Override
    public List<Stage1Output> stage1OutputsAwaitingApproval() {
        return approvals.stage1OutputsAwaitingApproval();
    }

    @Override
    public boolean approveStage1Output(String threadId, Instant sourceUpdatedAt, Instant now) {
        return approvals.approveStage1Output(threadId, sourceUpdatedAt, now);
    }

    /** {@inheritDoc} See {@link PostgresApprovalStore#addPendingNote}. */
    @Override
    public void addPendingNote(PendingNote note) {
        approvals.addPendingNote(note);
    }

    @Override
    public List<PendingNote> pendingNotes() {
        return approvals.pendingNotes();
    }

    @Override
    public Optional<PendingNote> takePendingNote(String id) {
        return approvals.takePendingNote(id);
    }

    @Override
    public List<PendingNote> takePendingNotesOf(String threadId) {
        return approvals.takePendingNotesOf(threadId);
    }

    @Override
    public void addNoteRejection(String threadId, String textHash, Instant now) {
        approvals.addNoteRejection(threadId, textHash, now);
    }

    @Override
    public boolean isNoteRejected(String threadId, String textHash) {
        return approvals.isNoteRejected(threadId, textHash);
    }

    // ---- Phase 2 -------------------------------------------------------------------------------

    @Override
    public JobClaim tryClaimPhase2Job(String workerId, Duration lease, Instant now) {
        return phase2.tryClaimPhase2Job(workerId, lease, now);
    }

    @Override
    public JobClaim tryClaimPhase2JobNow(String workerId, Duration lease, Instant now) {
        return phase2.tryClaimPhase2JobNow(workerId, lease, now);
    }

    @Override
    public boolean heartbeatPhase2Job(String ownershipToken, Duration lease, Instant now) {
        return phase2.heartbeatPhase2Job(ownershipToken, lease, now);
    }

    @Override
    public boolean markPhase2Succeeded(String ownershipToken, long completedWatermark, List<SelectedInput> selected,
            Instant now) {
        return phase2.markPhase2Succeeded(ownershipToken, completedWatermark, selected, now);
    }

    @Override
    public boolean markPhase2Failed(String ownershipToken, String reason, Duration retryDelay, Instant now) {
        return phase2.markPhase2Failed(ownershipToken, reason, retryDelay, now);
    }

    @Override
    public boolean markPhase2FailedIfUnowned(String ownershipToken, String reason, Duration retryDelay, Instant now) {
        return phase2.markPhase2FailedIfUnowned(ownershipToken, reason, retryDelay, now);
    }

    @Override
    public void enqueuePhase2(long inputWatermark) {
        phase2.enqueuePhase2(inputWatermark);
    }

    @Override
    public List<Stage1Output> phase2InputSelection(int limit, int maxUnusedDays, Instant now) {
        return phase2.phase2InputSelection(limit, maxUnusedDays, now);
    }

    @Override
    public List<Stage1Output> listStage1OutputsForGlobal(int limit) {
        return phase2.listStage1OutputsForGlobal(limit);
    }

    @Override
    public void replacePhase2Selection(List<SelectedInput> selected) {
        phase2.replacePhase2Selection(selected);
    }

    // ---- forgetting ----------------------------------------------------------------------------

    @Override
    public void recordConsolidatedThreads(Collection<String> threadIds, Instant at) {
        forgets.recordConsolidatedThreads(threadIds, at);
    }

    @Override
    public Optional<Instant> firstConsolidated(String threadId) {
        return forgets.firstConsolidated(threadId);
    }

    @Override
    public void addPendingForget(String threadId, Instant now) {
        forgets.addPendingForget(threadId, now);
    }

    @Override
    public Set<String> pendingForgets() {
        return forgets.pendingForgets();
    }

    @Override
    public void completeForgets(Collection<String> threadIds) {
        forgets.completeForgets(threadIds);
    }

    // ---- maintenance ---------------------------------------------------------------------------

    @Override
    public int releaseJobs(String workerId, String reason, Instant now) {
        return maintenance.releaseJobs(workerId, reason, now);
    }

    /** {@inheritDoc} Notes awaiting approval are deleted too. */
    @Override
    public void clearMemoryData() {
        maintenance.clearMemoryData();
    }

    @Override
    public MemoryStatus status(Instant now) {
        return maintenance.status(now);
    }

    @Override
    public MemoryStatus status(Instant now, int maxUnusedDays) {
        return maintenance.status(now, maxUnusedDays);
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
