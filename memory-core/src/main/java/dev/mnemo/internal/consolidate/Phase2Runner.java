package dev.mnemo.internal.consolidate;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.Phase2FailureReason;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.Phase2Report;
import dev.mnemo.internal.events.BackgroundOperations;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.MemoryWorkspace;
import dev.mnemo.spi.Phase2ClaimPolicy;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Phase 2 (Codex's {@code phase2::run}, with the agent awaited rather than detached), in numbered
 * steps: 0. complete pending forgets; 1. take the global lock; 2.-11. the claimed attempt
 * ({@link Phase2Attempt}): sync the selected memories into the workspace, diff it against the
 * baseline, let the consolidation agent rewrite the artifacts, validate, commit, and mark the exact
 * selection; 12. complete the forgets that landed meanwhile. Every failure ends the job with
 * Codex's reason code and a one-hour backoff.
 */
public final class Phase2Runner {

    private static final Logger LOG = LoggerFactory.getLogger(Phase2Runner.class);

    /** Codex {@code stage_two::JOB_LEASE_SECONDS} (defined once, in {@link Phase2ClaimPolicy}). */
    public static final Duration JOB_LEASE = Phase2ClaimPolicy.JOB_LEASE;
    /** Codex {@code stage_two::JOB_RETRY_DELAY_SECONDS} (defined once, in {@link Phase2ClaimPolicy}). */
    public static final Duration RETRY_DELAY = Phase2ClaimPolicy.RETRY_DELAY;
    /** Codex {@code stage_two::JOB_HEARTBEAT_SECONDS} (defined once, in {@link Phase2ClaimPolicy}). */
    public static final Duration HEARTBEAT = Phase2ClaimPolicy.HEARTBEAT;

    /**
     * What Phase 2 works with.
     *
     * @param store the Phase 2 job and its selection, the record of consolidated threads, and the
     *     thread registry its {@link Forgetting} reads: most of the roles, so the composite
     * @param model the consolidation model name recorded in history (may be empty)
     * @param wallClock times and names the history entry (the pipeline {@code clock} may be fixed for a replay)
     */
    public record Dependencies(MemoryStore store, MemoryWorkspace workspace, ConsolidationAgent agent,
            MemoriesConfig config, Clock clock, Clock wallClock, String workerId, String model,
            MemoryEventListener listener) {
        public Dependencies {
            Objects.requireNonNull(store, "store");
            Objects.requireNonNull(workspace, "workspace");
            Objects.requireNonNull(agent, "agent");
            Objects.requireNonNull(config, "config");
            Objects.requireNonNull(clock, "clock");
            Objects.requireNonNull(wallClock, "wallClock");
            Objects.requireNonNull(workerId, "workerId");
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(listener, "listener");
        }
    }

    private final Dependencies deps;
    private final Executor workers;
    private final Forgetting forgetting;
    private final BackgroundOperations operations;

    /**
     * @param workers runs the lease heartbeat and the agent's watchdog (the engine's executor); the
     *     agent itself runs on the thread that calls {@link #run()}
     */
    public Phase2Runner(Dependencies deps, Executor workers) {
        this(deps, workers, new Forgetting(deps.store(), deps.workspace(), deps.clock(), deps::workerId));
    }

    /**
     * @param forgetting completes pending forgets; the engine passes the one its own forgets use, so
     *     the two never complete the same forget at once
     */
    public Phase2Runner(Dependencies deps, Executor workers, Forgetting forgetting) {
        this(deps, workers, forgetting, BackgroundOperations.silent());
    }

    /**
     * @param operations hears a consolidation that changed the folder, or failed after it started
     *     to, as an {@code update_memory} of the run the calling thread works for
     */
    public Phase2Runner(Dependencies deps, Executor workers, Forgetting forgetting, BackgroundOperations operations) {
        this.deps = Objects.requireNonNull(deps, "deps");
        this.workers = Objects.requireNonNull(workers, "workers");
        this.forgetting = Objects.requireNonNull(forgetting, "forgetting");
        this.operations = Objects.requireNonNull(operations, "operations");
    }

    /** Runs one consolidation attempt; never throws for store, workspace or agent failures. */
    public Phase2Report run() {
        return run(false);
    }

    /**
     * Runs one consolidation attempt now: past the success cooldown and the retry backoff, never
     * past a live lease ("refresh now"). Never throws for store, workspace or agent failures.
     */
    public Phase2Report runNow() {
        return run(true);
    }

    private Phase2Report run(boolean now) {
        // 0. A pending forget goes first, past any backoff or cooldown (its own run failed, or its
        //    process died holding the lock): the files lose the forgotten text before anything else.
        completePendingForgets();
        Phase2Report report = claimAndRun(now);
        // 12. A forget that landed after this run's last look (its own claim found the lock held):
        //     completed now that the lock is free, whatever the outcome, so it never waits for the next run.
        completePendingForgets();
        return report;
    }

    /** Completes every pending forget now if the lock can be had; never throws. */
    private void completePendingForgets() {
        try {
            Set<String> pending = forgetting.pendingOrEmpty();
            if (!pending.isEmpty()) {
                BackgroundOperations.Start start = operations.start();
                Forgetting.Outcome outcome = forgetting.completePending(Set.of());
                LOG.info("memory phase-2: pending forgets {}", outcome);
                if (outcome == Forgetting.Outcome.DROPPED) {
                    operations.forgetsCompleted(pending, start, Optional.empty());
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("memory phase-2: completing the pending forgets failed; they stay pending", e);
        }
    }

    private Phase2Report claimAndRun(boolean now) {
        // 1. The global lock (past the cooldown when asked to run now).
        JobClaim claim;
        try {
            claim = now ? deps.store().tryClaimPhase2JobNow(deps.workerId(), JOB_LEASE, deps.clock().instant())
                    : deps.store().tryClaimPhase2Job(deps.workerId(), JOB_LEASE, deps.clock().instant());
        } catch (RuntimeException e) {
            LOG.warn("memory phase-2 claim failed", e);
            return finish(deps.listener(), Phase2Report.failed(Phase2FailureReason.FAILED_CLAIM,
                    String.valueOf(e.getMessage()), 0, TokenUsage.ZERO));
        }
        if (!claim.isClaimed()) {
            Phase2Outcome skipped = switch (claim.outcome()) {
                case SKIPPED_COOLDOWN -> Phase2Outcome.SKIPPED_COOLDOWN;
                case SKIPPED_RETRY_UNAVAILABLE, SKIPPED_RETRY_BACKOFF -> Phase2Outcome.SKIPPED_RETRY_BACKOFF;
                default -> Phase2Outcome.SKIPPED_RUNNING;
            };
            LOG.debug("memory phase-2 not claimed: {}", claim.outcome());
            return finish(deps.listener(), new Phase2Report(skipped, 0, TokenUsage.ZERO, Optional.empty()));
        }
        deps.listener().phase2Step("claimed");
        // 2.-11. The claimed attempt: workspace, inputs, agent, validation, commit, the store's record.
        return new Phase2Attempt(deps, workers, forgetting, claim, operations).run();
    }

    /** Tells the listener how the run ended; every way out of a run passes here once. */
    static Phase2Report finish(MemoryEventListener listener, Phase2Report report) {
        listener.phase2Finished(report.outcome(), report.failure());
        return report;
    }
}

