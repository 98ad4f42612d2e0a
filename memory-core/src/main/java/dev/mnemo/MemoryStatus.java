package dev.mnemo;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The health of the pipeline, for operators: what is queued, what is running, what failed last.
 *
 * @param jobCounts per job kind ({@code memory_stage1}, {@code memory_consolidate_global}), the
 *     number of jobs in each status ({@code running}, {@code done}, {@code error}, {@code pending})
 * @param runningLeases the jobs currently running, with owner and lease expiry
 * @param lastPhase2Success when the last consolidation finished successfully, whatever happened
 *     since (a later failure or a forget does not clear it)
 * @param lastPhase2Failure the last consolidation failure reason, while it is the latest outcome (a
 *     forget that re-opened the lock reads {@code forget_pending: ...}: not a failure of the model,
 *     see {@code pendingForgets})
 * @param threadCounts the number of threads in each memory mode
 * @param stage1Outputs the number of stored stage-1 memories
 * @param lastStartupSkip why the last startup task of this engine skipped, if it did
 * @param checkedAt when this status was read
 * @param unreadableRollouts rollout files the last scan could not register (no readable
 *     {@code session_meta}, corrupt compression, …), path to reason
 * @param lastModelFailure the last time the model itself failed a Phase 1 request (unreachable,
 *     unauthorised, rate limited, …), while no Phase 1 job has succeeded since: the model is failing
 * @param unusedMemories stored memories of enabled threads that consolidation no longer selects
 *     because they were not used (cited) for more than {@code max_unused_days} (nor updated, when
 *     never used); empty when the store cannot tell
 * @param phase2NotBefore while the consolidation lock is closed by the six-hour cooldown after a
 *     success or the backoff after a failure, when it opens; empty when it is open or unknown
 * @param pendingForgets threads forgotten whose text the memory folder and its history may still
 *     hold: the workspace drops it when the consolidation lock is free (at once, or when the
 *     running consolidation ends); the read path serves no memory summary meanwhile. Empty when
 *     none is pending or the store keeps no such record
 * @param deadJobs the dead Phase 1 jobs: conversations whose every retry failed for their current
 *     rollout version, so nothing extracts them again until someone retries them
 *     ({@link MemoryAdmin#deadJobs()}, {@link MemoryAdmin#retryDead()}); 0 when the store cannot tell
 * @param extractionBudget where today's (UTC) extraction token budget stands, when
 *     {@code max_extraction_tokens_per_day} is set; empty when it is not (unlimited) or the store
 *     keeps no token ledger
 */
public record MemoryStatus(Map<String, Map<String, Integer>> jobCounts, List<Lease> runningLeases,
        Optional<Instant> lastPhase2Success, Optional<String> lastPhase2Failure,
        Map<MemoryMode, Integer> threadCounts, int stage1Outputs, Optional<SkipReason> lastStartupSkip,
        Instant checkedAt, Map<String, String> unreadableRollouts, Optional<ModelFailure> lastModelFailure,
        OptionalInt unusedMemories, Optional<Instant> phase2NotBefore, List<String> pendingForgets, int deadJobs,
        Optional<ExtractionBudget> extractionBudget) {

    /**
     * Checks that every component is present and copies the collections, unmodifiable.
     *
     * @param jobCounts per job kind, the number of jobs in each status
     * @param runningLeases the jobs currently running, with owner and lease expiry
     * @param lastPhase2Success when the last consolidation finished successfully
     * @param lastPhase2Failure the last consolidation failure reason, while it is the latest outcome
     * @param threadCounts the number of threads in each memory mode
     * @param stage1Outputs the number of stored stage-1 memories
     * @param lastStartupSkip why the last startup task of this engine skipped, if it did
     * @param checkedAt when this status was read
     * @param unreadableRollouts rollout files the last scan could not register, path to reason
     * @param lastModelFailure the last model failure of Phase 1, while no Phase 1 job has succeeded since
     * @param unusedMemories stored memories consolidation no longer selects because unused; empty when unknown
     * @param phase2NotBefore when the closed consolidation lock opens; empty when it is open or unknown
     * @param pendingForgets threads forgotten whose text the memory folder may still hold
     * @param deadJobs the number of dead Phase 1 jobs; 0 when the store cannot tell
     * @param extractionBudget where today's (UTC) extraction token budget stands; empty when unlimited or unknown
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when {@code deadJobs} is negative
     */
    public MemoryStatus {
        jobCounts = Map.copyOf(Objects.requireNonNull(jobCounts, "jobCounts"));
        runningLeases = List.copyOf(Objects.requireNonNull(runningLeases, "runningLeases"));
        Objects.requireNonNull(lastPhase2Success, "lastPhase2Success");
        Objects.requireNonNull(lastPhase2Failure, "lastPhase2Failure");
        threadCounts = Map.copyOf(Objects.requireNonNull(threadCounts, "threadCounts"));
        Objects.requireNonNull(lastStartupSkip, "lastStartupSkip");
        Objects.requireNonNull(checkedAt, "checkedAt");
        unreadableRollouts = Map.copyOf(Objects.requireNonNull(unreadableRollouts, "unreadableRollouts"));
        Objects.requireNonNull(lastModelFailure, "lastModelFailure");
        Objects.requireNonNull(unusedMemories, "unusedMemories");
        Objects.requireNonNull(phase2NotBefore, "phase2NotBefore");
        pendingForgets = List.copyOf(Objects.requireNonNull(pendingForgets, "pendingForgets"));
        if (deadJobs < 0) {
            throw new IllegalArgumentException("deadJobs must be >= 0, was " + deadJobs);
        }
        Objects.requireNonNull(extractionBudget, "extractionBudget");
    }

    /**
     * A status without the extraction budget (the engine adds it, see {@link #withExtractionBudget}).
     *
     * @param jobCounts per job kind, the number of jobs in each status
     * @param runningLeases the jobs currently running, with owner and lease expiry
     * @param lastPhase2Success when the last consolidation finished successfully
     * @param lastPhase2Failure the last consolidation failure reason, while it is the latest outcome
     * @param threadCounts the number of threads in each memory mode
     * @param stage1Outputs the number of stored stage-1 memories
     * @param lastStartupSkip why the last startup task of this engine skipped, if it did
     * @param checkedAt when this status was read
     * @param unreadableRollouts rollout files the last scan could not register, path to reason
     * @param lastModelFailure the last model failure of Phase 1, while no Phase 1 job has succeeded since
     * @param unusedMemories stored memories consolidation no longer selects because unused; empty when unknown
     * @param phase2NotBefore when the closed consolidation lock opens; empty when it is open or unknown
     * @param pendingForgets threads forgotten whose text the memory folder may still hold
     * @param deadJobs the number of dead Phase 1 jobs; 0 when the store cannot tell
     */
    public MemoryStatus(Map<String, Map<String, Integer>> jobCounts, List<Lease> runningLeases,
            Optional<Instant> lastPhase2Success, Optional<String> lastPhase2Failure,
            Map<MemoryMode, Integer> threadCounts, int stage1Outputs, Optional<SkipReason> lastStartupSkip,
            Instant checkedAt, Map<String, String> unreadableRollouts, Optional<ModelFailure> lastModelFailure,
            OptionalInt unusedMemories, Optional<Instant> phase2NotBefore, List<String> pendingForgets, int deadJobs) {
        this(jobCounts, runningLeases, lastPhase2Success, lastPhase2Failure, threadCounts, stage1Outputs,
                lastStartupSkip, checkedAt, unreadableRollouts, lastModelFailure, unusedMemories, phase2NotBefore,
                pendingForgets, deadJobs, Optional.empty());
    }

    /**
     * A status with the extraction budget and without a count of dead Phase 1 jobs.
     *
     * @param jobCounts per job kind, the number of jobs in each status
     * @param runningLeases the jobs currently running, with owner and lease expiry
     * @param lastPhase2Success when the last consolidation finished successfully
     * @param lastPhase2Failure the last consolidation failure reason, while it is the latest outcome
     * @param threadCounts the number of threads in each memory mode
     * @param stage1Outputs the number of stored stage-1 memories
     * @param lastStartupSkip why the last startup task of this engine skipped, if it did
     * @param checkedAt when this status was read
     * @param unreadableRollouts rollout files the last scan could not register, path to reason
     * @param lastModelFailure the last model failure of Phase 1, while no Phase 1 job has succeeded since
     * @param unusedMemories stored memories consolidation no longer selects because unused; empty when unknown
     * @param phase2NotBefore when the closed consolidation lock opens; empty when it is open or unknown
     * @param pendingForgets threads forgotten whose text the memory folder may still hold
     * @param extractionBudget where today's (UTC) extraction token budget stands; empty when unlimited or unknown
     */
    public MemoryStatus(Map<String, Map<String, Integer>> jobCounts, List<Lease> runningLeases,
            Optional<Instant> lastPhase2Success, Optional<String> lastPhase2Failure,
            Map<MemoryMode, Integer> threadCounts, int stage1Outputs, Optional<SkipReason> lastStartupSkip,
            Instant checkedAt, Map<String, String> unreadableRollouts, Optional<ModelFailure> lastModelFailure,
            OptionalInt unusedMemories, Optional<Instant> phase2NotBefore, List<String> pendingForgets,
            Optional<ExtractionBudget> extractionBudget) {
        this(jobCounts, runningLeases, lastPhase2Success, lastPhase2Failure, threadCounts, stage1Outputs,
                lastStartupSkip, checkedAt, unreadableRollouts, lastModelFailure, unusedMemories, phase2NotBefore,
                pendingForgets, 0, extractionBudget);
    }

    /**
     * A status without a count of dead Phase 1 jobs (for stores that cannot tell) nor the extraction budget.
     *
     * @param jobCounts per job kind, the number of jobs in each status
     * @param runningLeases the jobs currently running, with owner and lease expiry
     * @param lastPhase2Success when the last consolidation finished successfully
     * @param lastPhase2Failure the last consolidation failure reason, while it is the latest outcome
     * @param threadCounts the number of threads in each memory mode
     * @param stage1Outputs the number of stored stage-1 memories
     * @param lastStartupSkip why the last startup task of this engine skipped, if it did
     * @param checkedAt when this status was read
     * @param unreadableRollouts rollout files the last scan could not register, path to reason
     * @param lastModelFailure the last model failure of Phase 1, while no Phase 1 job has succeeded since
     * @param unusedMemories stored memories consolidation no longer selects because unused; empty when unknown
     * @param phase2NotBefore when the closed consolidation lock opens; empty when it is open or unknown
     * @param pendingForgets threads forgotten whose text the memory folder may still hold
     */
    public MemoryStatus(Map<String, Map<String, Integer>> jobCounts, List<Lease> runningLeases,
            Optional<Instant> lastPhase2Success, Optional<String> lastPhase2Failure,
            Map<MemoryMode, Integer> threadCounts, int stage1Outputs, Optional<SkipReason> lastStartupSkip,
            Instant checkedAt, Map<String, String> unreadableRollouts, Optional<ModelFailure> lastModelFailure,
            OptionalInt unusedMemories, Optional<Instant> phase2NotBefore, List<String> pendingForgets) {
        this(jobCounts, runningLeases, lastPhase2Success, lastPhase2Failure, threadCounts, stage1Outputs,
                lastStartupSkip, checkedAt, unreadableRollouts, lastModelFailure, unusedMemories, phase2NotBefore,
                pendingForgets, 0, Optional.empty());
    }

    /**
     * A status without pending forgets (for stores that do not record them).
     *
     * @param jobCounts per job kind, the number of jobs in each status
     * @param runningLeases the jobs currently running, with owner and lease expiry
     * @param lastPhase2Success when the last consolidation finished successfully
     * @param lastPhase2Failure the last consolidation failure reason, while it is the latest outcome
     * @param threadCounts the number of threads in each memory mode
     * @param stage1Outputs the number of stored stage-1 memories
     * @param lastStartupSkip why the last startup task of this engine skipped, if it did
     * @param checkedAt when this status was read
     * @param unreadableRollouts rollout files the last scan could not register, path to reason
     * @param lastModelFailure the last model failure of Phase 1, while no Phase 1 job has succeeded since
     * @param unusedMemories stored memories consolidation no longer selects because unused; empty when unknown
     * @param phase2NotBefore when the closed consolidation lock opens; empty when it is open or unknown
     */
    public MemoryStatus(Map<String, Map<String, Integer>> jobCounts, List<Lease> runningLeases,
            Optional<Instant> lastPhase2Success, Optional<String> lastPhase2Failure,
            Map<MemoryMode, Integer> threadCounts, int stage1Outputs, Optional<SkipReason> lastStartupSkip,
            Instant checkedAt, Map<String, String> unreadableRollouts, Optional<ModelFailure> lastModelFailure,
            OptionalInt unusedMemories, Optional<Instant> phase2NotBefore) {
        this(jobCounts, runningLeases, lastPhase2Success, lastPhase2Failure, threadCounts, stage1Outputs,
                lastStartupSkip, checkedAt, unreadableRollouts, lastModelFailure, unusedMemories, phase2NotBefore,
                List.of());
    }

    /**
     * Whether the last consolidation failure is a real one: empty while the latest outcome is a
     * success, or while the lock was only re-opened so that a forget is completed and the memories
     * consolidated since come back ({@code forget_pending}).
     *
     * @return the last failure reason unless it is a {@code forget_pending} re-opening; empty otherwise
     */
    public Optional<String> lastPhase2RealFailure() {
        return lastPhase2Failure.filter(reason -> !reason.startsWith(Phase2FailureReason.FORGET_PENDING.code()));
    }

    /**
     * A status without the figures a store may not know: unused memories and when the lock opens.
     *
     * @param jobCounts per job kind, the number of jobs in each status
     * @param runningLeases the jobs currently running, with owner and lease expiry
     * @param lastPhase2Success when the last consolidation finished successfully
     * @param lastPhase2Failure the last consolidation failure reason, while it is the latest outcome
     * @param threadCounts the number of threads in each memory mode
     * @param stage1Outputs the number of stored stage-1 memories
     * @param lastStartupSkip why the last startup task of this engine skipped, if it did
     * @param checkedAt when this status was read
     * @param unreadableRollouts rollout files the last scan could not register, path to reason
     * @param lastModelFailure the last model failure of Phase 1, while no Phase 1 job has succeeded since
     */
    public MemoryStatus(Map<String, Map<String, Integer>> jobCounts, List<Lease> runningLeases,
            Optional<Instant> lastPhase2Success, Optional<String> lastPhase2Failure,
            Map<MemoryMode, Integer> threadCounts, int stage1Outputs, Optional<SkipReason> lastStartupSkip,
            Instant checkedAt, Map<String, String> unreadableRollouts, Optional<ModelFailure> lastModelFailure) {
        this(jobCounts, runningLeases, lastPhase2Success, lastPhase2Failure, threadCounts, stage1Outputs,
                lastStartupSkip, checkedAt, unreadableRollouts, lastModelFailure, OptionalInt.empty(), Optional.empty());
    }

    /**
     * A status without a model failure (for stores that do not record one).
     *
     * @param jobCounts per job kind, the number of jobs in each status
     * @param runningLeases the jobs currently running, with owner and lease expiry
     * @param lastPhase2Success when the last consolidation finished successfully
     * @param lastPhase2Failure the last consolidation failure reason, while it is the latest outcome
     * @param threadCounts the number of threads in each memory mode
     * @param stage1Outputs the number of stored stage-1 memories
     * @param lastStartupSkip why the last startup task of this engine skipped, if it did
     * @param checkedAt when this status was read
     * @param unreadableRollouts rollout files the last scan could not register, path to reason
     */
    public MemoryStatus(Map<String, Map<String, Integer>> jobCounts, List<Lease> runningLeases,
            Optional<Instant> lastPhase2Success, Optional<String> lastPhase2Failure,
            Map<MemoryMode, Integer> threadCounts, int stage1Outputs, Optional<SkipReason> lastStartupSkip,
            Instant checkedAt, Map<String, String> unreadableRollouts) {
        this(jobCounts, runningLeases, lastPhase2Success, lastPhase2Failure, threadCounts, stage1Outputs,
                lastStartupSkip, checkedAt, unreadableRollouts, Optional.empty());
    }

    /**
     * This status with what only the engine knows: the last skip reason and the unreadable rollouts.
     *
     * @param skip why the engine's last startup task skipped; empty if it did not
     * @param unreadable rollout files the engine's last scan could not register, path to reason
     * @return a copy of this status with both facts replaced
     */
    public MemoryStatus withEngineFacts(Optional<SkipReason> skip, Map<String, String> unreadable) {
        return new MemoryStatus(jobCounts, runningLeases, lastPhase2Success, lastPhase2Failure, threadCounts,
                stage1Outputs, skip, checkedAt, unreadable, lastModelFailure, unusedMemories, phase2NotBefore, pendingForgets,
                deadJobs, extractionBudget);
    }

    /**
     * This status with where today's extraction budget stands (what only the engine, knowing the limit, can say).
     *
     * @param budget today's budget; empty when no daily limit is set
     * @return a copy of this status with the budget replaced
     */
    public MemoryStatus withExtractionBudget(Optional<ExtractionBudget> budget) {
        return new MemoryStatus(jobCounts, runningLeases, lastPhase2Success, lastPhase2Failure, threadCounts,
                stage1Outputs, lastStartupSkip, checkedAt, unreadableRollouts, lastModelFailure, unusedMemories,
                phase2NotBefore, pendingForgets, deadJobs, budget);
    }

    /**
     * A running job.
     *
     * @param kind the job kind
     * @param jobKey the thread id, or {@code global}
     * @param workerId who holds it
     * @param leaseUntil when the lease expires and another worker may take the job over
     */
    public record Lease(String kind, String jobKey, String workerId, Instant leaseUntil) {
        /**
         * Checks that every component is present.
         *
         * @param kind the job kind
         * @param jobKey the thread id, or {@code global}
         * @param workerId who holds it
         * @param leaseUntil when the lease expires and another worker may take the job over
         * @throws NullPointerException when a component is null
         */
        public Lease {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(jobKey, "jobKey");
            Objects.requireNonNull(workerId, "workerId");
            Objects.requireNonNull(leaseUntil, "leaseUntil");
        }
    }
}
