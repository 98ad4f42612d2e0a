package dev.mnemo.spi;

import dev.mnemo.DeadJob;
import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryStatus;
import dev.mnemo.ModelFailure;
import dev.mnemo.Phase1Preview;
import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.ThreadInfo;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A {@link MemoryStore} made of one object per role: every method of a role is handed to the
 * object given for it, so a store's own class keeps only what gathers them (opening, closing, the
 * stores kept beside it). The SQLite and PostgreSQL stores are written this way; a third store can
 * be too, passing for a role it does not serve an object that keeps the role's defaults (for the
 * spawn graph, {@code new SpawnGraphStore() {}} refuses every call with a message that says so).
 *
 * <p>The role objects share whatever the store shares (a connection pool, a transaction helper);
 * a rule that spans two roles in one transaction lives in the role it serves (a thread's delete
 * removes its stage-1 memory inside {@link ThreadStore#deleteThread}).
 */
public abstract class ComposedMemoryStore implements MemoryStore {

    /**
     * The objects a store is composed of, one per role; none may be null.
     *
     * @param threads the thread registry
     * @param spawnGraph the spawn graph
     * @param stage1 Phase 1's jobs and stage-1 memories
     * @param approvals what waits for approval
     * @param phase2 Phase 2's lock and selection
     * @param forgets the record of consolidated threads and pending forgets
     * @param maintenance releasing jobs, clearing, status
     */
    public record Roles(ThreadStore threads, SpawnGraphStore spawnGraph, Stage1Store stage1, ApprovalStore approvals,
            Phase2Store phase2, ForgetStore forgets, MaintenanceStore maintenance) {

        /**
         * Checks that every role is given.
         *
         * @param threads the thread registry
         * @param spawnGraph the spawn graph
         * @param stage1 Phase 1's jobs and stage-1 memories
         * @param approvals what waits for approval
         * @param phase2 Phase 2's lock and selection
         * @param forgets the record of consolidated threads and pending forgets
         * @param maintenance releasing jobs, clearing, status
         * @throws NullPointerException when a role is null
         */
        public Roles {
            Objects.requireNonNull(threads, "threads");
            Objects.requireNonNull(spawnGraph, "spawnGraph");
            Objects.requireNonNull(stage1, "stage1");
            Objects.requireNonNull(approvals, "approvals");
            Objects.requireNonNull(phase2, "phase2");
            Objects.requireNonNull(forgets, "forgets");
            Objects.requireNonNull(maintenance, "maintenance");
        }
    }

    private final ThreadStore threads;
    private final SpawnGraphStore spawnGraph;
    private final Stage1Store stage1;
    private final ApprovalStore approvals;
    private final Phase2Store phase2;
    private final ForgetStore forgets;
    private final MaintenanceStore maintenance;

    /**
     * A store that hands every role's methods to the object {@code roles} gives for it.
     *
     * @param roles the role objects
     * @throws NullPointerException when {@code roles} is null
     */
    protected ComposedMemoryStore(Roles roles) {
        Objects.requireNonNull(roles, "roles");
        this.threads = roles.threads();
        this.spawnGraph = roles.spawnGraph();
        this.stage1 = roles.stage1();
        this.approvals = roles.approvals();
        this.phase2 = roles.phase2();
        this.forgets = roles.forgets();
        this.maintenance = roles.maintenance();
    }

    // ---- the thread registry --------------------------------------------------------------------

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

    // ---- the spawn graph ------------------------------------------------------------------------

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

    // ---- Phase 1 --------------------------------------------------------------------------------

    @Override
    public List<Stage1Claim> claimStage1Jobs(Stage1ClaimParams params, Instant now) {
        return stage1.claimStage1Jobs(params, now);
    }

    @Override
    public List<Phase1Preview.Candidate> previewStage1Claims(Stage1ClaimParams params, Instant now) {
        return stage1.previewStage1Claims(params, now);
    }

    @Override
    public JobClaim tryClaimStage1Job(String threadId, String workerId, Instant sourceUpdatedAt, Duration lease, int maxRunning, Instant now) {
        return stage1.tryClaimStage1Job(threadId, workerId, sourceUpdatedAt, lease, maxRunning, now);
    }

    @Override
    public boolean markStage1Succeeded(String threadId, String ownershipToken, Instant sourceUpdatedAt, Stage1Result result, Instant now) {
        return stage1.markStage1Succeeded(threadId, ownershipToken, sourceUpdatedAt, result, now);
    }

    @Override
    public boolean markStage1Succeeded(String threadId, String ownershipToken, Instant sourceUpdatedAt, Stage1Result result, Instant now, boolean awaitingApproval) {
        return stage1.markStage1Succeeded(threadId, ownershipToken, sourceUpdatedAt, result, now, awaitingApproval);
    }

    @Override
    public boolean markStage1SucceededNoOutput(String threadId, String ownershipToken, Instant now) {
        return stage1.markStage1SucceededNoOutput(threadId, ownershipToken, now);
    }

    @Override
    public boolean markStage1Failed(String threadId, String ownershipToken, String reason, Duration retryDelay, Instant now) {
        return stage1.markStage1Failed(threadId, ownershipToken, reason, retryDelay, now);
    }

    @Override
    public boolean releaseStage1AfterModelFailure(String threadId, String ownershipToken, ModelFailure failure, Duration retryDelay, Instant now) {
        return stage1.releaseStage1AfterModelFailure(threadId, ownershipToken, failure, retryDelay, now);
    }

    @Override
    public boolean reserveExtractionTokens(LocalDate day, long tokens, long dailyLimit, Instant now) {
        return stage1.reserveExtractionTokens(day, tokens, dailyLimit, now);
    }

    @Override
    public void settleExtractionTokens(LocalDate day, long reserved, long used, Instant now) {
        stage1.settleExtractionTokens(day, reserved, used, now);
    }

    @Override
    public long extractionTokensSpent(LocalDate day) {
        return stage1.extractionTokensSpent(day);
    }

    @Override
    public boolean deferStage1Job(String threadId, String ownershipToken, String reason, Instant retryAt, Instant now) {
        return stage1.deferStage1Job(threadId, ownershipToken, reason, retryAt, now);
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

    @Override
    public List<DeadJob> deadStage1Jobs(int limit) {
        return stage1.deadStage1Jobs(limit);
    }

    @Override
    public boolean retryStage1Job(String threadId, Instant now) {
        return stage1.retryStage1Job(threadId, now);
    }

    @Override
    public int retryDeadStage1Jobs(Instant now) {
        return stage1.retryDeadStage1Jobs(now);
    }

    @Override
    public Optional<DeadJob> deadStage1Job(String threadId) {
        return stage1.deadStage1Job(threadId);
    }

    // ---- approval -------------------------------------------------------------------------------

    @Override
    public List<Stage1Output> stage1OutputsAwaitingApproval() {
        return approvals.stage1OutputsAwaitingApproval();
    }

    @Override
    public boolean approveStage1Output(String threadId, Instant sourceUpdatedAt, Instant now) {
        return approvals.approveStage1Output(threadId, sourceUpdatedAt, now);
    }

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

    // ---- Phase 2 --------------------------------------------------------------------------------

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
    public boolean markPhase2Succeeded(String ownershipToken, long completedWatermark, List<SelectedInput> selected, Instant now) {
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

    @Override
    public List<Stage1Output> phase2InputSelection(Phase2SelectionParams params, Instant now) {
        return phase2.phase2InputSelection(params, now);
    }

    // ---- forgetting -----------------------------------------------------------------------------

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

    // ---- maintenance ----------------------------------------------------------------------------

    @Override
    public int releaseJobs(String workerId, String reason, Instant now) {
        return maintenance.releaseJobs(workerId, reason, now);
    }

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

    // ---- ended conversations (threads role) ---------------------------------------------------

    @Override
    public boolean markThreadEnded(String threadId, Instant endedAt) {
        return threads.markThreadEnded(threadId, endedAt);
    }
}
