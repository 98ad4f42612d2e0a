package dev.mnemo.internal.engine;

import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Report;
import dev.mnemo.SessionContext;
import dev.mnemo.SkipReason;
import dev.mnemo.StartupTask;
import dev.mnemo.ThreadGoal;
import dev.mnemo.internal.agent.ToolLoopConsolidationAgent;
import dev.mnemo.internal.consolidate.Forgetting;
import dev.mnemo.internal.consolidate.Phase2Runner;
import dev.mnemo.internal.events.BackgroundOperations;
import dev.mnemo.internal.extract.Phase1Runner;
import dev.mnemo.internal.extract.ThreadRollouts;
import dev.mnemo.internal.startup.StartupRunner;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.RolloutSource;
import dev.mnemo.spi.SecretRedactor;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When the engine's pipeline runs: the startup task a session starts (queued on the engine's
 * executor and coalesced, {@link StartupQueue}), Phase 1 and Phase 2 as an administrator runs them,
 * and, when the engine closes, winding the runs down and handing back the jobs it still holds.
 * It builds the runners from the configured models: without an extraction model there is no
 * Phase 1, without a consolidation model or agent no Phase 2.
 */
final class PipelineSchedule {

    /** The engine's logger: these lines keep the name they were logged under before they moved here. */
    private static final Logger LOG = LoggerFactory.getLogger(DefaultMemoryEngine.class);

    /**
     * What the schedule runs with.
     *
     * @param listener the engine's listeners, each shielded from the others' failures
     * @param sources where rollouts are found (Codex's sessions first, then the configured ones)
     * @param rollouts how Phase 1 reads a thread's rollout
     * @param redactor what Phase 1 redacts with
     * @param forgetting the workspace's forgetting, completed by Phase 2 before it consolidates
     * @param executor runs the startup tasks
     * @param workers runs the helpers of a run (extractions, heartbeat, the agent's watchdog)
     * @param workerId the owner this engine's job claims name
     * @param goals a thread's goal, for Phase 1's context
     * @param requireOpen throws when the engine is closed
     * @param operations the runs and the memory operations the listeners hear of
     */
    record Collaborators(EngineParts parts, SafeListener listener, List<RolloutSource> sources,
            ThreadRollouts rollouts, SecretRedactor redactor, Forgetting forgetting, ExecutorService executor,
            ExecutorService workers, Supplier<String> workerId, Function<String, Optional<ThreadGoal>> goals,
            Runnable requireOpen, BackgroundOperations operations) {}

    private final Collaborators with;
    private final Phase1Runner phase1;
    private final Phase2Runner phase2;
    private final StartupQueue startups;

    PipelineSchedule(Collaborators with) {
        this.with = with;
        EngineParts parts = with.parts();
        this.phase1 = phase1Runner(with);
        this.phase2 = phase2Runner(with);
        StartupRunner startup = new StartupRunner(new StartupRunner.Dependencies(parts.memoryRoot(), parts.config(),
                parts.store(), with.sources(),
                parts.extractionModel() != null ? parts.extractionModel() : parts.consolidationModel(),
                phase1 == null ? null : phase1::run, phase2 == null ? null : phase2::run, parts.clock(),
                parts.wallClock(), with.listener(), this::threadsInKeptHistory));
        this.startups = new StartupQueue(startup, with.executor(), with.operations());
    }

    private static Phase1Runner phase1Runner(Collaborators with) {
        EngineParts parts = with.parts();
        if (parts.extractionModel() == null) {
            return null;
        }
        LanguageModel model = ReportingModel.of(parts.extractionModel(), MemoryEventListener.PHASE1, with.listener());
        return new Phase1Runner(new Phase1Runner.Dependencies(parts.store(), model, with.rollouts(),
                with.redactor(), parts.config(), parts.clock(), with.workerId().get(), with.listener(), with.goals()),
                with.workers(), with.operations());
    }

    private static Phase2Runner phase2Runner(Collaborators with) {
        EngineParts parts = with.parts();
        ConsolidationAgent agent = parts.consolidationAgent();
        if (agent == null && parts.consolidationModel() != null) {
            agent = new ToolLoopConsolidationAgent(
                    ReportingModel.of(parts.consolidationModel(), MemoryEventListener.PHASE2, with.listener()),
                    parts.clock(), with.listener());
        }
        if (agent == null) {
            return null;
        }
        return new Phase2Runner(new Phase2Runner.Dependencies(parts.store(), parts.workspace(), agent, parts.config(),
                parts.clock(), parts.wallClock(), with.workerId().get(), parts.config().consolidationModel().orElse(""),
                with.listener()), with.workers(), with.forgetting(), with.operations());
    }

    /** Submits the pipeline, coalesced with a run already queued ({@link StartupQueue}). */
    StartupTask submit(SessionContext session) {
        return startups.submit(session);
    }

    /** What the last finished startup run was skipped for, if it was. */
    Optional<SkipReason> lastSkip() {
        return startups.lastSkip();
    }

    /** The threads a kept consolidation used: retention spares their memories (a forget may need them). */
    Set<String> threadsInKeptHistory() {
        Set<String> kept = new TreeSet<>();
        with.parts().workspace().history().forEach(entry -> kept.addAll(entry.threadIds()));
        return kept;
    }

    boolean hasPhase1() {
        return phase1 != null;
    }

    boolean hasPhase2() {
        return phase2 != null;
    }

    /** Phase 1 on the caller's thread, as a run of its own. */
    Phase1Report runPhase1(String currentThreadId) {
        with.requireOpen().run();
        if (phase1 == null) {
            throw new IllegalStateException("no extraction model: call MemoryEngine.builder().model(..) or "
                    + ".extractionModel(..)");
        }
        return with.operations().asRun(() -> phase1.run(currentThreadId));
    }

    /** Phase 2 on the caller's thread, as a run of its own. */
    Phase2Report runPhase2() {
        Phase2Runner runner = requirePhase2();
        return with.operations().asRun(runner::run);
    }

    /** Phase 2 past the success cooldown and the retry backoff, never past a live lease; a run of its own. */
    Phase2Report runPhase2Now() {
        Phase2Runner runner = requirePhase2();
        return with.operations().asRun(runner::runNow);
    }

    private Phase2Runner requirePhase2() {
        with.requireOpen().run();
        if (phase2 == null) {
            throw new IllegalStateException("no consolidation model or agent: call MemoryEngine.builder().model(..), "
                    + ".consolidationModel(..) or .consolidationAgent(..)");
        }
        return phase2;
    }

    /** Lets running work finish within {@code timeout}; then cancels it ({@link StartupQueue#windDown}). */
    void windDown(Duration timeout) {
        startups.windDown(timeout);
    }

    /** Hands the jobs claimed as {@code claimedAs} back to the pool at once, without a retry spent. */
    void releaseJobs(String claimedAs) {
        EngineParts parts = with.parts();
        try {
            int released = parts.store().releaseJobs(claimedAs, "engine closed before the job finished",
                    parts.clock().instant());
            if (released > 0) {
                LOG.info("memory engine closed: released {} unfinished job(s) for retry", released);
            }
        } catch (RuntimeException e) {
            LOG.warn("memory engine closed: could not release its jobs; they are reclaimable after their lease", e);
        }
    }
}
