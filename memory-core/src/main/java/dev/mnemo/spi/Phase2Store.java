package dev.mnemo.spi;

import dev.mnemo.SelectionPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Phase 2's state: the global consolidation lock with its lease, watermark and backoff, and the
 * selection of stage-1 memories a consolidation uses.
 *
 * <p>One role of a {@link MemoryStore}: a store implements it as part of the composite, and a
 * component that needs only this role asks for only this interface. The rules of the composite
 * apply (safe for several threads and processes; {@code now} is the engine's clock; failures are
 * {@link dev.mnemo.MemoryStoreException}s).
 */
public interface Phase2Store {

    /**
     * Claims the global consolidation lock (cooldown, backoff and stale-lease rules of Codex).
     *
     * @param workerId the claiming worker, recorded as the lock's owner
     * @param lease how long the claim holds before another worker may take the lock over
     * @param now the current time on the engine's clock
     * @return the claim, or why the lock was not claimed
     */
    JobClaim tryClaimPhase2Job(String workerId, Duration lease, Instant now);

    /**
     * Claims the global consolidation lock for work that must not wait: making a forget take
     * effect, or an operator's "consolidate now". The rules of {@link #tryClaimPhase2Job} less the
     * success cooldown and the retry backoff: a live lease held by another worker still wins
     * ({@code SKIPPED_RUNNING}), and a stale one is taken over with the same guard.
     *
     * @param workerId the claiming worker, recorded as the lock's owner
     * @param lease how long the claim holds before another worker may take the lock over
     * @param now the current time on the engine's clock
     * @return the claim, or why the lock was not claimed
     * @throws UnsupportedOperationException when the store cannot claim past the cooldown (the default)
     */
    default JobClaim tryClaimPhase2JobNow(String workerId, Duration lease, Instant now) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot claim Phase 2 past its cooldown, so "
                + "a forget takes effect in the workspace only at the next consolidation");
    }

    /**
     * Extends an owned Phase 2 lease; false when ownership was lost.
     *
     * @param ownershipToken the token of the caller's claim on the lock
     * @param lease the new lease, counted from {@code now}
     * @param now the current time on the engine's clock
     * @return false when ownership was lost
     */
    boolean heartbeatPhase2Job(String ownershipToken, Duration lease, Instant now);

    /**
     * Completes an owned consolidation: the job is done, the watermark advances, and the selection
     * flags are replaced by exactly {@code selected} (a row refreshed since is not marked).
     *
     * @param ownershipToken the token of the caller's claim on the lock
     * @param completedWatermark the input watermark the consolidation covered; the stored one only moves forward
     * @param selected the memories the consolidation used
     * @param now the current time on the engine's clock
     * @return false when the caller no longer owns the lock (nothing is written)
     */
    boolean markPhase2Succeeded(String ownershipToken, long completedWatermark, List<SelectedInput> selected,
            Instant now);

    /**
     * Fails an owned consolidation with a backoff of {@code retryDelay}.
     *
     * @param ownershipToken the token of the caller's claim on the lock
     * @param reason why it failed, stored as the job's last error
     * @param retryDelay how long to wait before the next attempt
     * @param now the current time on the engine's clock
     * @return false when the caller no longer owns the lock (nothing is written)
     */
    boolean markPhase2Failed(String ownershipToken, String reason, Duration retryDelay, Instant now);

    /**
     * Like {@link #markPhase2Failed}, but also matches a running job whose token was lost
     * ({@code NULL}), so a stuck row can always be recovered.
     *
     * @param ownershipToken the token of the caller's claim on the lock, which the row may have lost
     * @param reason why it failed, stored as the job's last error
     * @param retryDelay how long to wait before the next attempt
     * @param now the current time on the engine's clock
     * @return false when another worker owns the lock (nothing is written)
     */
    boolean markPhase2FailedIfUnowned(String ownershipToken, String reason, Duration retryDelay, Instant now);

    /**
     * Queues a consolidation; the input watermark only moves forward.
     *
     * @param inputWatermark the newest input the consolidation must cover
     */
    void enqueuePhase2(long inputWatermark);

    /**
     * The top {@code limit} memories for consolidation, ranked by usage, recency of use and of the
     * rollout, excluding memories unused for {@code maxUnusedDays}, memories awaiting approval and
     * threads that are not enabled; read in one transaction, no duplicates, sorted by thread id.
     *
     * @param limit the most memories to select
     * @param maxUnusedDays how many days unused a memory may stay eligible
     * @param now the current time on the engine's clock
     * @return the selected memories, sorted by thread id; empty when none is eligible
     */
    List<Stage1Output> phase2InputSelection(int limit, int maxUnusedDays, Instant now);

    /**
     * Non-empty, approved memories of enabled threads, newest rollout first (Codex's list for global).
     *
     * @param limit the most memories to return
     * @return the memories, newest rollout first
     */
    List<Stage1Output> listStage1OutputsForGlobal(int limit);

    /**
     * Replaces the selection flags with exactly {@code selected}, outside a Phase 2 run (rollback).
     *
     * @param selected the memories to flag as selected; every other flag is cleared
     */
    void replacePhase2Selection(List<SelectedInput> selected);

    /**
     * The memories for consolidation under {@code params}' policy; eligibility, the single read
     * transaction and the thread-id order are those of {@link #phase2InputSelection(int, int, Instant)}.
     * {@link SelectionPolicy#CODEX} is exactly that method (the default does so);
     * {@link SelectionPolicy#FAIR} ranks the eligible memories with {@link FairSelection}.
     *
     * @param params the policy, limit and eligibility of the selection
     * @param now the current time on the engine's clock
     * @return the selected memories, sorted by thread id; empty when none is eligible
     * @throws UnsupportedOperationException for {@code FAIR} in a store that does not implement it
     *     (the default)
     */
    default List<Stage1Output> phase2InputSelection(Phase2SelectionParams params, Instant now) {
        if (params.policy() == SelectionPolicy.CODEX) {
            return phase2InputSelection(params.limit(), params.maxUnusedDays(), now);
        }
        throw new UnsupportedOperationException(getClass().getName() + " selects Phase 2 inputs by Codex's ranking "
                + "only, so selection_policy = \"fair\" needs a store that implements it (SQLite, PostgreSQL)");
    }
}
