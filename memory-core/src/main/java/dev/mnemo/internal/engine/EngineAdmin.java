package dev.mnemo.internal.engine;

import dev.mnemo.Consolidation;
import dev.mnemo.DeadJob;
import dev.mnemo.ExtractionBudget;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryAdmin;
import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryStatus;
import dev.mnemo.PendingMemory;
import dev.mnemo.ProjectKeys;
import dev.mnemo.Phase1Preview;
import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Report;
import dev.mnemo.SessionContext;
import dev.mnemo.StartupTask;
import dev.mnemo.ThreadInfo;
import dev.mnemo.ThreadMemory;
import dev.mnemo.TranscriptLine;
import dev.mnemo.internal.extract.GoalContext;
import dev.mnemo.internal.extract.Phase1Request;
import dev.mnemo.internal.extract.Phase1Runner;
import dev.mnemo.internal.startup.StartupRunner;
import dev.mnemo.internal.startup.ThreadSync;
import dev.mnemo.spi.ConsolidationRecord;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.PendingNote;
import dev.mnemo.spi.RolloutSource;
import dev.mnemo.spi.Stage1Output;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
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
    /** The source of the delete operation a clear is. */
    static final String CLEAR = "clear";
    private static final String STAGE1_PREFIX = PendingMemory.STAGE1 + ":";
    /** How a pending note's id starts; the engine names the notes it queues with it. */
    static final String NOTE_PREFIX = PendingMemory.NOTE + ":";
    /** "Refresh now" stops extracting after this many Phase 1 runs, however many threads wait. */
    private static final int MAX_PHASE1_RUNS_PER_REFRESH = 64;

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
        return engine.schedule.runPhase1(Objects.requireNonNull(currentThreadId, "currentThreadId"));
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
                        GoalContext.describe(engine.state.goalOf(c.thread().id()), engine.redactor())));
        LOG.debug("memory stage-1 preview as of {}: {} thread(s), {} claimable", now, candidates.size(),
                candidates.stream().filter(c -> c.verdict() == Phase1Preview.Verdict.WOULD_CLAIM).count());
        return new Phase1Preview(now, candidates, first);
    }

    @Override
    public Phase2Report runPhase2() {
        return engine.schedule.runPhase2();
    }

    @Override
    public StartupTask startPipeline() {
        engine.requireOpen();
        engine.conversations.sweep();
        return engine.startStartupTask(PIPELINE);
    }

    @Override
    public int prune() {
        engine.requireOpen();
        return StartupRunner.prune(engine.parts.store(), engine.parts.config(), engine.parts.clock().instant(),
                engine.schedule.threadsInKeptHistory());
    }

    @Override
    public MemoryStatus status() {
        engine.requireOpen();
        Map<String, String> unreadable = new TreeMap<>();
        for (RolloutSource source : engine.sources) {
            source.unreadable().forEach((path, reason) -> unreadable.put(path.toString(), reason));
        }
        Instant now = engine.parts.clock().instant();
        return engine.parts.store().status(now, engine.parts.config().maxUnusedDays())
                .withEngineFacts(engine.schedule.lastSkip(), unreadable)
                .withExtractionBudget(extractionBudget(now));
    }

    /**
     * Where today's extraction budget stands, when one is set; empty (logged) when the store keeps
     * no ledger or a read-only store predates it.
     */
    private Optional<ExtractionBudget> extractionBudget(Instant now) {
        MemoriesConfig config = engine.parts.config();
        if (!config.hasDailyExtractionBudget()) {
            return Optional.empty();
        }
        LocalDate day = ExtractionBudget.dayOf(now);
        try {
            return Optional.of(new ExtractionBudget(day, engine.parts.store().extractionTokensSpent(day),
                    config.maxExtractionTokensPerDay()));
        } catch (RuntimeException e) {
            LOG.debug("memory status: today's extraction token budget could not be read", e);
            return Optional.empty();
        }
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
        MemoryStatus before = requireNoConsolidationRunning("clear");
        engine.forgets().deleteOperation(CLEAR, Optional.empty(), before.stage1Outputs(), () -> {
            engine.parts.store().clearMemoryData();
            engine.parts.workspace().clear();
        });
        LOG.info("memory cleared: stored memories, jobs, workspace files and history deleted");
    }

    /** The store's status, read to check that no consolidation holds a live lease; throws when one does. */
    private MemoryStatus requireNoConsolidationRunning(String what) {
        MemoryStatus status = engine.parts.store().status(engine.parts.clock().instant());
        boolean running = status.runningLeases().stream()
                .anyMatch(lease -> lease.kind().equals(GLOBAL_JOB_KIND)
                        && lease.leaseUntil().isAfter(engine.parts.clock().instant()));
        if (running) {
            throw new IllegalStateException("cannot " + what + " while a consolidation is running; try again when "
                    + "its lease ends (see admin().status())");
        }
        return status;
    }

    /**
     * 1. New rollouts into the registry. 2. Phase 1 until it claims nothing more (each run claims
     * at most {@code max_rollouts_per_startup}; bounded). 3. Phase 2 now.
     */
    @Override
    public Phase2Report consolidateNow() {
        engine.requireOpen();
        syncThreads();
        if (engine.schedule.hasPhase1()) {
            for (int run = 0; run < MAX_PHASE1_RUNS_PER_REFRESH; run++) {
                Phase1Report report = engine.schedule.runPhase1(PIPELINE.threadId());
                if (report.claimed() == 0) {
                    break;
                }
            }
        }
        Phase2Report report = engine.schedule.runPhase2Now();
        LOG.info("memory consolidate-now: phase 2 {}", report.outcome());
        return report;
    }

    @Override
    public List<PendingMemory> pending() {
        engine.requireOpen();
        MemoryStore store = engine.parts.store();
        List<PendingMemory> pending = new ArrayList<>();
        for (Stage1Output output : store.stage1OutputsAwaitingApproval()) {
            pending.add(new PendingMemory(STAGE1_PREFIX + output.threadId(), PendingMemory.STAGE1, output.threadId(),
                    output.result().rawMemory(), output.generatedAt(), output.project().map(ProjectKeys::slug)));
        }
        for (PendingNote note : store.pendingNotes()) {
            pending.add(new PendingMemory(NOTE_PREFIX + note.id(), PendingMemory.NOTE, note.threadId().orElse(""),
                    note.text(), note.createdAt(), note.projectSlug()));
        }
        pending.sort(Comparator.comparing(PendingMemory::createdAt).thenComparing(PendingMemory::id));
        return List.copyOf(pending);
    }

    @Override
    public void approve(String pendingId) {
        engine.requireOpen();
        MemoryStore store = engine.parts.store();
        Instant now = engine.parts.clock().instant();
        if (Objects.requireNonNull(pendingId, "pendingId").startsWith(STAGE1_PREFIX)) {
            Stage1Output output = awaiting(pendingId.substring(STAGE1_PREFIX.length()));
            if (!store.approveStage1Output(output.threadId(), output.sourceUpdatedAt(), now)) {
                throw new IllegalArgumentException(pendingId + " is no longer pending");
            }
            LOG.info("memory {} approved; the next consolidation takes it", pendingId);
            return;
        }
        PendingNote note = takeNote(pendingId);
        engine.notes().approved(note);
        LOG.info("note {} approved and written as {}", pendingId, note.filename());
    }

    @Override
    public void reject(String pendingId) {
        engine.requireOpen();
        if (Objects.requireNonNull(pendingId, "pendingId").startsWith(STAGE1_PREFIX)) {
            Stage1Output output = awaiting(pendingId.substring(STAGE1_PREFIX.length()));
            // The store's pollution deletes the memory (and queues Phase 2 if a consolidation used it);
            // then the thread is disabled rather than polluted, which also drops from the folder what
            // used it: forgotten as a delete forgets, the conversation kept and never extracted again.
            // The registry's markPolluted is not used: it would pollute the thread's ancestors too and
            // run the folder's forget twice.
            engine.parts.store().markThreadPolluted(output.threadId(), engine.parts.clock().instant());
            engine.threads().setMemoryMode(output.threadId(), MemoryMode.DISABLED);
            LOG.info("memory {} rejected: thread {} disabled and its memory forgotten", pendingId, output.threadId());
            return;
        }
        PendingNote note = takeNote(pendingId);
        engine.forgets().deleteOperation(EngineForgetting.FORGET, note.threadId(), 1,
                () -> engine.notes().rejected(note));
        LOG.info("note {} rejected and discarded; the same note from {} is refused from now on", pendingId,
                note.threadId().map(id -> "conversation " + id).orElse("outside any conversation"));
    }

    private Stage1Output awaiting(String threadId) {
        return engine.parts.store().stage1OutputsAwaitingApproval().stream()
                .filter(output -> output.threadId().equals(threadId)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("nothing pending has id " + STAGE1_PREFIX + threadId));
    }

    private PendingNote takeNote(String pendingId) {
        if (!pendingId.startsWith(NOTE_PREFIX)) {
            throw new IllegalArgumentException("pending ids start with " + STAGE1_PREFIX + " or " + NOTE_PREFIX + ", was "
                    + pendingId);
        }
        return engine.parts.store().takePendingNote(pendingId.substring(NOTE_PREFIX.length()))
                .orElseThrow(() -> new IllegalArgumentException("nothing pending has id " + pendingId));
    }

    @Override
    public Optional<ThreadMemory> memory(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        engine.requireOpen();
        MemoryStore store = engine.parts.store();
        return store.stage1Output(threadId).map(output -> new ThreadMemory(threadId, output.project(),
                output.result().rawMemory(), output.result().rolloutSummary(), output.sourceUpdatedAt(),
                output.generatedAt(), output.usageCount(), output.lastUsage(),
                store.stage1OutputsAwaitingApproval().stream().anyMatch(o -> o.threadId().equals(threadId)),
                output.selectedSnapshot().equals(Optional.of(output.sourceUpdatedAt()))));
    }

    @Override
    public Map<String, ThreadMemory> memories(Collection<String> threadIds) {
        Objects.requireNonNull(threadIds, "threadIds");
        engine.requireOpen();
        MemoryStore store = engine.parts.store();
        Set<String> awaiting = new HashSet<>();
        store.stage1OutputsAwaitingApproval().forEach(output -> awaiting.add(output.threadId()));
        Map<String, ThreadMemory> memories = new LinkedHashMap<>();
        for (String threadId : threadIds) {
            store.stage1Output(threadId).ifPresent(output -> memories.put(threadId, threadMemory(output,
                    awaiting.contains(threadId))));
        }
        return memories;
    }

    private static ThreadMemory threadMemory(Stage1Output output, boolean awaitingApproval) {
        return new ThreadMemory(output.threadId(), output.project(), output.result().rawMemory(),
                output.result().rolloutSummary(), output.sourceUpdatedAt(), output.generatedAt(), output.usageCount(),
                output.lastUsage(), awaitingApproval,
                output.selectedSnapshot().equals(Optional.of(output.sourceUpdatedAt())));
    }

    @Override
    public boolean canExtract() {
        return engine.schedule.hasPhase1();
    }

    @Override
    public boolean canConsolidate() {
        return engine.schedule.hasPhase2();
    }

    @Override
    public List<TranscriptLine> transcript(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        engine.requireOpen();
        Optional<ThreadInfo> thread = engine.parts.store().thread(threadId);
        if (thread.isEmpty()) {
            return List.of();
        }
        try {
            return engine.rollouts.transcript(thread.get());
        } catch (IOException | RuntimeException e) {
            LOG.warn("cannot read the conversation of thread {} ({}): no transcript", threadId, e.toString());
            return List.of();
        }
    }

    @Override
    public String consolidationDiff(String consolidationId) {
        Objects.requireNonNull(consolidationId, "consolidationId");
        engine.requireOpen();
        return engine.parts.workspace().consolidationDiff(consolidationId);
    }

    @Override
    public List<DeadJob> deadJobs() {
        engine.requireOpen();
        return engine.parts.store().deadStage1Jobs(Integer.MAX_VALUE);
    }

    @Override
    public boolean retry(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        engine.requireOpen();
        MemoryStore store = engine.parts.store();
        Optional<DeadJob> wasDead = store.deadStage1Job(threadId);
        boolean retried = store.retryStage1Job(threadId, engine.parts.clock().instant());
        if (retried) {
            engine.state.phase1Journal(threadId, DeadJobJournal.retried(wasDead));
            LOG.info("memory stage-1 job of thread {} retried{}", threadId, wasDead.isPresent() ? " (it was dead)" : "");
        }
        return retried;
    }

    /** 1. The dead jobs, for their threads' logs. 2. All put back at once. 3. A line in each thread's log. */
    @Override
    public int retryDead() {
        engine.requireOpen();
        MemoryStore store = engine.parts.store();
        List<DeadJob> dead = store.deadStage1Jobs(Integer.MAX_VALUE);
        int retried = store.retryDeadStage1Jobs(engine.parts.clock().instant());
        for (DeadJob job : dead) {
            engine.state.phase1Journal(job.threadId(), DeadJobJournal.retried(Optional.of(job)));
        }
        LOG.info("memory stage-1: {} dead job(s) retried", retried);
        return retried;
    }
}
