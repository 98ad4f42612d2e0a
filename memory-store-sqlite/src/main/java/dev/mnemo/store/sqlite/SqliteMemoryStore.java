package dev.mnemo.store.sqlite;

import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryStatus;
import dev.mnemo.ModelFailure;
import dev.mnemo.Phase1Preview;
import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.GoalStore;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.PendingNote;
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
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
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
 *
 * <p>The store only gathers its roles, each a package-private class over the one
 * {@link SqliteDatabase}: {@link SqliteThreads}, {@link SqliteSpawnGraph}, {@link SqliteStage1},
 * {@link SqliteApprovals}, {@link SqlitePhase2}, {@link SqliteForgetLedger} and
 * {@link SqliteMaintenance}; every role method here hands its call to one of them.
 */
// Over 400 lines on purpose: fifty hand-offs of one line each, one per MemoryStore method (Java
// cannot generate delegation), with the Javadoc users of this public class read. The rules, their
// transactions and their SQL live in the role classes.
public final class SqliteMemoryStore implements MemoryStore {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteMemoryStore.class);

    private final SqliteDatabase database;
    private final SqliteThreads threads;
    private final SqliteSpawnGraph spawnGraph;
    private final SqliteStage1 stage1;
    private final SqliteApprovals approvals;
    private final SqlitePhase2 phase2;
    private final SqliteForgetLedger forgetLedger;
    private final SqliteMaintenance maintenance;
    /** {@code goals.sqlite}, opened by the first {@link #goals()}; null until then. */
    private SqliteGoalStore goals;

    private SqliteMemoryStore(SqliteDatabase database) {
        this.database = database;
        this.threads = new SqliteThreads(database);
        this.spawnGraph = new SqliteSpawnGraph(database);
        this.stage1 = new SqliteStage1(database);
        this.approvals = new SqliteApprovals(database);
        this.phase2 = new SqlitePhase2(database);
        this.forgetLedger = new SqliteForgetLedger(database);
        this.maintenance = new SqliteMaintenance(database);
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

    // ---- threads: SqliteThreads ----------------------------------------------------------------

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

    // ---- the spawn graph: SqliteSpawnGraph -----------------------------------------------------

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

    // ---- Phase 1: SqliteStage1 -----------------------------------------------------------------

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

    // ---- approval: SqliteApprovals -------------------------------------------------------------

    @Override
    public List<Stage1Output> stage1OutputsAwaitingApproval() {
        return approvals.stage1OutputsAwaitingApproval();
    }

    /**
     * {@inheritDoc}
     *
     * <p>Phase 2 is queued as a Phase 1 success queues it, with the memory's version as the input
     * watermark.
     */
    @Override
    public boolean approveStage1Output(String threadId, Instant sourceUpdatedAt, Instant now) {
        return approvals.approveStage1Output(threadId, sourceUpdatedAt, now);
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
        approvals.addPendingNote(note);
    }

    /** {@inheritDoc} Notes made in the same second come in id order. */
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

    // ---- Phase 2: SqlitePhase2 -----------------------------------------------------------------

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

    // ---- forgetting: SqliteForgetLedger --------------------------------------------------------

    @Override
    public void recordConsolidatedThreads(Collection<String> threadIds, Instant at) {
        forgetLedger.recordConsolidatedThreads(threadIds, at);
    }

    @Override
    public Optional<Instant> firstConsolidated(String threadId) {
        return forgetLedger.firstConsolidated(threadId);
    }

    @Override
    public void addPendingForget(String threadId, Instant now) {
        forgetLedger.addPendingForget(threadId, now);
    }

    @Override
    public Set<String> pendingForgets() {
        return forgetLedger.pendingForgets();
    }

    @Override
    public void completeForgets(Collection<String> threadIds) {
        forgetLedger.completeForgets(threadIds);
    }

    // ---- release, clear, status: SqliteMaintenance ---------------------------------------------

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

    // ---- beside the roles ----------------------------------------------------------------------

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
