package dev.mnemo.spi;

import dev.mnemo.DeadJob;
import dev.mnemo.MemoryStatus;
import dev.mnemo.ModelFailure;
import dev.mnemo.Phase1Preview;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Phase 1's state: the extraction jobs with their leases, the stage-1 memories they store
 * (Codex's {@code stage1_outputs}), the usage the read path records and the retention that
 * prunes unused memories.
 *
 * <p>One role of a {@link MemoryStore}: a store implements it as part of the composite, and a
 * component that needs only this role asks for only this interface. The rules of the composite
 * apply (safe for several threads and processes; {@code now} is the engine's clock; failures are
 * {@link dev.mnemo.MemoryStoreException}s).
 */
public interface Stage1Store {

    /**
     * Claims up to {@code params.maxClaimed()} idle, enabled, out-of-date threads for extraction,
     * newest first, scanning at most {@code params.scanLimit()} candidates.
     *
     * @param params the claim's limits and lease
     * @param now the current time on the engine's clock
     * @return the jobs claimed, newest first; empty when none is due
     */
    List<Stage1Claim> claimStage1Jobs(Stage1ClaimParams params, Instant now);

    /**
     * Read-only: what {@link #claimStage1Jobs} would do with the same arguments, for every
     * registered thread (most recently updated first) with the reason it would or would not be
     * claimed. Changes nothing.
     *
     * @param params the claim's limits, as {@link #claimStage1Jobs} would get them
     * @param now the current time on the engine's clock
     * @return every registered thread with whether and why it would be claimed
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
     * @param threadId the thread (conversation) id
     * @param workerId the claiming worker, recorded as the job's owner
     * @param sourceUpdatedAt the rollout version the job extracted: the thread's update time
     * @param lease how long the claim holds before another worker may take the job over
     * @param now the current time on the engine's clock
     * @return the claim, or why the job was not claimed
     */
    JobClaim tryClaimStage1Job(String threadId, String workerId, Instant sourceUpdatedAt, Duration lease,
            int maxRunning, Instant now);

    /**
     * Completes an owned job with a memory: stores it (never over a newer version) and enqueues
     * Phase 2.
     *
     * @param threadId the thread (conversation) id
     * @param ownershipToken the token of the caller's claim on the job
     * @param sourceUpdatedAt the rollout version the job extracted: the thread's update time
     * @param result the extracted memory to store
     * @param now the current time on the engine's clock
     * @return false when the caller no longer owns the job (nothing is written)
     */
    boolean markStage1Succeeded(String threadId, String ownershipToken, Instant sourceUpdatedAt, Stage1Result result,
            Instant now);

    /**
     * {@link #markStage1Succeeded(String, String, Instant, Stage1Result, Instant)}, the memory
     * stored as awaiting approval when {@code awaitingApproval} ({@code approval = "ask"}): such a
     * row is left out of {@link Phase2Store#phase2InputSelection} and
     * {@link Phase2Store#listStage1OutputsForGlobal} until {@link ApprovalStore#approveStage1Output}
     * approves it, and no Phase 2 is enqueued for it. A new version of an approved memory stored as
     * awaiting waits again.
     *
     * @param threadId the thread (conversation) id
     * @param ownershipToken the token of the caller's claim on the job
     * @param sourceUpdatedAt the rollout version the job extracted: the thread's update time
     * @param result the extracted memory to store
     * @param now the current time on the engine's clock
     * @param awaitingApproval true to keep the memory out of consolidation until approved
     * @return false when the caller no longer owns the job (nothing is written)
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

    /**
     * Completes an owned job whose rollout held nothing worth remembering: deletes an older memory
     * (enqueueing Phase 2 only if one existed).
     *
     * @param threadId the thread (conversation) id
     * @param ownershipToken the token of the caller's claim on the job
     * @param now the current time on the engine's clock
     * @return false when the caller no longer owns the job (nothing is written)
     */
    boolean markStage1SucceededNoOutput(String threadId, String ownershipToken, Instant now);

    /**
     * Fails an owned job: one fewer retry, no new attempt before {@code now + retryDelay}.
     *
     * @param threadId the thread (conversation) id
     * @param ownershipToken the token of the caller's claim on the job
     * @param reason why it failed, stored as the job's {@code last_error}
     * @param retryDelay how long to wait before the next attempt
     * @param now the current time on the engine's clock
     * @return false when the caller no longer owns the job (nothing is written)
     */
    boolean markStage1Failed(String threadId, String ownershipToken, String reason, Duration retryDelay, Instant now);

    /**
     * Releases an owned job whose model call failed for a reason that is not the rollout's fault
     * (see {@link ModelFailure}): no new attempt before {@code now + retryDelay}, but the job keeps
     * every retry it had (Codex's retry budget is for bad extractions). {@code failure} becomes the
     * store's last model failure, shown by {@link MaintenanceStore#status}'s
     * {@link MemoryStatus#lastModelFailure()} until a Phase 1 job next succeeds
     * ({@link #markStage1Succeeded} or {@link #markStage1SucceededNoOutput}) or
     * {@link MaintenanceStore#clearMemoryData} runs, and the job's {@code last_error} is
     * {@link ModelFailure#describe()}.
     *
     * <p>The default, for stores written before this method, is {@link #markStage1Failed}: it spends
     * a retry and records no model failure. Stores should override it.
     *
     * @param threadId the thread (conversation) id
     * @param ownershipToken the token of the caller's claim on the job
     * @param failure the model failure, kept as the store's last one
     * @param retryDelay how long to wait before the next attempt
     * @param now the current time on the engine's clock
     * @return false when the caller no longer owns the job (nothing is written)
     */
    default boolean releaseStage1AfterModelFailure(String threadId, String ownershipToken, ModelFailure failure,
            Duration retryDelay, Instant now) {
        return markStage1Failed(threadId, ownershipToken, failure.describe(), retryDelay, now);
    }

    /**
     * The stored stage-1 memory of a thread.
     *
     * @param threadId the thread (conversation) id
     * @return the memory, or empty when the thread has none
     */
    Optional<Stage1Output> stage1Output(String threadId);

    /**
     * Counts one citation per id (duplicates count each time); unknown ids are ignored.
     *
     * @param threadIds the ids of the threads whose memories were cited
     * @param now the current time on the engine's clock
     * @return rows updated
     */
    int recordUsage(List<String> threadIds, Instant now);

    /**
     * Deletes up to {@code limit} memories not used (or, never used, not refreshed) for
     * {@code maxUnusedDays}, oldest first, never one in the last consolidation.
     *
     * @param maxUnusedDays how many days unused a memory may stay
     * @param limit the most memories to delete in this call
     * @param now the current time on the engine's clock
     * @return rows deleted
     */
    int pruneStage1Outputs(int maxUnusedDays, int limit, Instant now);

    /**
     * {@link #pruneStage1Outputs(int, int, Instant)}, never deleting the memory of a thread in
     * {@code keep}: the threads a kept consolidation used. A forget restores the files to the
     * state before a forgotten thread's first use, and the next consolidation brings back the
     * memories consolidated since from their stage-1 outputs, so those must still be there.
     *
     * @param maxUnusedDays how many days unused a memory may stay
     * @param limit the most memories to delete in this call
     * @param now the current time on the engine's clock
     * @param keep ids of threads whose memories must stay; may be empty
     * @return rows deleted
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
     * The dead Phase 1 jobs, most recent death first, at most {@code limit}. A job is dead when the
     * claim would refuse it for its retries alone: its last attempt failed ({@code error}), it has
     * no retry left, and the thread's current rollout version (its update time in whole seconds) is
     * not newer than the version the job last tried (a newer one restores the retries: the claim
     * takes it, so it is not dead). Only
     * registered threads whose memory mode is {@code enabled} count: a disabled or polluted thread
     * is never extracted anyway. A later success, or {@link #retryStage1Job}, clears it.
     *
     * @param limit the most jobs to return
     * @return the dead jobs, most recent death first
     * @throws UnsupportedOperationException when the store cannot list them (the default)
     */
    default List<DeadJob> deadStage1Jobs(int limit) {
        throw new UnsupportedOperationException(getClass().getName() + " does not implement deadStage1Jobs, so dead "
                + "Phase 1 jobs cannot be listed");
    }

    /**
     * Puts a failed Phase 1 job back: a job whose last attempt failed ({@code error}) and that is
     * dead, still waits out a retry delay, or has spent a retry becomes {@code pending}, claimable
     * at {@code now} with every retry restored. A job that is running, done, pending, or failed with
     * nothing spent and nothing to wait for is left alone.
     *
     * @param threadId the thread (conversation) id
     * @param now the current time on the engine's clock
     * @return true when the job was put back; false for a healthy or unknown thread
     * @throws UnsupportedOperationException when the store cannot (the default)
     */
    default boolean retryStage1Job(String threadId, Instant now) {
        throw new UnsupportedOperationException(getClass().getName() + " does not implement retryStage1Job, so a "
                + "failed Phase 1 job cannot be retried");
    }

    /**
     * Puts every dead Phase 1 job ({@link #deadStage1Jobs}) back, as {@link #retryStage1Job} does.
     *
     * @param now the current time on the engine's clock
     * @return how many were put back
     * @throws UnsupportedOperationException when the store cannot (the default)
     */
    default int retryDeadStage1Jobs(Instant now) {
        throw new UnsupportedOperationException(getClass().getName() + " does not implement retryDeadStage1Jobs, so "
                + "dead Phase 1 jobs cannot be retried");
    }

    /**
     * The thread's Phase 1 job if it is dead ({@link #deadStage1Jobs}), e.g. to say so in the
     * thread's log right after a failure. The default looks through {@link #deadStage1Jobs}; stores
     * should override it with a lookup of the one row.
     *
     * @param threadId the thread (conversation) id
     * @return the dead job, or empty when the thread's job is not dead
     * @throws UnsupportedOperationException when the store cannot list dead jobs (the default's)
     */
    default Optional<DeadJob> deadStage1Job(String threadId) {
        return deadStage1Jobs(Integer.MAX_VALUE).stream().filter(job -> job.threadId().equals(threadId)).findFirst();
    }

    // ---- the daily extraction budget ([memories] max_extraction_tokens_per_day) ----------------
    // Called only when a budget is set; a day is a UTC calendar day. A day's ledger is one figure:
    // the tokens settled by finished jobs plus the reservations of jobs still running.

    /**
     * Reserves {@code tokens} of {@code day}'s extraction budget for one Phase 1 job, atomically:
     * the reservation is added only when the day's ledger plus {@code tokens} stays within
     * {@code dailyLimit}, checked and added in one statement or write transaction, so concurrent
     * jobs of this and other processes (of this tenant, for a multi-tenant store) never reserve
     * more than the limit together.
     *
     * @param tokens the job's estimate, at least 1
     * @param dailyLimit {@code max_extraction_tokens_per_day}, at least 1
     * @param day the UTC day whose budget to charge
     * @param now the current time on the engine's clock
     * @return false when the reservation would pass the limit (nothing is written)
     * @throws UnsupportedOperationException when the store keeps no token ledger (the default)
     */
    default boolean reserveExtractionTokens(LocalDate day, long tokens, long dailyLimit, Instant now) {
        throw new UnsupportedOperationException(getClass().getName() + " keeps no extraction token ledger, so "
                + "max_extraction_tokens_per_day is not available with it");
    }

    /**
     * Replaces a reservation made by {@link #reserveExtractionTokens} for {@code day} by the tokens
     * the job really used (the model's reported usage). {@code used} may exceed {@code reserved}
     * and the limit: the over-spend is recorded, never lost, and stops the next reservations. The
     * day's ledger never goes below zero.
     *
     * @param day the UTC day the reservation was made for
     * @param reserved the tokens reserved, as given to {@link #reserveExtractionTokens}
     * @param used the tokens the job really used, at least 0
     * @param now the current time on the engine's clock
     * @throws UnsupportedOperationException when the store keeps no token ledger (the default)
     */
    default void settleExtractionTokens(LocalDate day, long reserved, long used, Instant now) {
        throw new UnsupportedOperationException(getClass().getName() + " keeps no extraction token ledger, so "
                + "max_extraction_tokens_per_day is not available with it");
    }

    /**
     * The extraction tokens counted against {@code day}: settled usage plus open reservations; 0
     * for a day without any.
     *
     * @param day the UTC day
     * @return the tokens counted against the day, at least 0
     * @throws UnsupportedOperationException when the store keeps no token ledger (the default)
     */
    default long extractionTokensSpent(LocalDate day) {
        throw new UnsupportedOperationException(getClass().getName() + " keeps no extraction token ledger, so "
                + "max_extraction_tokens_per_day is not available with it");
    }

    /**
     * Releases an owned job that was not run (Phase 1 found no room for it in the day's extraction
     * budget): {@code pending} again (it waits to run; it did not fail), its {@code last_error}
     * {@code reason}, claimable again from {@code retryAt}, keeping every retry it had (not running it is not the rollout's fault) and
     * recording no model failure.
     *
     * @param threadId the thread (conversation) id
     * @param ownershipToken the token of the caller's claim on the job
     * @param reason why the job was deferred, stored as its {@code last_error}
     * @param retryAt the earliest time it may be claimed again
     * @param now the current time on the engine's clock
     * @return false when the caller no longer owns the job (nothing is written)
     * @throws UnsupportedOperationException when the store cannot defer a job (the default)
     */
    default boolean deferStage1Job(String threadId, String ownershipToken, String reason, Instant retryAt,
            Instant now) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot defer a Phase 1 job, so "
                + "max_extraction_tokens_per_day is not available with it");
    }
}
