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
import dev.mnemo.spi.Phase2ClaimPolicy;
import dev.mnemo.spi.SelectedInput;
import dev.mnemo.spi.Stage1Claim;
import dev.mnemo.spi.Stage1ClaimParams;
import dev.mnemo.spi.Stage1Output;
import dev.mnemo.spi.Stage1Result;
import dev.mnemo.spi.ThreadLogStore;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
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
 */
final class PostgresMemoryStore implements MemoryStore {

    static final SqlStatements SQL = SqlStatements.load("sql/state.sql");

    private static final Logger LOG = LoggerFactory.getLogger(PostgresMemoryStore.class);
    private static final List<String> FORGET_TABLES = List.of("tenant_stage1_outputs", "tenant_jobs",
            "tenant_threads");
    /** Vacuumed when a note awaiting approval was taken (a rejected one's text) or cleared. */
    private static final List<String> NOTE_TABLES = List.of("tenant_notes_awaiting_approval");

    private final TenantDatabase database;
    private final String tenant;
    private final Phase2Lock phase2Lock;
    private final PostgresGoalStore goals;

    PostgresMemoryStore(TenantDatabase database, String tenant, Phase2Lock phase2Lock) {
        this.database = database;
        this.tenant = tenant;
        this.phase2Lock = phase2Lock;
        this.goals = new PostgresGoalStore(database, tenant, Clock.systemUTC());
    }

    private <T> T write(String what, TenantDatabase.Work<T> work) {
        return database.write(tenant, SQL, what, work);
    }

    private <T> T read(String what, TenantDatabase.Work<T> work) {
        return database.readSnapshot(tenant, SQL, what, work);
    }

    /** Vacuums the tables a forget deleted from, in the background; call only when rows were deleted. */
    private void vacuumAfterForget(String what) {
        database.vacuumLater(FORGET_TABLES, what + " of tenant " + tenant);
    }

    // ---- threads -------------------------------------------------------------------------------

    @Override
    public void upsertThread(ThreadInfo thread) {
        Objects.requireNonNull(thread, "thread");
        boolean forgot = write("upsert thread " + thread.id(), tx -> ThreadRows.upsert(tx, thread) == MemoryMode.POLLUTED
                && OutputRows.forget(tx, thread.id(), thread.updatedAt()));
        if (forgot) {
            vacuumAfterForget("forgetting polluted thread " + thread.id());
        }
    }

    @Override
    public Optional<ThreadInfo> thread(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return read("read thread " + threadId, tx -> ThreadRows.find(tx, threadId));
    }

    @Override
    public List<ThreadInfo> threads() {
        return read("list threads", ThreadRows::all);
    }

    @Override
    public boolean setThreadMemoryMode(String threadId, MemoryMode mode, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(now, "now");
        if (mode == MemoryMode.POLLUTED) {
            if (thread(threadId).isEmpty()) {
                return false;
            }
            markThreadPolluted(threadId, now);
            return true;
        }
        return write("set memory mode of thread " + threadId, tx -> ThreadRows.setMode(tx, threadId, mode)) > 0;
    }

    @Override
    public boolean markThreadPolluted(String threadId, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(now, "now");
        boolean[] forgot = new boolean[1];
        boolean changed = write("mark thread " + threadId + " polluted", tx -> {
            boolean modeChanged = ThreadRows.markPolluted(tx, threadId);
            forgot[0] = OutputRows.forget(tx, threadId, now);
            return modeChanged;
        });
        if (forgot[0]) {
            vacuumAfterForget("polluting thread " + threadId);
        }
        return changed;
    }

    @Override
    public boolean deleteThread(String threadId, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(now, "now");
        boolean[] deletedAny = new boolean[1];
        boolean deleted = write("delete thread " + threadId, tx -> {
            boolean forgot = OutputRows.forget(tx, threadId, now);
            boolean job = JobRows.deleteStage1(tx, threadId) > 0;
            tx.update("spawn.deleteEdgesOf", threadId, threadId);
            boolean thread = ThreadRows.delete(tx, threadId);
            deletedAny[0] = forgot || job || thread;
            return thread;
        });
        if (deletedAny[0]) {
            vacuumAfterForget("deleting thread " + threadId);
        }
        return deleted;
    }


    // ---- the spawn graph ---------------------------------------------------------------------------

    @Override
    public void upsertSpawnEdge(String parentThreadId, String childThreadId, SpawnEdgeStatus status) {
        Objects.requireNonNull(parentThreadId, "parentThreadId");
        Objects.requireNonNull(childThreadId, "childThreadId");
        Objects.requireNonNull(status, "status");
        write("upsert spawn edge " + parentThreadId + " -> " + childThreadId,
                tx -> tx.update("spawn.upsert", parentThreadId, childThreadId, dbValue(status)));
    }

    @Override
    public boolean setSpawnEdgeStatus(String childThreadId, SpawnEdgeStatus status) {
        Objects.requireNonNull(childThreadId, "childThreadId");
        Objects.requireNonNull(status, "status");
        return write("set spawn edge status of " + childThreadId,
                tx -> tx.update("spawn.setStatus", dbValue(status), childThreadId)) > 0;
    }

    @Override
    public List<String> spawnChildren(String parentThreadId, Optional<SpawnEdgeStatus> status) {
        Objects.requireNonNull(parentThreadId, "parentThreadId");
        String wanted = Objects.requireNonNull(status, "status").map(PostgresMemoryStore::dbValue).orElse(null);
        return read("list spawn children of " + parentThreadId,
                tx -> tx.query("spawn.children", row -> row.getString(1), parentThreadId, wanted, wanted));
    }

    @Override
    public List<String> spawnDescendants(String threadId, Optional<SpawnEdgeStatus> status) {
        Objects.requireNonNull(threadId, "threadId");
        String wanted = Objects.requireNonNull(status, "status").map(PostgresMemoryStore::dbValue).orElse(null);
        return read("list spawn descendants of " + threadId, tx -> tx.query("spawn.descendants",
                row -> row.getString(1), threadId, threadId, wanted, wanted, threadId, wanted, wanted));
    }

    @Override
    public Optional<String> spawnParent(String childThreadId) {
        Objects.requireNonNull(childThreadId, "childThreadId");
        return read("read spawn parent of " + childThreadId,
                tx -> tx.first("spawn.parent", row -> row.getString(1), childThreadId));
    }

    /** {@code open} or {@code closed}, as Codex stores it. */
    private static String dbValue(SpawnEdgeStatus status) {
        return status.name().toLowerCase(Locale.ROOT);
    }

    // ---- Phase 1 -------------------------------------------------------------------------------

    /**
     * {@inheritDoc}
     *
     * <p>One transaction under the tenant's Phase 1 claim lock: the candidate scan is read page by
     * page and each out-of-date candidate is claimed with the same guarded upsert as
     * {@link #tryClaimStage1Job}, until enough are claimed.
     */
    @Override
    public List<Stage1Claim> claimStage1Jobs(Stage1ClaimParams params, Instant now) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(now, "now");
        if (params.scanLimit() == 0 || params.maxClaimed() == 0 || params.allowedSources().isEmpty()) {
            return List.of();
        }
        List<Stage1Claim> claimed = write("claim Phase 1 jobs", tx -> {
            lockClaims(tx, JobRows.STAGE1);
            List<Stage1Claim> out = new ArrayList<>();
            try (ThreadRows.Candidates candidates = ThreadRows.claimCandidates(tx, params, now)) {
                Optional<ThreadRows.Candidate> next;
                while (out.size() < params.maxClaimed() && (next = candidates.next()).isPresent()) {
                    if (next.get().upToDate()) {
                        continue;
                    }
                    ThreadInfo thread = next.get().thread();
                    Instant source = Instant.ofEpochSecond(thread.updatedAt().getEpochSecond());
                    JobClaim claim = JobRows.tryClaimStage1(tx, thread.id(), params.workerId(), source,
                            params.lease(), params.maxClaimed(), now);
                    if (claim.isClaimed()) {
                        out.add(new Stage1Claim(thread, claim.token(), source));
                    }
                }
            }
            return out;
        });
        LOG.debug("Phase 1 claim by {} for tenant {}: {} claimed", params.workerId(), tenant, claimed.size());
        return List.copyOf(claimed);
    }

    @Override
    public List<Phase1Preview.Candidate> previewStage1Claims(Stage1ClaimParams params, Instant now) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(now, "now");
        return List.copyOf(read("preview Phase 1 claims", tx -> Stage1ClaimPreview.preview(tx, params, now)));
    }

    @Override
    public JobClaim tryClaimStage1Job(String threadId, String workerId, Instant sourceUpdatedAt, Duration lease,
            int maxRunning, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(workerId, "workerId");
        Objects.requireNonNull(sourceUpdatedAt, "sourceUpdatedAt");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(now, "now");
        return write("claim Phase 1 job of thread " + threadId, tx -> {
            lockClaims(tx, JobRows.STAGE1);
            return JobRows.tryClaimStage1(tx, threadId, workerId, sourceUpdatedAt, lease, maxRunning, now);
        });
    }

    @Override
    public boolean markStage1Succeeded(String threadId, String ownershipToken, Instant sourceUpdatedAt,
            Stage1Result result, Instant now) {
        return markStage1Succeeded(threadId, ownershipToken, sourceUpdatedAt, result, now, false);
    }

    @Override
    public boolean markStage1Succeeded(String threadId, String ownershipToken, Instant sourceUpdatedAt,
            Stage1Result result, Instant now, boolean awaitingApproval) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(sourceUpdatedAt, "sourceUpdatedAt");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(now, "now");
        return write("complete Phase 1 job of thread " + threadId, tx -> {
            if (!JobRows.markStage1Done(tx, threadId, ownershipToken, now)) {
                return false;
            }
            if (OutputRows.upsert(tx, threadId, sourceUpdatedAt, result, awaitingApproval, now) > 0
                    && !awaitingApproval) {
                JobRows.enqueuePhase2(tx, sourceUpdatedAt.getEpochSecond());
            }
            return true;
        });
    }

    @Override
    public List<Stage1Output> stage1OutputsAwaitingApproval() {
        return read("list memories awaiting approval", OutputRows::awaitingApproval);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Phase 2 is queued as a Phase 1 success queues it, with the memory's version as the input
     * watermark.
     */
    @Override
    public boolean approveStage1Output(String threadId, Instant sourceUpdatedAt, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(sourceUpdatedAt, "sourceUpdatedAt");
        Objects.requireNonNull(now, "now");
        return write("approve memory of thread " + threadId, tx -> {
            if (!OutputRows.approve(tx, threadId, sourceUpdatedAt)) {
                return false;
            }
            JobRows.enqueuePhase2(tx, sourceUpdatedAt.getEpochSecond());
            return true;
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code createdAt} is kept in whole seconds.
     *
     * @throws IllegalArgumentException when a note with that id is already kept (it is left as it was)
     */
    @Override
    public void addPendingNote(PendingNote note) {
        Objects.requireNonNull(note, "note");
        if (!write("keep note " + note.id() + " for approval", tx -> PendingNoteRows.add(tx, note))) {
            throw new IllegalArgumentException("a note awaiting approval already has id '" + note.id() + "'");
        }
    }

    /** {@inheritDoc} Notes made in the same second come in id order. */
    @Override
    public List<PendingNote> pendingNotes() {
        return read("list notes awaiting approval", PendingNoteRows::all);
    }

    @Override
    public Optional<PendingNote> takePendingNote(String id) {
        Objects.requireNonNull(id, "id");
        Optional<PendingNote> taken = write("take note " + id + " awaiting approval", tx -> PendingNoteRows.take(tx, id));
        if (taken.isPresent()) {
            database.vacuumLater(NOTE_TABLES, "taking a note awaiting approval of tenant " + tenant);
        }
        return taken;
    }

    @Override
    public List<PendingNote> takePendingNotesOf(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        List<PendingNote> taken = write("take the notes of thread " + threadId + " awaiting approval",
                tx -> PendingNoteRows.takeOf(tx, threadId));
        if (!taken.isEmpty()) {
            database.vacuumLater(NOTE_TABLES, "forgetting the notes of a conversation of tenant " + tenant);
        }
        return taken;
    }

    @Override
    public void addNoteRejection(String threadId, String textHash, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(textHash, "textHash");
        Objects.requireNonNull(now, "now");
        write("record a rejected note of thread '" + threadId + "'", tx -> {
            PendingNoteRows.addRejection(tx, threadId, textHash, now);
            return null;
        });
    }

    @Override
    public boolean isNoteRejected(String threadId, String textHash) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(textHash, "textHash");
        return read("look up a rejected note", tx -> PendingNoteRows.isRejected(tx, threadId, textHash));
    }

    @Override
    public boolean markStage1SucceededNoOutput(String threadId, String ownershipToken, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(now, "now");
        return write("complete Phase 1 job of thread " + threadId + " without output", tx -> {
            if (!JobRows.markStage1Done(tx, threadId, ownershipToken, now)) {
                return false;
            }
            long watermark = JobRows.stage1InputWatermark(tx, threadId).orElse(now.getEpochSecond());
            if (OutputRows.delete(tx, threadId).isPresent()) {
                JobRows.enqueuePhase2(tx, watermark);
            }
            return true;
        });
    }

    @Override
    public boolean markStage1Failed(String threadId, String ownershipToken, String reason, Duration retryDelay,
            Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(retryDelay, "retryDelay");
        Objects.requireNonNull(now, "now");
        return write("fail Phase 1 job of thread " + threadId,
                tx -> JobRows.markStage1Failed(tx, threadId, ownershipToken, reason, retryDelay, now));
    }

    @Override
    public boolean releaseStage1AfterModelFailure(String threadId, String ownershipToken, ModelFailure failure,
            Duration retryDelay, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(retryDelay, "retryDelay");
        Objects.requireNonNull(now, "now");
        return write("release Phase 1 job of thread " + threadId + " after a model failure",
                tx -> JobRows.releaseStage1AfterModelFailure(tx, threadId, ownershipToken, failure, retryDelay, now));
    }

    @Override
    public Optional<Stage1Output> stage1Output(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return read("read memory of thread " + threadId, tx -> OutputRows.find(tx, threadId));
    }

    // ---- Phase 2 -------------------------------------------------------------------------------

    @Override
    public JobClaim tryClaimPhase2Job(String workerId, Duration lease, Instant now) {
        return claimPhase2(workerId, lease, now, false);
    }

    @Override
    public JobClaim tryClaimPhase2JobNow(String workerId, Duration lease, Instant now) {
        return claimPhase2(workerId, lease, now, true);
    }

    private JobClaim claimPhase2(String workerId, Duration lease, Instant now, boolean pastCooldown) {
        Objects.requireNonNull(workerId, "workerId");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(now, "now");
        JobClaim claim = write(pastCooldown ? "claim the Phase 2 lock past its cooldown" : "claim the Phase 2 lock",
                tx -> {
                    lockClaims(tx, JobRows.PHASE2);
                    return JobRows.tryClaimPhase2(tx, workerId, lease, now, pastCooldown);
                });
        if (claim.isClaimed()) {
            phase2Lock.claimed(claim.token());
        }
        return claim;
    }

    @Override
    public boolean heartbeatPhase2Job(String ownershipToken, Duration lease, Instant now) {
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(now, "now");
        return write("extend the Phase 2 lease", tx -> JobRows.heartbeatPhase2(tx, ownershipToken, lease, now));
    }

    @Override
    public boolean markPhase2Succeeded(String ownershipToken, long completedWatermark, List<SelectedInput> selected,
            Instant now) {
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        List<SelectedInput> inputs = List.copyOf(Objects.requireNonNull(selected, "selected"));
        Objects.requireNonNull(now, "now");
        phase2Lock.finished(ownershipToken);
        return write("complete Phase 2", tx -> {
            if (!JobRows.markPhase2Succeeded(tx, ownershipToken, completedWatermark, now)) {
                return false;
            }
            OutputRows.replaceSelection(tx, inputs);
            return true;
        });
    }

    @Override
    public boolean markPhase2Failed(String ownershipToken, String reason, Duration retryDelay, Instant now) {
        return failPhase2(ownershipToken, reason, retryDelay, now, false);
    }

    @Override
    public boolean markPhase2FailedIfUnowned(String ownershipToken, String reason, Duration retryDelay, Instant now) {
        return failPhase2(ownershipToken, reason, retryDelay, now, true);
    }

    private boolean failPhase2(String ownershipToken, String reason, Duration retryDelay, Instant now,
            boolean unownedToo) {
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(retryDelay, "retryDelay");
        Objects.requireNonNull(now, "now");
        phase2Lock.finished(ownershipToken);
        return write("fail Phase 2",
                tx -> JobRows.markPhase2Failed(tx, ownershipToken, reason, retryDelay, now, unownedToo));
    }

    @Override
    public void enqueuePhase2(long inputWatermark) {
        write("queue Phase 2", tx -> {
            JobRows.enqueuePhase2(tx, inputWatermark);
            return null;
        });
    }

    @Override
    public List<Stage1Output> phase2InputSelection(int limit, int maxUnusedDays, Instant now) {
        Objects.requireNonNull(now, "now");
        return read("select Phase 2 inputs", tx -> OutputRows.phase2Selection(tx, limit, maxUnusedDays, now));
    }

    @Override
    public List<Stage1Output> listStage1OutputsForGlobal(int limit) {
        return read("list memories", tx -> OutputRows.listForGlobal(tx, limit));
    }

    @Override
    public void replacePhase2Selection(List<SelectedInput> selected) {
        List<SelectedInput> inputs = List.copyOf(Objects.requireNonNull(selected, "selected"));
        write("replace the Phase 2 selection", tx -> {
            OutputRows.replaceSelection(tx, inputs);
            return null;
        });
    }

    // ---- forgetting ----------------------------------------------------------------------------

    @Override
    public void recordConsolidatedThreads(Collection<String> threadIds, Instant at) {
        List<String> ids = List.copyOf(Objects.requireNonNull(threadIds, "threadIds"));
        Objects.requireNonNull(at, "at");
        if (ids.isEmpty()) {
            return;
        }
        write("record consolidated threads", tx -> {
            for (String id : ids) {
                tx.update("forget.recordConsolidated", id, at.getEpochSecond());
            }
            return null;
        });
    }

    @Override
    public Optional<Instant> firstConsolidated(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return read("read the first consolidation of thread " + threadId, tx -> tx.first("forget.firstConsolidated",
                row -> Instant.ofEpochSecond(row.getLong(1)), threadId));
    }

    @Override
    public void addPendingForget(String threadId, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(now, "now");
        write("record a pending forget of thread " + threadId,
                tx -> tx.update("forget.addPending", threadId, now.getEpochSecond()));
    }

    @Override
    public Set<String> pendingForgets() {
        return Set.copyOf(read("read pending forgets", tx -> tx.query("forget.pending", row -> row.getString(1))));
    }

    @Override
    public void completeForgets(Collection<String> threadIds) {
        List<String> ids = List.copyOf(Objects.requireNonNull(threadIds, "threadIds"));
        if (ids.isEmpty()) {
            return;
        }
        write("complete forgets", tx -> tx.update("forget.completePending", tx.textArray(ids))
                + tx.update("forget.completeConsolidated", tx.textArray(ids)));
    }

    // ---- read-path feedback, retention, maintenance ---------------------------------------------

    @Override
    public int recordUsage(List<String> threadIds, Instant now) {
        List<String> ids = List.copyOf(Objects.requireNonNull(threadIds, "threadIds"));
        Objects.requireNonNull(now, "now");
        return ids.isEmpty() ? 0 : write("record memory usage", tx -> OutputRows.recordUsage(tx, ids, now));
    }

    @Override
    public int pruneStage1Outputs(int maxUnusedDays, int limit, Instant now) {
        Objects.requireNonNull(now, "now");
        int pruned = write("prune memories", tx -> OutputRows.prune(tx, maxUnusedDays, limit, now));
        if (pruned > 0) {
            LOG.info("pruned {} stage-1 memories of tenant {} unused for {} days", pruned, tenant, maxUnusedDays);
        }
        return pruned;
    }

    @Override
    public int pruneStage1Outputs(int maxUnusedDays, int limit, Instant now, Set<String> keep) {
        Objects.requireNonNull(now, "now");
        Set<String> spared = Set.copyOf(Objects.requireNonNull(keep, "keep"));
        int pruned = write("prune memories", tx -> OutputRows.prune(tx, maxUnusedDays, limit, now, spared));
        if (pruned > 0) {
            LOG.info("pruned {} stage-1 memories of tenant {} unused for {} days (sparing {} a kept consolidation used)",
                    pruned, tenant, maxUnusedDays, spared.size());
        }
        return pruned;
    }

    @Override
    public int releaseJobs(String workerId, String reason, Instant now) {
        Objects.requireNonNull(workerId, "workerId");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(now, "now");
        int released = write("release jobs of " + workerId, tx -> JobRows.release(tx, workerId, reason, now));
        if (released > 0) {
            LOG.info("released {} running jobs of worker {} (tenant {}): {}", released, workerId, tenant, reason);
        }
        return released;
    }

    /** {@inheritDoc} Notes awaiting approval are deleted too. */
    @Override
    public void clearMemoryData() {
        int[] notes = new int[1];
        int deleted = write("clear memory data", tx -> {
            int rows = OutputRows.deleteAll(tx) + JobRows.deleteMemoryJobs(tx);
            JobRows.clearModelFailure(tx);
            notes[0] = PendingNoteRows.deleteAll(tx);
            tx.update("forget.deleteAllPending");
            tx.update("forget.deleteAllConsolidated");
            return rows;
        });
        if (deleted > 0) {
            vacuumAfterForget("clearing every memory");
        }
        if (notes[0] > 0) {
            database.vacuumLater(NOTE_TABLES, "clearing the notes awaiting approval of tenant " + tenant);
        }
        LOG.info("cleared every stage-1 memory, memory job and note awaiting approval of tenant {}", tenant);
    }

    @Override
    public MemoryStatus status(Instant now) {
        return status(now, OptionalInt.empty());
    }

    @Override
    public MemoryStatus status(Instant now, int maxUnusedDays) {
        return status(now, OptionalInt.of(maxUnusedDays));
    }

    private MemoryStatus status(Instant now, OptionalInt maxUnusedDays) {
        Objects.requireNonNull(now, "now");
        return read("read status", tx -> {
            Optional<Phase2ClaimPolicy.JobRow> phase2 = JobRows.phase2Row(tx);
            OptionalInt unused = maxUnusedDays.isPresent()
                    ? OptionalInt.of(OutputRows.countUnused(tx, maxUnusedDays.getAsInt(), now)) : OptionalInt.empty();
            return new MemoryStatus(JobRows.countsByKind(tx), JobRows.runningLeases(tx),
                    tx.first("phase2.lastSuccessAt", row -> Tx.nullableLong(row, "last_success_at"))
                            .map(Instant::ofEpochSecond).or(() -> phase2.flatMap(Phase2ClaimPolicy::lastSuccess)),
                    phase2.map(Phase2ClaimPolicy.JobRow::lastError),
                    ThreadRows.countsByMode(tx), OutputRows.count(tx), Optional.empty(), now, Map.of(),
                    JobRows.lastModelFailure(tx), unused, phase2.flatMap(row -> Phase2ClaimPolicy.notBefore(row, now)),
                    tx.query("forget.pending", row -> row.getString(1)));
        });
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
        return write("test access", work);
    }

    private static void lockClaims(Tx tx, String kind) throws SQLException {
        tx.first("lock.claims", row -> Boolean.TRUE, kind);
    }
}
