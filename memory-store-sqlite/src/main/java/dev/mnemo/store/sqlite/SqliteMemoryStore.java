package dev.mnemo.store.sqlite;

import static dev.mnemo.store.sqlite.JobKinds.seconds;

import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryStatus;
import dev.mnemo.ModelFailure;
import dev.mnemo.Phase1Preview;
import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.GoalStore;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.PendingNote;
import dev.mnemo.spi.Phase2ClaimPolicy;
import dev.mnemo.spi.SelectedInput;
import dev.mnemo.spi.Stage1Claim;
import dev.mnemo.spi.Stage1ClaimParams;
import dev.mnemo.spi.Stage1Output;
import dev.mnemo.spi.Stage1Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default {@link MemoryStore}: one SQLite file holding Codex's {@code threads},
 * {@code stage1_outputs} and {@code jobs} tables, migrated by Flyway from this module's own
 * classpath location into its own history table ({@code mnemo_schema_history}).
 *
 * <p>Every connection runs with WAL, {@code synchronous=NORMAL}, a 10 s busy timeout, foreign
 * keys and {@code secure_delete=ON}. Each operation borrows a connection from a small pool;
 * writes are single {@code BEGIN IMMEDIATE} transactions, so several threads and several
 * processes can share the file. After a forget (pollution, delete, clear) the WAL is
 * checkpointed and truncated, best effort, so the forgotten text does not linger in it.
 *
 * <p>Approval ({@code approval = "ask"}): a memory stored awaiting approval keeps a flag on its
 * {@code stage1_outputs} row until approved; notes awaiting approval have their own table. Such a
 * memory counts in {@link MemoryStatus#stage1Outputs()} (it is stored) but not in
 * {@link MemoryStatus#unusedMemories()}, and {@link #pruneStage1Outputs} never deletes it: it waits
 * for a person, not for a citation. Forgetting its thread deletes it as any memory.
 *
 * <p>A file that is not an SQLite database is refused with a {@link dev.mnemo.MemoryStoreException}
 * and left untouched; so is every later SQL failure, naming the file.
 */
public final class SqliteMemoryStore implements MemoryStore {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteMemoryStore.class);

    /**
     * Phase 1 claims made in one write transaction at most: a few milliseconds of the write lock,
     * so other writers (also in other processes) wait no longer than for a few of their own turns.
     */
    static final int CLAIMS_PER_TRANSACTION = 32;

    private final SqliteDatabase database;
    /** {@code goals.sqlite}, opened by the first {@link #goals()}; null until then. */
    private SqliteGoalStore goals;

    private SqliteMemoryStore(SqliteDatabase database) {
        this.database = database;
    }

    /**
     * Does now, on the calling thread, the one-time work of a JVM's first SQLite connection:
     * loading sqlite-jdbc's native library (from Mnemo's verified per-user copy) and the driver's
     * classes. For applications that start up on several threads and want it done while they do
     * other work (the {@code mnemo} CLI calls it on a warm-up thread while it parses its
     * arguments). Idempotent and thread-safe; never fails: a problem is met again, and reported,
     * by the first {@link #open}. Opening a store needs no call.
     */
    public static void preload() {
        SqliteNativeLibrary.preload();
    }

    /**
     * Opens the state database at {@code dbFile}, creating the file and its folder when missing
     * and migrating the schema to the newest version.
     *
     * @throws dev.mnemo.MemoryStoreException when the file is not an SQLite database, cannot be
     *     opened, or cannot be migrated
     */
    public static SqliteMemoryStore open(Path dbFile) {
        Objects.requireNonNull(dbFile, "dbFile");
        SqliteMemoryStore store = new SqliteMemoryStore(SqliteDatabase.open(dbFile));
        LOG.debug("opened state database {}", store.database.file());
        return store;
    }

    /**
     * Opens an existing state database for reading only: no folder or file is created, no
     * migration runs, and every write fails. Its goals are read from {@code goals.sqlite} only when
     * that file exists ({@link #goals()} otherwise says the store keeps none).
     *
     * @throws dev.mnemo.MemoryStoreException when the file does not exist or is not an SQLite database
     */
    public static SqliteMemoryStore openReadOnly(Path dbFile) {
        Objects.requireNonNull(dbFile, "dbFile");
        SqliteMemoryStore store = new SqliteMemoryStore(SqliteDatabase.openReadOnly(dbFile, SqliteDatabase.STATE));
        LOG.debug("opened state database {} read-only", store.database.file());
        return store;
    }

    /** The database file. */
    public Path file() {
        return database.file();
    }

    // ---- threads -------------------------------------------------------------------------------

    /**
     * {@inheritDoc}
     *
     * <p>The stored memory mode is never loosened: the row keeps the stricter of the stored and the
     * new mode, decided inside the one {@code INSERT … ON CONFLICT DO UPDATE} statement (use {@link
     * #setThreadMemoryMode} to loosen it deliberately); a row upserted as polluted loses its stage-1
     * memory as {@link #markThreadPolluted} does.
     */
    @Override
    public void upsertThread(ThreadInfo thread) {
        Objects.requireNonNull(thread, "thread");
        boolean forgot = database.write("upsert thread " + thread.id(), connection -> {
            MemoryMode mode = ThreadQueries.upsert(connection, thread);
            return mode == MemoryMode.POLLUTED && Stage1OutputQueries.forget(connection, thread.id(), thread.updatedAt());
        });
        if (forgot) {
            database.checkpointBestEffort();
        }
    }

    @Override
    public Optional<ThreadInfo> thread(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return database.read("read thread " + threadId, connection -> ThreadQueries.find(connection, threadId));
    }

    @Override
    public List<ThreadInfo> threads() {
        return database.read("list threads", ThreadQueries::all);
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
        return database.write("set memory mode of thread " + threadId,
                connection -> ThreadQueries.setMode(connection, threadId, mode)) > 0;
    }

    @Override
    public boolean markThreadPolluted(String threadId, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(now, "now");
        boolean changed = database.write("mark thread " + threadId + " polluted", connection -> {
            boolean modeChanged = ThreadQueries.markPolluted(connection, threadId);
            Stage1OutputQueries.forget(connection, threadId, now);
            return modeChanged;
        });
        database.checkpointBestEffort();
        return changed;
    }

    @Override
    public boolean deleteThread(String threadId, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(now, "now");
        boolean deleted = database.write("delete thread " + threadId, connection -> {
            Stage1OutputQueries.forget(connection, threadId, now);
            Stage1JobQueries.delete(connection, threadId);
            SpawnEdgeQueries.deleteEdgesOf(connection, threadId);
            return ThreadQueries.delete(connection, threadId);
        });
        database.checkpointBestEffort();
        return deleted;
    }

    // ---- the spawn graph ---------------------------------------------------------------------------

    @Override
    public void upsertSpawnEdge(String parentThreadId, String childThreadId, SpawnEdgeStatus status) {
        Objects.requireNonNull(parentThreadId, "parentThreadId");
        Objects.requireNonNull(childThreadId, "childThreadId");
        Objects.requireNonNull(status, "status");
        database.write("upsert spawn edge " + parentThreadId + " -> " + childThreadId,
                connection -> {
                    SpawnEdgeQueries.upsert(connection, parentThreadId, childThreadId, status);
                    return null;
                });
    }

    @Override
    public boolean setSpawnEdgeStatus(String childThreadId, SpawnEdgeStatus status) {
        Objects.requireNonNull(childThreadId, "childThreadId");
        Objects.requireNonNull(status, "status");
        return database.write("set spawn edge status of " + childThreadId,
                connection -> SpawnEdgeQueries.setStatus(connection, childThreadId, status));
    }

    @Override
    public List<String> spawnChildren(String parentThreadId, Optional<SpawnEdgeStatus> status) {
        return listEdges("children", parentThreadId, status, SpawnEdgeQueries::children);
    }

    @Override
    public List<String> spawnDescendants(String threadId, Optional<SpawnEdgeStatus> status) {
        return listEdges("descendants", threadId, status, SpawnEdgeQueries::descendants);
    }

    /** One spawn-graph listing below {@code threadId}. */
    @FunctionalInterface
    private interface EdgeListing {
        List<String> list(PooledConnection connection, String threadId, Optional<SpawnEdgeStatus> status)
                throws java.sql.SQLException;
    }

    private List<String> listEdges(String what, String threadId, Optional<SpawnEdgeStatus> status,
            EdgeListing listing) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(status, "status");
        return database.read("list spawn " + what + " of " + threadId,
                connection -> listing.list(connection, threadId, status));
    }

    @Override
    public Optional<String> spawnParent(String childThreadId) {
        Objects.requireNonNull(childThreadId, "childThreadId");
        return database.read("read spawn parent of " + childThreadId,
                connection -> SpawnEdgeQueries.parent(connection, childThreadId));
    }

    // ---- Phase 1 -------------------------------------------------------------------------------

    @Override
    public List<Stage1Claim> claimStage1Jobs(Stage1ClaimParams params, Instant now) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(now, "now");
        if (params.scanLimit() == 0 || params.maxClaimed() == 0 || params.allowedSources().isEmpty()) {
            return List.of();
        }
        // One streamed read: each candidate arrives with its up-to-date flag (no query per candidate)
        // and the scan stops once enough jobs are claimed. Candidates are claimed in batches of at
        // most CLAIMS_PER_TRANSACTION, each batch one write transaction on another connection that
        // re-checks every candidate, so a row extracted since the scan is skipped. A batch saves a
        // commit per claim while holding SQLite's write lock only for its claims, never through the
        // scan: one write transaction around the whole scan would hold it also through scans that
        // claim nothing, and another process's completions then lose to a worker that keeps
        // claiming, past the busy timeout (TwoProcessClaimTest).
        List<Stage1Claim> claimed = new ArrayList<>();
        List<ThreadInfo> batch = new ArrayList<>();
        int[] scanned = {0};
        database.read("scan Phase 1 candidates", connection -> {
            ThreadQueries.forEachClaimCandidate(connection, params, now, candidate -> {
                scanned[0]++;
                if (candidate.upToDate()) {
                    return true;
                }
                batch.add(candidate.thread());
                if (claimed.size() + batch.size() < params.maxClaimed() && batch.size() < CLAIMS_PER_TRANSACTION) {
                    return true;
                }
                claimed.addAll(claimBatch(batch, params, now));
                batch.clear();
                return claimed.size() < params.maxClaimed();
            });
            return null;
        });
        if (!batch.isEmpty()) {
            claimed.addAll(claimBatch(batch, params, now));
        }
        LOG.debug("Phase 1 claim by {}: {} candidates scanned, {} claimed", params.workerId(), scanned[0],
                claimed.size());
        return List.copyOf(claimed);
    }

    /** Claims each of {@code threads} that can still be claimed, in one write transaction. */
    private List<Stage1Claim> claimBatch(List<ThreadInfo> threads, Stage1ClaimParams params, Instant now) {
        return database.write("claim " + threads.size() + " Phase 1 jobs", connection -> Stage1JobQueries.tryClaimAll(
                connection, threads, params.workerId(), params.lease(), params.maxClaimed(), now));
    }

    @Override
    public List<Phase1Preview.Candidate> previewStage1Claims(Stage1ClaimParams params, Instant now) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(now, "now");
        return List.copyOf(database.readSnapshot("preview Phase 1 claims",
                connection -> Stage1ClaimPreview.preview(connection, params, now)));
    }

    @Override
    public JobClaim tryClaimStage1Job(String threadId, String workerId, Instant sourceUpdatedAt, Duration lease,
            int maxRunning, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(workerId, "workerId");
        Objects.requireNonNull(sourceUpdatedAt, "sourceUpdatedAt");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(now, "now");
        return database.write("claim Phase 1 job of thread " + threadId, connection -> Stage1JobQueries.tryClaim(
                connection, threadId, workerId, sourceUpdatedAt, lease, maxRunning, now));
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
        return database.write("complete Phase 1 job of thread " + threadId, connection -> {
            if (!Stage1JobQueries.markDone(connection, threadId, ownershipToken, now)) {
                return false;
            }
            if (Stage1OutputQueries.upsert(connection, threadId, sourceUpdatedAt, result, awaitingApproval, now) == 0) {
                LOG.debug("memory of thread {} not stored: a newer version exists or the thread is polluted",
                        threadId);
            } else if (awaitingApproval) {
                LOG.debug("memory of thread {} stored awaiting approval; no consolidation queued", threadId);
            } else {
                Phase2JobQueries.enqueue(connection, seconds(sourceUpdatedAt));
            }
            return true;
        });
    }

    @Override
    public List<Stage1Output> stage1OutputsAwaitingApproval() {
        return database.read("list memories awaiting approval", Stage1OutputQueries::awaitingApproval);
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
        return database.write("approve memory of thread " + threadId, connection -> {
            if (!Stage1OutputQueries.approve(connection, threadId, sourceUpdatedAt)) {
                return false;
            }
            Phase2JobQueries.enqueue(connection, seconds(sourceUpdatedAt));
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
        if (!database.write("keep note " + note.id() + " for approval",
                connection -> PendingNoteQueries.add(connection, note))) {
            throw new IllegalArgumentException("a note awaiting approval already has id '" + note.id() + "'");
        }
    }

    /** {@inheritDoc} Notes made in the same second come in id order. */
    @Override
    public List<PendingNote> pendingNotes() {
        return database.read("list notes awaiting approval", PendingNoteQueries::all);
    }

    @Override
    public Optional<PendingNote> takePendingNote(String id) {
        Objects.requireNonNull(id, "id");
        Optional<PendingNote> taken = database.write("take note " + id + " awaiting approval",
                connection -> PendingNoteQueries.take(connection, id));
        if (taken.isPresent()) {
            database.checkpointBestEffort(); // a rejected note's text should not linger in the WAL
        }
        return taken;
    }

    @Override
    public List<PendingNote> takePendingNotesOf(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        List<PendingNote> taken = database.write("take the notes of thread " + threadId + " awaiting approval",
                connection -> PendingNoteQueries.takeOf(connection, threadId));
        if (!taken.isEmpty()) {
            database.checkpointBestEffort(); // a forgotten conversation's notes should not linger in the WAL
        }
        return taken;
    }

    @Override
    public void addNoteRejection(String threadId, String textHash, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(textHash, "textHash");
        Objects.requireNonNull(now, "now");
        database.write("record a rejected note of thread '" + threadId + "'", connection -> {
            PendingNoteQueries.addRejection(connection, threadId, textHash, now);
            return null;
        });
    }

    @Override
    public boolean isNoteRejected(String threadId, String textHash) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(textHash, "textHash");
        return database.read("look up a rejected note", connection -> PendingNoteQueries.isRejected(connection,
                threadId, textHash));
    }

    @Override
    public boolean markStage1SucceededNoOutput(String threadId, String ownershipToken, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(now, "now");
        return database.write("complete Phase 1 job of thread " + threadId + " without output", connection -> {
            if (!Stage1JobQueries.markDone(connection, threadId, ownershipToken, now)) {
                return false;
            }
            long watermark = Stage1JobQueries.inputWatermark(connection, threadId).orElse(seconds(now));
            if (Stage1OutputQueries.delete(connection, threadId).deleted()) {
                Phase2JobQueries.enqueue(connection, watermark);
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
        return database.write("fail Phase 1 job of thread " + threadId, connection -> Stage1JobQueries.markFailed(
                connection, threadId, ownershipToken, reason, retryDelay, now));
    }

    @Override
    public boolean releaseStage1AfterModelFailure(String threadId, String ownershipToken, ModelFailure failure,
            Duration retryDelay, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(failure, "failure");
        Objects.requireNonNull(retryDelay, "retryDelay");
        Objects.requireNonNull(now, "now");
        return database.write("release Phase 1 job of thread " + threadId + " after a model failure",
                connection -> Stage1JobQueries.releaseAfterModelFailure(connection, threadId, ownershipToken, failure,
                        retryDelay, now));
    }

    @Override
    public Optional<Stage1Output> stage1Output(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return database.read("read memory of thread " + threadId,
                connection -> Stage1OutputQueries.find(connection, threadId));
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
        return database.write(pastCooldown ? "claim the Phase 2 lock past its cooldown" : "claim the Phase 2 lock",
                connection -> Phase2JobQueries.tryClaim(connection, workerId, lease, now, pastCooldown));
    }

    @Override
    public boolean heartbeatPhase2Job(String ownershipToken, Duration lease, Instant now) {
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(now, "now");
        return database.write("extend the Phase 2 lease",
                connection -> Phase2JobQueries.heartbeat(connection, ownershipToken, lease, now));
    }

    @Override
    public boolean markPhase2Succeeded(String ownershipToken, long completedWatermark, List<SelectedInput> selected,
            Instant now) {
        Objects.requireNonNull(ownershipToken, "ownershipToken");
        List<SelectedInput> inputs = List.copyOf(Objects.requireNonNull(selected, "selected"));
        Objects.requireNonNull(now, "now");
        return database.write("complete Phase 2", connection -> {
            if (!Phase2JobQueries.markSucceeded(connection, ownershipToken, completedWatermark, now)) {
                return false;
            }
            Stage1OutputQueries.replaceSelection(connection, inputs);
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
        return database.write("fail Phase 2", connection -> Phase2JobQueries.markFailed(connection, ownershipToken,
                reason, retryDelay, now, unownedToo));
    }

    @Override
    public void enqueuePhase2(long inputWatermark) {
        database.write("queue Phase 2", connection -> {
            Phase2JobQueries.enqueue(connection, inputWatermark);
            return null;
        });
    }

    @Override
    public List<Stage1Output> phase2InputSelection(int limit, int maxUnusedDays, Instant now) {
        Objects.requireNonNull(now, "now");
        return database.read("select Phase 2 inputs",
                connection -> Stage1OutputQueries.phase2Selection(connection, limit, maxUnusedDays, now));
    }

    @Override
    public List<Stage1Output> listStage1OutputsForGlobal(int limit) {
        return database.read("list memories", connection -> Stage1OutputQueries.listForGlobal(connection, limit));
    }

    @Override
    public void replacePhase2Selection(List<SelectedInput> selected) {
        List<SelectedInput> inputs = List.copyOf(Objects.requireNonNull(selected, "selected"));
        database.write("replace the Phase 2 selection", connection -> {
            Stage1OutputQueries.replaceSelection(connection, inputs);
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
        database.write("record consolidated threads", connection -> {
            ForgetQueries.recordConsolidated(connection, ids, at);
            return null;
        });
    }

    @Override
    public Optional<Instant> firstConsolidated(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        return database.read("read the first consolidation of thread " + threadId,
                connection -> ForgetQueries.firstConsolidated(connection, threadId));
    }

    @Override
    public void addPendingForget(String threadId, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(now, "now");
        database.write("record a pending forget of thread " + threadId, connection -> {
            ForgetQueries.addPending(connection, threadId, now);
            return null;
        });
    }

    @Override
    public Set<String> pendingForgets() {
        return Set.copyOf(database.read("read pending forgets", ForgetQueries::pending));
    }

    @Override
    public void completeForgets(Collection<String> threadIds) {
        List<String> ids = List.copyOf(Objects.requireNonNull(threadIds, "threadIds"));
        if (ids.isEmpty()) {
            return;
        }
        database.write("complete forgets", connection -> {
            ForgetQueries.complete(connection, ids);
            return null;
        });
    }

    // ---- read-path feedback, retention, maintenance ---------------------------------------------

    @Override
    public int recordUsage(List<String> threadIds, Instant now) {
        List<String> ids = List.copyOf(Objects.requireNonNull(threadIds, "threadIds"));
        Objects.requireNonNull(now, "now");
        if (ids.isEmpty()) {
            return 0;
        }
        return database.write("record memory usage", connection -> Stage1OutputQueries.recordUsage(connection, ids,
                now));
    }

    @Override
    public int pruneStage1Outputs(int maxUnusedDays, int limit, Instant now) {
        Objects.requireNonNull(now, "now");
        int pruned = database.write("prune memories",
                connection -> Stage1OutputQueries.prune(connection, maxUnusedDays, limit, now));
        if (pruned > 0) {
            LOG.info("pruned {} stage-1 memories unused for {} days", pruned, maxUnusedDays);
        }
        return pruned;
    }

    @Override
    public int pruneStage1Outputs(int maxUnusedDays, int limit, Instant now, Set<String> keep) {
        Objects.requireNonNull(now, "now");
        Set<String> spared = Set.copyOf(Objects.requireNonNull(keep, "keep"));
        int pruned = database.write("prune memories",
                connection -> Stage1OutputQueries.prune(connection, maxUnusedDays, limit, now, spared));
        if (pruned > 0) {
            LOG.info("pruned {} stage-1 memories unused for {} days (sparing {} a kept consolidation used)", pruned,
                    maxUnusedDays, spared.size());
        }
        return pruned;
    }

    @Override
    public int releaseJobs(String workerId, String reason, Instant now) {
        Objects.requireNonNull(workerId, "workerId");
        Objects.requireNonNull(reason, "reason");
        Objects.requireNonNull(now, "now");
        int released = database.write("release jobs of " + workerId,
                connection -> JobQueries.release(connection, workerId, reason, now));
        if (released > 0) {
            LOG.info("released {} running jobs of worker {}: {}", released, workerId, reason);
        }
        return released;
    }

    /** {@inheritDoc} Notes awaiting approval are deleted too. */
    @Override
    public void clearMemoryData() {
        database.write("clear memory data", connection -> {
            Stage1OutputQueries.deleteAll(connection);
            JobQueries.deleteMemoryJobs(connection);
            Stage1JobQueries.clearModelFailure(connection);
            PendingNoteQueries.deleteAll(connection);
            ForgetQueries.deleteAll(connection);
            return null;
        });
        database.checkpointBestEffort();
        LOG.info("cleared every stage-1 memory, memory job and note awaiting approval in {}", database.file());
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
        return database.readSnapshot("read status", connection -> {
            Optional<Phase2ClaimPolicy.JobRow> phase2 = Phase2JobQueries.row(connection);
            OptionalInt unused = maxUnusedDays.isPresent()
                    ? OptionalInt.of(Stage1OutputQueries.countUnused(connection, maxUnusedDays.getAsInt(), now))
                    : OptionalInt.empty();
            return new MemoryStatus(JobQueries.countsByKind(connection), JobQueries.runningLeases(connection),
                    Phase2JobQueries.lastSuccessAt(connection).or(() -> phase2.flatMap(Phase2ClaimPolicy::lastSuccess)),
                    phase2.map(Phase2ClaimPolicy.JobRow::lastError), ThreadQueries.countsByMode(connection),
                    Stage1OutputQueries.count(connection), Optional.empty(), now, Map.of(),
                    Stage1JobQueries.lastModelFailure(connection), unused,
                    phase2.flatMap(row -> Phase2ClaimPolicy.notBefore(row, now)), ForgetQueries.pending(connection));
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>Here: {@code goals.sqlite} beside the state database, a file of its own (as Codex keeps
     * {@code goals_1.sqlite}) so goal writes never wait for the state's writer; opened on first use.
     */
    @Override
    public synchronized GoalStore goals() {
        if (goals == null) {
            Path file = database.file().resolveSibling(SqliteGoalStore.FILE_NAME);
            if (database.readOnly()) {
                if (!Files.isRegularFile(file)) {
                    throw new UnsupportedOperationException("no goals in " + file.getParent() + " (" + file.getFileName()
                            + " does not exist; this store is open read-only)");
                }
                goals = SqliteGoalStore.openReadOnly(file, Clock.systemUTC());
                return goals;
            }
            goals = SqliteGoalStore.open(file, Clock.systemUTC());
            LOG.debug("opened goals database {}", goals.file());
        }
        return goals;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (goals != null) {
                goals.close();
            }
        }
        database.close();
        LOG.debug("closed state database {}", database.file());
    }

    @Override
    public String toString() {
        return "SqliteMemoryStore[" + database.file() + "]";
    }

    /** For this package's tests: runs {@code work} on one of the store's own connections. */
    <T> T onConnection(SqliteDatabase.Work<T> work) {
        return database.read("test access", work);
    }
}
