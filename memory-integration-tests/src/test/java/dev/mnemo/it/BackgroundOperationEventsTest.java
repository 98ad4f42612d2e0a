package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Approval;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.MemoryMode;
import dev.mnemo.MemorySession;
import dev.mnemo.MemoryStoreException;
import dev.mnemo.PendingMemory;
import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.Phase2Report;
import dev.mnemo.SessionContext;
import dev.mnemo.StartupReport;
import dev.mnemo.StartupTask;
import dev.mnemo.TenantHomes;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.spi.ConsolidationAgentResult;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryOperation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the background pipeline tells the listeners, over a real home (SQLite + git) and the
 * scripted model: each run announced on the thread that starts it and finished last however it
 * ends, a {@code create_memory} per stored stage-1 output, an {@code update_memory} per
 * consolidation that changed the folder, a {@code delete_memory} per forget and per clear.
 */
class BackgroundOperationEventsTest {

    @TempDir
    Path tmp;

    /** The events in the order heard, with the thread each run was announced on. */
    private static final class Recorder implements MemoryEventListener {
        record Started(String runId, Thread thread) {}

        record Finished(String runId) {}

        final List<Object> events = new CopyOnWriteArrayList<>();

        @Override
        public void runStarted(String runId) {
            events.add(new Started(runId, Thread.currentThread()));
        }

        @Override
        public void runFinished(String runId) {
            events.add(new Finished(runId));
        }

        @Override
        public void memoryOperation(MemoryOperation operation) {
            events.add(operation);
        }

        List<MemoryOperation> operations(MemoryOperation.Type type) {
            return events.stream().filter(MemoryOperation.class::isInstance).map(MemoryOperation.class::cast)
                    .filter(op -> op.type() == type).toList();
        }

        List<Started> starts() {
            return events.stream().filter(Started.class::isInstance).map(Started.class::cast).toList();
        }

        /** The events of run {@code runId}, in order: its start, its operations, its end. */
        List<Object> run(String runId) {
            return events.stream().filter(e -> e.equals(new Finished(runId))
                    || e instanceof Started s && s.runId().equals(runId)
                    || e instanceof MemoryOperation op && op.runId().equals(Optional.of(runId))).toList();
        }

        /** Asserts run {@code runId} started on {@code thread}, then had its operations, then finished, once. */
        List<MemoryOperation> checkRun(String runId, Thread thread) {
            List<Object> run = run(runId);
            assertThat(run).as("run " + runId).hasSizeGreaterThanOrEqualTo(2);
            assertThat(run.get(0)).isInstanceOfSatisfying(Started.class, s -> assertThat(s.thread()).isSameAs(thread));
            assertThat(run.get(run.size() - 1)).isEqualTo(new Finished(runId));
            assertThat(run.stream().filter(Finished.class::isInstance)).hasSize(1);
            return run.subList(1, run.size() - 1).stream().map(MemoryOperation.class::cast).toList();
        }

        void clear() {
            events.clear();
        }
    }

    private final Recorder recorder = new Recorder();

    private Pipeline pipeline(MemoriesConfig config, ConsolidationAgent agent) {
        return new Pipeline(tmp.resolve("team-home"), config, agent, recorder);
    }

    @Test
    void adminPhase1_isOneRunOnTheCallersThread_withACreatePerStoredOutput_andNoneForANoOutputJob() {
        try (Pipeline p = pipeline(MemoriesConfig.defaults(), null)) {
            p.model.extraction = request -> ScriptedModel.extractionInput(request).contains("small talk")
                    ? ScriptedModel.reply("", "", "") : ScriptedModel.reply("builds use gradle", "a summary", "build");
            String kept = p.recordSession("how do we build");
            p.recordSession("small talk");
            p.idle();

            Phase1Report report = p.engine.admin().runPhase1("current-thread");

            assertThat(report.succeededNoOutput()).as(report.toString()).isEqualTo(1);

            assertThat(recorder.starts()).hasSize(1);
            String runId = recorder.starts().get(0).runId();
            List<MemoryOperation> ops = recorder.checkRun(runId, Thread.currentThread());
            assertThat(ops).singleElement().satisfies(op -> {
                assertThat(op.type()).isEqualTo(MemoryOperation.Type.CREATE);
                assertThat(op.source()).isEqualTo("stage1_output");
                assertThat(op.storeId()).isEqualTo("team-home");
                assertThat(op.recordCount()).isEqualTo(1);
                assertThat(op.records()).containsExactly("builds use gradle");
                assertThat(op.errorType()).isEmpty();
                assertThat(op.query()).isEmpty();
            });
            assertThat(ops.get(0).recordId()).contains(kept);
            assertThat(recorder.events).hasSize(3); // nothing outside the run
        }
    }

    /**
     * A run interrupted (an engine closing cancels its startup task) while a helper thread is in a
     * job: the job's stored output is told inside the run, before the run's end.
     */
    @Test
    @Timeout(120)
    void anInterruptedPhase1_tellsTheOutputAHelperStillStored_beforeTheRunEnds() throws Exception {
        try (Pipeline p = pipeline(MemoriesConfig.builder().phase1Concurrency(2).build(), null)) {
            CountDownLatch helperInJob = new CountDownLatch(1);
            CountDownLatch helperMayFinish = new CountDownLatch(1);
            AtomicReference<Thread> runThread = new AtomicReference<>();
            p.model.extraction = request -> {
                if (Thread.currentThread() == runThread.get()) {
                    awaitQuietly(helperInJob); // the run's own job holds its claim until the helper has the other
                } else {
                    helperInJob.countDown();
                    awaitQuietly(helperMayFinish);
                }
                return ScriptedModel.reply("builds use gradle", "a summary", "build");
            };
            p.recordSession("how do we build");
            p.recordSession("how do we deploy");
            p.idle();
            Thread run = new Thread(() -> {
                try {
                    p.engine.admin().runPhase1("current-thread");
                } catch (RuntimeException expected) {
                    // interrupted
                }
            });
            runThread.set(run);
            run.start();
            helperInJob.await();
            while (recorder.operations(MemoryOperation.Type.CREATE).isEmpty()
                    || run.getState() != Thread.State.WAITING) {
                Thread.onSpinWait(); // the run's own job stores its output, then the run waits for the helper's
            }

            run.interrupt();
            while (run.isAlive() && run.getState() != Thread.State.TIMED_WAITING) {
                Thread.onSpinWait(); // the interrupted run ends, or waits for its helper
            }
            helperMayFinish.countDown();
            run.join();

            String runId = recorder.starts().get(0).runId();
            List<MemoryOperation> inRun = recorder.checkRun(runId, run);
            assertThat(inRun).filteredOn(op -> op.type() == MemoryOperation.Type.CREATE).hasSize(2);
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true; // a model call that does not stop at once
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void consolidationThatChangedTheFolder_isAnUpdateCountingTheFilesItChanged_andOneWithoutChangesIsNone() {
        try (Pipeline p = pipeline(MemoriesConfig.defaults(), null)) {
            p.recordSession("how do we build");
            p.recordSession("where are the logs");
            p.idle();
            p.engine.admin().runPhase1("current-thread");
            recorder.clear();

            Phase2Report report = p.engine.admin().runPhase2();

            assertThat(report.outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            List<MemoryOperation> ops = recorder.checkRun(recorder.starts().get(0).runId(), Thread.currentThread());
            assertThat(ops).singleElement().satisfies(op -> {
                assertThat(op.type()).isEqualTo(MemoryOperation.Type.UPDATE);
                assertThat(op.source()).isEqualTo("consolidation");
                assertThat(op.recordId()).isEmpty();
                assertThat(op.errorType()).isEmpty();
                assertThat(op.recordCount()).as("files the consolidation's history entry changed")
                        .isEqualTo(filesChangedBy(p, p.engine.admin().history().get(0).id()))
                        .isGreaterThanOrEqualTo(4); // raw_memories.md, two summaries, MEMORY.md, memory_summary.md
            });

            recorder.clear();
            p.clock.advance(Duration.ofHours(7)); // past the success cooldown
            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.NO_WORKSPACE_CHANGES);

            assertThat(recorder.checkRun(recorder.starts().get(0).runId(), Thread.currentThread())).isEmpty();
            assertThat(recorder.operations(MemoryOperation.Type.UPDATE)).isEmpty();
        }
    }

    @Test
    void consolidationThatFailedAfterItStartedChangingTheFolder_isAnUpdateWithItsReasonCode_andItsRunStillFinishes() {
        ConsolidationAgent failing = request -> ConsolidationAgentResult.failed("model unreachable", TokenUsage.ZERO);
        try (Pipeline p = pipeline(MemoriesConfig.defaults(), failing)) {
            p.recordSession("one input");
            p.idle();
            p.engine.admin().runPhase1("current-thread");
            recorder.clear();

            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.FAILED);

            List<MemoryOperation> ops = recorder.checkRun(recorder.starts().get(0).runId(), Thread.currentThread());
            assertThat(ops).singleElement().satisfies(op -> {
                assertThat(op.type()).isEqualTo(MemoryOperation.Type.UPDATE);
                assertThat(op.errorType()).contains("failed_agent");
                assertThat(op.recordCount()).as("the synced inputs it had written").isPositive();
            });
        }
    }

    @Test
    void consolidationWithNothingToConsolidate_isARunWithoutOperations() {
        try (Pipeline p = pipeline(MemoriesConfig.defaults(), null)) {
            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.NO_WORKSPACE_CHANGES);

            assertThat(recorder.checkRun(recorder.starts().get(0).runId(), Thread.currentThread())).isEmpty();
        }
    }

    @Test
    void startupTask_isAnnouncedOnTheSubmittingThreadBeforeItRuns_andFinishedBeforeItsResultIsSeen() throws Exception {
        HeldExecutor executor = HeldExecutor.holding();
        try (Pipeline p = new Pipeline(tmp.resolve("home"), MemoriesConfig.defaults(), null, recorder,
                new FaultyStore(), executor)) {
            p.recordSession("how do we build");
            p.idle();

            StartupTask task = p.engine.startStartupTask(SessionContext.root("current-thread"));

            assertThat(recorder.events).as("announced before the executor ran anything").singleElement()
                    .isInstanceOfSatisfying(Recorder.Started.class,
                            s -> assertThat(s.thread()).isSameAs(Thread.currentThread()));
            String runId = recorder.starts().get(0).runId();
            List<Runnable> queued = executor.release();
            assertThat(queued).hasSize(1);
            Thread worker = new Thread(queued.get(0), "startup-worker");
            worker.start();
            StartupReport report = task.completion().get(30, TimeUnit.SECONDS);

            assertThat(report.phase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            List<MemoryOperation> ops = recorder.checkRun(runId, Thread.currentThread());
            assertThat(ops.stream().map(MemoryOperation::type))
                    .containsExactly(MemoryOperation.Type.CREATE, MemoryOperation.Type.UPDATE);
            worker.join();
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void startupTaskCancelledBeforeItRan_isFinishedAtOnce_withoutOperations() {
        HeldExecutor executor = HeldExecutor.holding();
        try (Pipeline p = new Pipeline(tmp.resolve("home"), MemoriesConfig.defaults(), null, recorder,
                new FaultyStore(), executor)) {
            StartupTask task = p.engine.startStartupTask(SessionContext.root("current-thread"));
            String runId = recorder.starts().get(0).runId();

            assertThat(task.cancel()).isTrue();

            assertThat(recorder.checkRun(runId, Thread.currentThread())).isEmpty();
            executor.release().forEach(Runnable::run); // the cancelled run does nothing, and is not finished twice
            assertThat(recorder.checkRun(runId, Thread.currentThread())).isEmpty();
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void eachKindOfForget_isADeleteOfItsConversation_onTheCallersThread_inNoRun() {
        try (Pipeline p = pipeline(MemoriesConfig.defaults(), null)) {
            String deleted = p.recordSession("one");
            String polluted = p.recordSession("two");
            String disabled = p.recordSession("three");
            p.idle();
            p.engine.admin().runPhase1("current-thread");
            p.engine.admin().runPhase2();
            recorder.clear();

            p.engine.threads().delete(deleted);
            p.engine.threads().markPolluted(polluted);
            p.engine.threads().setMemoryMode(disabled, MemoryMode.DISABLED);

            List<MemoryOperation> deletes = recorder.operations(MemoryOperation.Type.DELETE);
            assertThat(deletes.stream().map(op -> op.recordId().orElseThrow()))
                    .containsExactly(deleted, polluted, disabled);
            assertThat(deletes).allSatisfy(op -> {
                assertThat(op.source()).isEqualTo("forget");
                assertThat(op.runId()).isEmpty();
                assertThat(op.recordCount()).isEqualTo(1);
                assertThat(op.errorType()).isEmpty();
                assertThat(op.storeId()).isEqualTo("team-home");
            });
            assertThat(recorder.starts()).as("the forgets ran on the caller's thread").isEmpty();
        }
    }

    @Test
    void rejectingAPendingMemory_isADeleteOfItsConversation() {
        try (Pipeline p = pipeline(MemoriesConfig.builder().approval(Approval.ASK).build(), null)) {
            String thread = p.recordSession("how do we build");
            p.idle();
            p.engine.admin().runPhase1("current-thread");
            PendingMemory pending = p.engine.admin().pending().get(0);
            recorder.clear();

            p.engine.admin().reject(pending.id());

            assertThat(recorder.operations(MemoryOperation.Type.DELETE)).singleElement().satisfies(op -> {
                assertThat(op.source()).isEqualTo("forget");
                assertThat(op.recordId()).contains(thread);
                assertThat(op.runId()).isEmpty();
            });
        }
    }

    @Test
    void aForgetThatFails_isADeleteWithTheFailuresType_andTheCallerSeesTheFailure() {
        FaultyStore faults = new FaultyStore();
        try (Pipeline p = new Pipeline(tmp.resolve("home"), MemoriesConfig.defaults(), null, recorder, faults)) {
            String thread = consolidatedConversation(p);
            faults.failOn("firstConsolidated"); // the forget's first step in the workspace
            recorder.clear();

            assertThatThrownBy(() -> p.engine.threads().delete(thread)).isInstanceOf(MemoryStoreException.class);

            assertThat(recorder.operations(MemoryOperation.Type.DELETE)).singleElement().satisfies(op -> {
                assertThat(op.recordId()).contains(thread);
                assertThat(op.errorType()).contains(MemoryStoreException.class.getName());
            });
        }
    }

    @Test
    void clear_isADeleteWithoutARecordId_countingTheStoredMemories() {
        try (Pipeline p = pipeline(MemoriesConfig.defaults(), null)) {
            p.recordSession("one");
            p.recordSession("two");
            p.idle();
            p.engine.admin().runPhase1("current-thread");
            recorder.clear();

            p.engine.admin().clear();

            assertThat(recorder.events).singleElement().isInstanceOfSatisfying(MemoryOperation.class, op -> {
                assertThat(op.type()).isEqualTo(MemoryOperation.Type.DELETE);
                assertThat(op.source()).isEqualTo("clear");
                assertThat(op.recordId()).isEmpty();
                assertThat(op.recordCount()).isEqualTo(2);
                assertThat(op.runId()).isEmpty();
            });
        }
    }

    @Test
    void externalContext_isADeleteOnTheRequestThread_andTheBackgroundRollbackIsAnUpdateOfItsOwnRun() {
        HeldExecutor executor = HeldExecutor.holding();
        MemoriesConfig config = MemoriesConfig.builder().disableOnExternalContext(true).build();
        try (Pipeline p = new Pipeline(tmp.resolve("home"), config, null, recorder, new FaultyStore(), executor)) {
            String thread = consolidatedConversation(p);
            try (MemorySession session = p.engine.openSession(SessionContext.root(thread))) {
                executor.release(); // the session's startup task: not run
                recorder.clear();

                session.externalContext("web_search");

                assertThat(recorder.operations(MemoryOperation.Type.DELETE)).singleElement().satisfies(op -> {
                    assertThat(op.recordId()).contains(thread);
                    assertThat(op.runId()).isEmpty();
                });
                assertThat(recorder.starts()).singleElement()
                        .satisfies(s -> assertThat(s.thread()).isSameAs(Thread.currentThread()));
                String runId = recorder.starts().get(0).runId();
                List<Runnable> queued = executor.release();
                assertThat(queued).hasSize(1);

                queued.get(0).run();

                assertThat(recorder.checkRun(runId, Thread.currentThread())).singleElement().satisfies(op -> {
                    assertThat(op.type()).isEqualTo(MemoryOperation.Type.UPDATE);
                    assertThat(op.source()).isEqualTo("forget");
                    assertThat(op.recordId()).contains(thread);
                    assertThat(op.errorType()).isEmpty();
                });
            }
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void aForgetLeftToTheNextConsolidation_isAnUpdateOfThatConsolidationsRun() {
        HeldExecutor executor = HeldExecutor.holding();
        MemoriesConfig config = MemoriesConfig.builder().disableOnExternalContext(true).build();
        try (Pipeline p = new Pipeline(tmp.resolve("home"), config, null, recorder, new FaultyStore(), executor)) {
            String thread = consolidatedConversation(p);
            try (MemorySession session = p.engine.openSession(SessionContext.root(thread))) {
                session.externalContext("web_search");
                executor.release(); // neither the startup task nor the background pass runs
                recorder.clear();

                p.engine.admin().runPhase2();

                List<MemoryOperation> ops = recorder.checkRun(recorder.starts().get(0).runId(), Thread.currentThread());
                assertThat(ops).first().satisfies(op -> {
                    assertThat(op.type()).isEqualTo(MemoryOperation.Type.UPDATE);
                    assertThat(op.source()).isEqualTo("forget");
                    assertThat(op.recordId()).contains(thread);
                    assertThat(op.recordCount()).isEqualTo(1);
                });
            }
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void inAFleet_theStoreIdIsTheTenantsId_writtenWithoutASlash() {
        Function<String, MemoryEngine> homes = TenantHomes.under(tmp.resolve("tenants"),
                () -> MemoryEngine.builder().model(new ScriptedModel()).clock(new MutableClock(Pipeline.T0))
                        .listener(recorder).closeTimeout(Duration.ofMillis(200)));
        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(homes).build()) {
            engines.forTenant("acme").admin().clear();
            engines.forTenant("acme/eu").admin().clear();
            engines.visit("Globex", engine -> {
                engine.admin().clear();
                return null;
            });
        }

        assertThat(recorder.operations(MemoryOperation.Type.DELETE).stream().map(MemoryOperation::storeId))
                .containsExactly("acme", "acme%2Feu", "Globex");
    }

    /**
     * A backend that builds an engine per tenant itself (as {@code PostgresBackend.engineBuilder}
     * does) names the store by the tenant, not by the local folder the engine caches into; an
     * explicit id wins over the one {@link MemoryEngines} would give.
     */
    @Test
    void anEngineGivenAStoreId_isHeardByIt_writtenWithoutASlash_evenInAFleet() {
        try (MemoryEngine engine = MemoryEngine.builder().home(tmp.resolve("cache-7f3a")).storeId("acme/eu")
                .model(new ScriptedModel()).listener(recorder).closeTimeout(Duration.ofMillis(200)).build()) {
            engine.admin().clear();
        }
        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(tenant -> MemoryEngine.builder()
                .home(tmp.resolve("tenants").resolve("t1")).storeId("billing").model(new ScriptedModel())
                .listener(recorder).closeTimeout(Duration.ofMillis(200)).build()).build()) {
            engines.forTenant("acme").admin().clear();
        }

        assertThat(recorder.operations(MemoryOperation.Type.DELETE).stream().map(MemoryOperation::storeId))
                .containsExactly("acme%2Feu", "billing");
    }

    @Test
    void aBlankStoreId_isRefusedByTheBuilder_namingTheValue() {
        assertThatThrownBy(() -> MemoryEngine.builder().storeId(" "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("storeId").hasMessageContaining("' '");
    }

    @Test
    void outsideAFleet_theStoreIdIsTheHomesFolderName_neverAPath() {
        try (Pipeline p = new Pipeline(tmp.resolve("a").resolve("b").resolve("support-bot"), MemoriesConfig.defaults(),
                null, recorder)) {
            p.engine.admin().clear();
        }

        assertThat(recorder.operations(MemoryOperation.Type.DELETE)).singleElement()
                .satisfies(op -> assertThat(op.storeId()).isEqualTo("support-bot").doesNotContain("/"));
    }

    /** Records one conversation and consolidates its memory with the admin runs; returns its id. */
    private static String consolidatedConversation(Pipeline p) {
        String thread = p.recordSession("how do we build");
        p.idle();
        p.engine.admin().runPhase1("current-thread");
        assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
        return thread;
    }

    /** The files a kept consolidation changed, by its diff: an independent count of what it wrote. */
    private static int filesChangedBy(Pipeline p, String consolidationId) {
        return (int) Stream.of(p.workspace.consolidationDiff(consolidationId).split("\n"))
                .filter(line -> line.startsWith("diff --git ")).count();
    }

}
