package dev.mnemo.spi;

import dev.mnemo.MemoryMode;
import dev.mnemo.ModelFailure;
import dev.mnemo.MemoryStatus;
import dev.mnemo.Phase1Preview;
import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.ThreadInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The pipeline's state: threads, stage-1 memories and jobs with leases. The semantics are Codex's
 * state database ({@code codex-rs/state/src/runtime/memories.rs}); Mnemo forgets harder (see
 * {@link #markThreadPolluted}).
 *
 * <p>Implementations must be safe for several threads and for several processes sharing one store:
 * a claim is atomic, and every completion is guarded by the ownership token the claim returned, so
 * a worker that lost its lease changes nothing. Every method takes the current time as
 * {@code now} so leases, windows and backoffs follow the engine's {@link java.time.Clock}. Times in
 * {@code stage1_outputs} and {@code jobs} have whole-second precision.
 *
 * <p>Failures are {@link dev.mnemo.MemoryStoreException}s naming the database.
 */
public interface MemoryStore extends AutoCloseable {

    // ---- threads -------------------------------------------------------------------------------

    /**
     * Inserts or replaces a thread row, except that the stored memory mode is never loosened: the
     * row keeps the stricter of the stored and the given mode ({@code POLLUTED} over {@code DISABLED}
     * over {@code ENABLED}), decided atomically with the write. So a recorder or a rollout scan that
     * read the row before a concurrent {@link #setThreadMemoryMode} or {@link #markThreadPolluted}
     * cannot undo it; {@link #setThreadMemoryMode} is the only way to loosen a mode. A row upserted
     * as polluted loses its stage-1 memory as {@link #markThreadPolluted} does.
     */
    void upsertThread(ThreadInfo thread);

    Optional<ThreadInfo> thread(String threadId);

    /** All threads, most recently updated first. */
    List<ThreadInfo> threads();

    /**
     * Sets the memory mode. {@link MemoryMode#POLLUTED} behaves as {@link #markThreadPolluted}.
     *
     * @return false when no such thread exists
     */
    boolean setThreadMemoryMode(String threadId, MemoryMode mode, Instant now);

    /**
     * Marks the thread polluted and deletes its stage-1 memory. When that memory was part of the
     * last consolidation, Phase 2 is enqueued (even if the thread was already polluted) so the
     * workspace forgets it too.
     *
     * @return true if the mode changed
     */
    boolean markThreadPolluted(String threadId, Instant now);

    /**
     * Deletes the thread, its stage-1 memory and its Phase 1 job in one transaction; enqueues
     * Phase 2 when the memory was part of the last consolidation.
     *
     * @return true if a thread row was deleted
     */
    boolean deleteThread(String threadId, Instant now);

    // ---- the spawn graph (Codex's thread_spawn_edges) -------------------------------------------

    /**
     * Records the edge from {@code parentThreadId} to {@code childThreadId}, or replaces the child's
     * edge (parent and status both): the child is the key, so a thread has at most one parent.
     * {@link #deleteThread} removes every edge the thread is part of, as parent or as child.
     *
     * @throws UnsupportedOperationException when the store keeps no spawn graph (the default)
     */
    default void upsertSpawnEdge(String parentThreadId, String childThreadId, SpawnEdgeStatus status) {
        throw noSpawnGraph();
    }

    /**
     * Sets the status of the edge to {@code childThreadId}; a child with no edge is left alone.
     *
     * @return false when there was no such edge
     * @throws UnsupportedOperationException when the store keeps no spawn graph (the default)
     */
    default boolean setSpawnEdgeStatus(String childThreadId, SpawnEdgeStatus status) {
        throw noSpawnGraph();
    }

    /**
     * The direct children of {@code parentThreadId}, ordered by id (binary order), only those whose
     * edge has {@code status} when one is given.
     *
     * @throws UnsupportedOperationException when the store keeps no spawn graph (the default)
     */
    default List<String> spawnChildren(String parentThreadId, Optional<SpawnEdgeStatus> status) {
        throw noSpawnGraph();
    }

    /**
     * Every thread below {@code threadId}, breadth first: by depth, then by id. With a status, an
     * edge of another status is not walked, so it hides its whole subtree. Never returns
     * {@code threadId} itself, and ends even when the edges form a cycle.
     *
     * @throws UnsupportedOperationException when the store keeps no spawn graph (the default)
     */
    default List<String> spawnDescendants(String threadId, Optional<SpawnEdgeStatus> status) {
        throw noSpawnGraph();
    }

    /**
     * The thread that spawned {@code childThreadId}, whatever the edge's status.
     *
     * @throws UnsupportedOperationException when the store keeps no spawn graph (the default)
     */
    default Optional<String> spawnParent(String childThreadId) {
        throw noSpawnGraph();
    }

    private UnsupportedOperationException noSpawnGraph() {
        return new UnsupportedOperationException(getClass().getName() + " keeps no spawn graph "
                + "(thread_spawn_edges), so sub-agent threads cannot be listed, deleted or polluted with their parent");
    }

    // ---- Phase 1 -------------------------------------------------------------------------------

    /**
     * Claims up to {@code params.maxClaimed()} idle, enabled, out-of-date threads for extraction,
     * newest first, scanning at most {@code params.scanLimit()} candidates.
     */
    List<Stage1Claim> claimStage1Jobs(Stage1ClaimParams params, Instant now);

    /**
     * Read-only: what {@link #claimStage1Jobs} would do with the same arguments, for every
     * registered thread (most recently updated first) with the reason it would or would not be
     * claimed. Changes nothing.
     *
     * @throws UnsupportedOperationException when the store cannot explain its claims (the default)
     */
    default List<Phase1Preview.Candidate> previewStage1Claims(Stage1ClaimParams params, Instant now) {
        throw new UnsupportedOperationException(getClass().getName() + " does not implement previewStage1Claims, "
                + "so a Phase 1 dry run cannot explain its claims");
    }

    /**
     * Claims one thread's Phase 1 job for rollout version {@code sourceUpdatedAt}, atomically.
     *
     * @param maxRunning the cap on live running Phase 1 jobs across all workers
     */
    JobClaim tryClaimStage1Job(String threadId, String workerId, Instant sourceUpdatedAt, Duration lease,
            int maxRunning, Instant now);

    /**
     * Completes an owned job with a memory: stores it (never over a newer version) and enqueues
     * Phase 2.
     *
     * @return false when the caller no longer owns the job (nothing is written)
     */
    boolean markStage1Succeeded(String threadId, String ownershipToken, Instant sourceUpdatedAt, Stage1Result result,
            Instant now);

    /**
     * {@link #markStage1Succeeded(String, String, Instant, Stage1Result, Instant)}, the memory
     * stored as awaiting approval when {@code awaitingApproval} ({@code approval = "ask"}): such a
     * row is left out of {@link #phase2InputSelection} and {@link #listStage1OutputsForGlobal} until
     * {@link #approveStage1Output} approves it, and no Phase 2 is enqueued for it. A new version of
     * an approved memory stored as awaiting waits again.
     *
     * @throws UnsupportedOperationException for stores without approval (the default) when
     *     {@code awaitingApproval}
     */
    default boolean markStage1Succeeded(String threadId, String ownershipToken, Instant sourceUpdatedAt,
            Stage1Result result, Instant now, boolean awaitingApproval) {
        if (awaitingApproval) {
            throw new UnsupportedOperationException(getClass().getName() + " cannot keep memories for approval, so "
                    + "approval = \"ask\" is not available with it");
        }
        return markStage1Succeeded(threadId, ownershipToken, sourceUpdatedAt, result, now);
    }

    /** Stored memories awaiting approval, oldest {@code generatedAt} first. */
    default List<Stage1Output> stage1OutputsAwaitingApproval() {
        return List.of();
    }

    /**
     * Approves the stored memory of a thread if it is still version {@code sourceUpdatedAt} and
     * awaiting approval, and enqueues Phase 2.
     *
     * @return false when there was no such row (already decided, replaced, or forgotten)
     */
    default boolean approveStage1Output(String threadId, Instant sourceUpdatedAt, Instant now) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot keep memories for approval");
    }

    /** Keeps a note for approval. Ids are unique; adding an id twice fails. */
    default void addPendingNote(PendingNote note) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot keep notes for approval, so "
                + "approval = \"ask\" is not available with it");
    }

    /** Notes awaiting approval, oldest first. */
    default List<PendingNote> pendingNotes() {
        return List.of();
    }

    /**
     * Removes a pending note and returns it, atomically: of two servers deciding on one note, only
     * one gets it.
     */
    default Optional<PendingNote> takePendingNote(String id) {
        return Optional.empty();
    }

    /**
     * Removes every pending note whose {@link PendingNote#threadId()} is {@code threadId} and
     * returns them, oldest first as {@link #pendingNotes()} lists them, when that conversation is
     * forgotten (deleted, polluted or disabled).
     */
    default List<PendingNote> takePendingNotesOf(String threadId) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot remove the notes of a conversation");
    }

    /**
     * Records that a person rejected a note, so the same note from the same conversation is refused
     * from now on: {@code threadId} is the conversation ({@code ""} for a note asked for outside
     * any) and {@code textHash} the note's fingerprint (the engine's hash of its normalised text; the
     * store keeps no text). Recording a rejection twice keeps one.
     */
    default void addNoteRejection(String threadId, String textHash, Instant now) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot record rejected notes");
    }

    /** Whether {@link #addNoteRejection} recorded this conversation and fingerprint. */
    default boolean isNoteRejected(String threadId, String textHash) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot record rejected notes");
    }

    /**
     * Completes an owned job whose rollout held nothing worth remembering: deletes an older memory
     * (enqueueing Phase 2 only if one existed).
     */
    boolean markStage1SucceededNoOutput(String threadId, String ownershipToken, Instant now);

    /** Fails an owned job: one fewer retry, no new attempt before {@code now + retryDelay}. */
    boolean markStage1Failed(String threadId, String ownershipToken, String reason, Duration retryDelay, Instant now);

    /**
     * Releases an owned job whose model call failed for a reason that is not the rollout's fault
     * (see {@link ModelFailure}): no new attempt before {@code now + retryDelay}, but the job keeps
     * every retry it had (Codex's retry budget is for bad extractions). {@code failure} becomes the
     * store's last model failure, shown by {@link #status}'s {@link MemoryStatus#lastModelFailure()}
     * until a Phase 1 job next succeeds ({@link #markStage1Succeeded} or
     * {@link #markStage1SucceededNoOutput}) or {@link #clearMemoryData} runs, and the job's
     * {@code last_error} is {@link ModelFailure#describe()}.
     *
     * <p>The default, for stores written before this method, is {@link #markStage1Failed}: it spends
     * a retry and records no model failure. Stores should override it.
     *
     * @return false when the caller no longer owns the job (nothing is written)
     */
    default boolean releaseStage1AfterModelFailure(String threadId, String ownershipToken, ModelFailure failure,
            Duration retryDelay, Instant now) {
        return markStage1Failed(threadId, ownershipToken, failure.describe(), retryDelay, now);
    }

    /** The stored stage-1 memory of a thread. */
    Optional<Stage1Output> stage1Output(String threadId);

    // ---- Phase 2 -------------------------------------------------------------------------------

    /** Claims the global consolidation lock (cooldown, backoff and stale-lease rules of Codex). */
    JobClaim tryClaimPhase2Job(String workerId, Duration lease, Instant now);

    /**
     * Claims the global consolidation lock for work that must not wait: making a forget take
     * effect, or an operator's "consolidate now". The rules of {@link #tryClaimPhase2Job} less the
     * success cooldown and the retry backoff: a live lease held by another worker still wins
     * ({@code SKIPPED_RUNNING}), and a stale one is taken over with the same guard.
     */
    default JobClaim tryClaimPhase2JobNow(String workerId, Duration lease, Instant now) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot claim Phase 2 past its cooldown, so "
                + "a forget takes effect in the workspace only at the next consolidation");
    }

    /** Extends an owned Phase 2 lease; false when ownership was lost. */
    boolean heartbeatPhase2Job(String ownershipToken, Duration lease, Instant now);

    /**
     * Completes an owned consolidation: the job is done, the watermark advances, and the selection
     * flags are replaced by exactly {@code selected} (a row refreshed since is not marked).
     */
    boolean markPhase2Succeeded(String ownershipToken, long completedWatermark, List<SelectedInput> selected,
            Instant now);

    /** Fails an owned consolidation with a backoff of {@code retryDelay}. */
    boolean markPhase2Failed(String ownershipToken, String reason, Duration retryDelay, Instant now);

    /**
     * Like {@link #markPhase2Failed}, but also matches a running job whose token was lost
     * ({@code NULL}), so a stuck row can always be recovered.
     */
    boolean markPhase2FailedIfUnowned(String ownershipToken, String reason, Duration retryDelay, Instant now);

    /** Queues a consolidation; the input watermark only moves forward. */
    void enqueuePhase2(long inputWatermark);

    /**
     * The top {@code limit} memories for consolidation, ranked by usage, recency of use and of the
     * rollout, excluding memories unused for {@code maxUnusedDays}, memories awaiting approval and
     * threads that are not enabled; read in one transaction, no duplicates, sorted by thread id.
     */
    List<Stage1Output> phase2InputSelection(int limit, int maxUnusedDays, Instant now);

    /** Non-empty, approved memories of enabled threads, newest rollout first (Codex's list for global). */
    List<Stage1Output> listStage1OutputsForGlobal(int limit);

    /** Replaces the selection flags with exactly {@code selected}, outside a Phase 2 run (rollback). */
    void replacePhase2Selection(List<SelectedInput> selected);

    // ---- forgetting ----------------------------------------------------------------------------

    /**
     * Records that a consolidation committed at {@code at} used the memories of {@code threadIds},
     * keeping the earliest time already recorded for a thread. Written for every selected thread
     * of each successful consolidation, before its files are committed, so a forget never has to
     * conclude from the kept workspace history alone (which {@code history_retention} trims) that a
     * thread's text is in no file. Thread deletion does not remove the record: the forget reads it.
     *
     * @throws UnsupportedOperationException for stores that keep no such record (the default)
     */
    default void recordConsolidatedThreads(Collection<String> threadIds, Instant at) {
        throw noForgetLedger();
    }

    /**
     * When the first consolidation that used {@code threadId} was committed, as recorded by
     * {@link #recordConsolidatedThreads}; empty when no recorded consolidation used it. A store
     * upgraded from a version without the record reports {@link Instant#EPOCH} for each memory that
     * was selected then: older than any kept history, so a forget of it restores an empty folder.
     *
     * @throws UnsupportedOperationException for stores that keep no such record (the default)
     */
    default Optional<Instant> firstConsolidated(String threadId) {
        throw noForgetLedger();
    }

    /**
     * Durably notes that the workspace must still drop what it holds of {@code threadId}: the
     * memory was forgotten in the store, the files and history may still hold its text. Survives a
     * failed consolidation and a dead process; every Phase 2 run completes the pending forgets
     * before anything else and after its last write.
     *
     * @throws UnsupportedOperationException for stores that keep no such record (the default)
     */
    default void addPendingForget(String threadId, Instant now) {
        throw noForgetLedger();
    }

    /** The threads whose forget the workspace has not completed yet (see {@link #addPendingForget}). */
    default Set<String> pendingForgets() {
        return Set.of();
    }

    /**
     * The workspace no longer holds anything of {@code threadIds}: their pending forgets and their
     * consolidation records go.
     *
     * @throws UnsupportedOperationException for stores that keep no such record (the default)
     */
    default void completeForgets(Collection<String> threadIds) {
        throw noForgetLedger();
    }

    private UnsupportedOperationException noForgetLedger() {
        return new UnsupportedOperationException(getClass().getName() + " keeps no record of consolidated threads "
                + "or pending forgets, so a forget relies on the kept workspace history alone");
    }

    // ---- read-path feedback, retention, maintenance ---------------------------------------------

    /**
     * Counts one citation per id (duplicates count each time); unknown ids are ignored.
     *
     * @return rows updated
     */
    int recordUsage(List<String> threadIds, Instant now);

    /**
     * Deletes up to {@code limit} memories not used (or, never used, not refreshed) for
     * {@code maxUnusedDays}, oldest first, never one in the last consolidation.
     *
     * @return rows deleted
     */
    int pruneStage1Outputs(int maxUnusedDays, int limit, Instant now);

    /**
     * {@link #pruneStage1Outputs(int, int, Instant)}, never deleting the memory of a thread in
     * {@code keep}: the threads a kept consolidation used. A forget restores the files to the
     * state before a forgotten thread's first use, and the next consolidation brings back the
     * memories consolidated since from their stage-1 outputs, so those must still be there.
     *
     * @throws UnsupportedOperationException for stores that cannot keep them (the default, unless
     *     {@code keep} is empty)
     */
    default int pruneStage1Outputs(int maxUnusedDays, int limit, Instant now, Set<String> keep) {
        if (keep.isEmpty()) {
            return pruneStage1Outputs(maxUnusedDays, limit, now);
        }
        throw new UnsupportedOperationException(getClass().getName() + " cannot spare the memories a kept "
                + "consolidation used from retention");
    }

    /**
     * Releases every job {@code workerId} holds as failed-for-retry (no backoff, no retry spent), so
     * another worker can take it at once. Used when an engine closes with work still running.
     *
     * @return jobs released
     */
    int releaseJobs(String workerId, String reason, Instant now);

    /** Deletes every stage-1 memory and every memory job; thread rows and their modes stay. */
    void clearMemoryData();

    /** Job counts, leases, last consolidation, thread counts (no startup skip reason: the engine adds it). */
    MemoryStatus status(Instant now);

    /**
     * {@link #status(Instant)} with {@link MemoryStatus#unusedMemories()}: the stored memories of
     * enabled threads outside the {@code maxUnusedDays} window of the Phase 2 selection. The default
     * leaves that figure unknown; stores override it with one query.
     */
    default MemoryStatus status(Instant now, int maxUnusedDays) {
        return status(now);
    }

    /**
     * The thread goals kept beside this store (the SQLite store keeps them in their own file,
     * {@code goals.sqlite}, opened on first use and closed with the store). The default has none.
     *
     * @throws UnsupportedOperationException when this store keeps no goals
     */
    default GoalStore goals() {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " keeps no thread goals");
    }

    /**
     * The message history kept by this store, when it keeps one (fleet mode keeps it per tenant in
     * its database). The default is empty: the engine keeps {@code <home>/history.jsonl} itself.
     */
    default Optional<HistoryStore> messageHistory() {
        return Optional.empty();
    }

    /**
     * The thread logs kept by this store, when it keeps them (fleet mode keeps them per tenant in its
     * database); the engine writes them through its bounded queue and closes them with itself. The
     * default is empty: an engine that opened its store itself keeps them beside it
     * ({@link MemoryStoreProvider#openThreadLogs}), any other keeps none.
     */
    default Optional<ThreadLogStore> threadLogs() {
        return Optional.empty();
    }

    @Override
    void close();
}
