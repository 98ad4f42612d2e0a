package dev.mnemo.internal.engine;

import dev.mnemo.Consolidation;
import dev.mnemo.MemoryAdmin;
import dev.mnemo.MemoryStatus;
import dev.mnemo.Phase1Preview;
import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Report;
import dev.mnemo.SessionContext;
import dev.mnemo.StartupTask;
import dev.mnemo.internal.extract.GoalContext;
import dev.mnemo.internal.extract.Phase1Request;
import dev.mnemo.internal.extract.Phase1Runner;
import dev.mnemo.internal.startup.StartupRunner;
import dev.mnemo.internal.startup.ThreadSync;
import dev.mnemo.spi.ConsolidationRecord;
import dev.mnemo.spi.RolloutSource;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link MemoryAdmin} over an engine's parts. */
final class EngineAdmin implements MemoryAdmin {

    /**
     * The context of a run no session asked for: a thread id no conversation has, so Phase 1 skips
     * nothing on its account.
     */
    private static final SessionContext PIPELINE = SessionContext.root("mnemo-scheduled-pipeline");

    private static final Logger LOG = LoggerFactory.getLogger(EngineAdmin.class);

    private static final String GLOBAL_JOB_KIND = "memory_consolidate_global";

    private final DefaultMemoryEngine engine;

    EngineAdmin(DefaultMemoryEngine engine) {
        this.engine = engine;
    }

    @Override
    public int syncThreads() {
        engine.requireOpen();
        return ThreadSync.sync(engine.parts.store(), engine.sources);
    }

    @Override
    public Phase1Report runPhase1(String currentThreadId) {
        return engine.runPhase1(Objects.requireNonNull(currentThreadId, "currentThreadId"));
    }

    @Override
    public Phase1Preview previewPhase1(String currentThreadId) {
        Objects.requireNonNull(currentThreadId, "currentThreadId");
        engine.requireOpen();
        Instant now = engine.parts.clock().instant();
        List<Phase1Preview.Candidate> candidates = engine.parts.store().previewStage1Claims(
                Phase1Runner.claimParams(engine.parts.config(), currentThreadId, engine.workerId()), now);
        Optional<Phase1Preview.FirstRequest> first = candidates.stream()
                .filter(c -> c.verdict() == Phase1Preview.Verdict.WOULD_CLAIM)
                .findFirst()
                .map(c -> Phase1Request.preview(c.thread(), engine.rollouts,
                        Phase1Request.budgetBytes(engine.parts.extractionModel()), engine.parts.config(),
                        GoalContext.describe(engine.goalOf(c.thread().id()), engine.redactor())));
        LOG.debug("memory stage-1 preview as of {}: {} thread(s), {} claimable", now, candidates.size(),
                candidates.stream().filter(c -> c.verdict() == Phase1Preview.Verdict.WOULD_CLAIM).count());
        return new Phase1Preview(now, candidates, first);
    }

    @Override
    public Phase2Report runPhase2() {
        return engine.runPhase2();
    }

    @Override
    public StartupTask startPipeline() {
        engine.requireOpen();
        engine.sweepConversations();
        return engine.startStartupTask(PIPELINE);
    }

    @Override
    public int prune() {
        engine.requireOpen();
        return engine.parts.store().pruneStage1Outputs(engine.parts.config().maxUnusedDays(),
                StartupRunner.PRUNE_BATCH_SIZE, engine.parts.clock().instant());
    }

    @Override
    public MemoryStatus status() {
        engine.requireOpen();
        Map<String, String> unreadable = new TreeMap<>();
        for (RolloutSource source : engine.sources) {
            source.unreadable().forEach((path, reason) -> unreadable.put(path.toString(), reason));
        }
        return engine.parts.store().status(engine.parts.clock().instant(), engine.parts.config().maxUnusedDays())
                .withEngineFacts(engine.lastStartupSkip(), unreadable);
    }

    @Override
    public List<Consolidation> history() {
        engine.requireOpen();
        return engine.parts.workspace().history();
    }

    @Override
    public void rollback(String consolidationId) {
        Objects.requireNonNull(consolidationId, "consolidationId");
        engine.requireOpen();
        requireNoConsolidationRunning("roll back");
        ConsolidationRecord restored = engine.parts.workspace().rollback(consolidationId);
        engine.parts.store().replacePhase2Selection(restored.selected());
        LOG.info("memory workspace rolled back to consolidation {} ({} input(s))", consolidationId,
                restored.selected().size());
    }

    @Override
    public void clear() {
        engine.requireOpen();
        requireNoConsolidationRunning("clear");
        engine.parts.store().clearMemoryData();
        engine.parts.workspace().clear();
        LOG.info("memory cleared: stored memories, jobs, workspace files and history deleted");
    }

    private void requireNoConsolidationRunning(String what) {
        boolean running = engine.parts.store().status(engine.parts.clock().instant()).runningLeases().stream()
                .anyMatch(lease -> lease.kind().equals(GLOBAL_JOB_KIND)
                        && lease.leaseUntil().isAfter(engine.parts.clock().instant()));
        if (running) {
            throw new IllegalStateException("cannot " + what + " while a consolidation is running; try again when "
                    + "its lease ends (see admin().status())");
        }
    }
}
