package dev.mnemo.it;

import static dev.mnemo.it.ForgettingTest.filesContaining;
import static dev.mnemo.it.ForgettingTest.gitObjectsContaining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Consolidation;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryMode;
import dev.mnemo.MemorySession;
import dev.mnemo.MemoryTools;
import dev.mnemo.Phase2FailureReason;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.Phase2Report;
import dev.mnemo.SessionContext;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.testkit.ScriptedLanguageModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A forget takes effect at once (issue 27): after {@code delete}, {@code markPolluted} or
 * {@code setMemoryMode(DISABLED)}, the very next instructions carry none of the thread's text, no
 * file or history entry holds it, no rollback brings it back, and the re-consolidation of what
 * remains does not wait for the six-hour success cooldown.
 */
class ForgetNowTest {

    private static final String SECRET = "PURPLE-OTTER-7731 is the staging codename";
    private static final String KEPT = "builds use gradle with the offline flag";

    @TempDir
    Path home;

    @Test
    void deletedThread_isGoneFromTheVeryNextInstructions_filesAndHistory() throws Exception {
        forgetAndCheck(p -> p.engine.threads().delete(p.secretThread));
    }

    @Test
    void pollutedThread_isGoneFromTheVeryNextInstructions() throws Exception {
        forgetAndCheck(p -> assertThat(p.engine.threads().markPolluted(p.secretThread)).isTrue());
    }

    @Test
    void disabledThread_isGoneFromTheVeryNextInstructions() throws Exception {
        forgetAndCheck(p -> p.engine.threads().setMemoryMode(p.secretThread, MemoryMode.DISABLED));
    }

    @Test
    void externalContextWithDisableOnExternalContext_forgetsAConsolidatedConversationAtOnce() throws Exception {
        MemoriesConfig config = MemoriesConfig.builder().disableOnExternalContext(true).build();
        try (Scenario p = new Scenario(home, config)) {
            p.consolidateBoth();
            try (MemorySession session = p.engine.openSession(SessionContext.root(p.secretThread))) {
                assertThat(session.developerInstructions()).contains(SECRET);
                session.externalContext("web_search");
                assertThat(session.developerInstructions()).doesNotContain(SECRET);
            }
        }
    }

    @Test
    void closingTheEngine_waitsForTheBackgroundForgetOfAConversationThatSawExternalContext() throws Exception {
        HeldExecutor executor = HeldExecutor.onThreadsUntilHeld();
        Thread closing = Thread.currentThread();
        AtomicBoolean checked = new AtomicBoolean();
        Thread lateRunner = null;
        try {
            MemoriesConfig config = MemoriesConfig.builder().disableOnExternalContext(true).build();
            try (Scenario p = new Scenario(home, config, new FaultyStore(), executor)) {
                p.consolidateBoth();
                try (MemorySession session = p.engine.openSession(SessionContext.root(p.secretThread))) {
                    session.startupTask().completion().join();
                    executor.hold();
                    session.externalContext("web_search");
                }
                List<Runnable> forgetPass = executor.release();
                assertThat(forgetPass).as("the background forget, not run yet").isNotEmpty();
                // The pass runs only once close waits (or once the test has checked, for code that does not).
                lateRunner = new Thread(() -> {
                    while (!checked.get() && closing.getState() != Thread.State.TIMED_WAITING) {
                        Thread.onSpinWait();
                    }
                    forgetPass.forEach(Runnable::run);
                });
                lateRunner.start();

                p.engine.close();

                assertThat(p.store.pendingForgets()).as("the forget completed before close returned").isEmpty();
                assertThat(gitObjectsContaining(p.memoryRoot(), SECRET)).isEmpty();
                checked.set(true);
                lateRunner.join();
            }
        } finally {
            checked.set(true);
            executor.shutdownNow();
        }
    }

    @Test
    void theReconsolidationAfterAForget_doesNotWaitForTheSuccessCooldown() throws Exception {
        try (Scenario p = new Scenario(home, MemoriesConfig.defaults())) {
            p.consolidateBoth();
            p.engine.threads().delete(p.secretThread);

            // No clock advance: the last success was a moment ago.
            Phase2Report rerun = p.engine.admin().runPhase2();

            assertThat(rerun.outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(p.engine.buildToolInstructions()).contains(KEPT).doesNotContain(SECRET);
            assertThat(p.engine.admin().history()).hasSize(1)
                    .allSatisfy(c -> assertThat(c.threadIds()).containsExactly(p.keptThread));
        }
    }

    @Test
    void aMemoryOnlyInAnOlderHistoryEntry_isDroppedWithEveryEntryFromThatOneOn() throws Exception {
        try (Scenario p = new Scenario(home, MemoriesConfig.defaults())) {
            p.consolidateBoth();
            String first = p.engine.admin().history().get(0).id();
            // A later consolidation no longer selects the secret thread (its memory was pruned as
            // unused) and rewrites the files without its text; only the older entry holds it.
            assertThat(Sql.update(p.home, "DELETE FROM stage1_outputs WHERE thread_id = '" + p.secretThread + "'"))
                    .isEqualTo(1);
            p.model.consolidation = request -> writeSummary(request, "v1\n\n- only the build notes remain\n");
            p.clock.advance(java.time.Duration.ofHours(7));
            p.store.enqueuePhase2(p.clock.instant().getEpochSecond());
            Path note = p.memoryRoot().resolve("extensions/ad_hoc/notes/20261101-note.md");
            Files.createDirectories(note.getParent());
            Files.writeString(note, "a note\n");
            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(p.engine.buildToolInstructions()).doesNotContain(SECRET);
            assertThat(gitObjectsContaining(p.memoryRoot(), SECRET)).isNotEmpty(); // the old entry still holds it

            p.engine.threads().delete(p.secretThread);

            assertThat(p.engine.admin().history()).isEmpty();
            assertThat(gitObjectsContaining(p.memoryRoot(), SECRET)).isEmpty();
            assertThat(filesContaining(p.memoryRoot(), SECRET)).isEmpty();
            assertThat(note).hasContent("a note");
            assertThatThrownBy(() -> p.engine.admin().rollback(first)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aThreadForgottenWhileAConsolidationRuns_hasThatConsolidationsResultDropped() throws Exception {
        try (Scenario p = new Scenario(home, MemoriesConfig.defaults())) {
            p.extractBoth();
            Function<dev.mnemo.llm.ModelRequest, ModelResponse> writer = p.model.consolidation;
            p.model.consolidation = request -> {
                if (!ScriptedLanguageModel.afterToolResults(request)) {
                    p.engine.threads().delete(p.secretThread); // the user asks to be forgotten mid-run
                }
                return writer.apply(request);
            };

            Phase2Report report = p.engine.admin().runPhase2();

            assertThat(report.failureReason()).contains(Phase2FailureReason.FORGET_PENDING);
            assertThat(p.engine.admin().history()).isEmpty();
            assertThat(filesContaining(p.memoryRoot(), SECRET)).isEmpty();
            assertThat(gitObjectsContaining(p.memoryRoot(), SECRET)).isEmpty();
            p.model.consolidation = writer;
            assertThat(p.engine.admin().runPhase2().outcome()).as("due at once").isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(p.engine.buildToolInstructions()).contains(KEPT).doesNotContain(SECRET);
        }
    }

    // ---- issue 36: retention 0, trimmed history, every exit path of a run, status ----------------

    @Test
    void retentionZero_deletedThread_leavesNoFileNoObjectAndNoInstructions() throws Exception {
        forgetWithNoHistoryKept(p -> p.engine.threads().delete(p.secretThread));
    }

    @Test
    void retentionZero_pollutedThread_leavesNoFileNoObjectAndNoInstructions() throws Exception {
        forgetWithNoHistoryKept(p -> p.engine.threads().markPolluted(p.secretThread));
    }

    @Test
    void retentionZero_disabledThread_leavesNoFileNoObjectAndNoInstructions() throws Exception {
        forgetWithNoHistoryKept(p -> p.engine.threads().setMemoryMode(p.secretThread, MemoryMode.DISABLED));
    }

    private void forgetWithNoHistoryKept(Consumer<Scenario> forget) throws Exception {
        try (Scenario p = new Scenario(home, MemoriesConfig.builder().historyRetention(0).build())) {
            p.consolidateBoth();
            assertThat(p.engine.admin().history()).isEmpty(); // only the baseline is kept
            assertThat(p.engine.buildDeveloperInstructions()).contains(SECRET);

            forget.accept(p);

            assertThat(p.engine.buildDeveloperInstructions()).doesNotContain(SECRET);
            assertThat(filesContaining(p.memoryRoot(), SECRET)).isEmpty();
            assertThat(gitObjectsContaining(p.memoryRoot(), SECRET)).isEmpty();
            assertThat(p.store.pendingForgets()).isEmpty();
            // The memories consolidated since come back at the next run, which is due at once.
            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(p.engine.buildToolInstructions()).contains(KEPT).doesNotContain(SECRET);
        }
    }

    @Test
    void trimmedHistory_aThreadFirstUsedByATrimmedConsolidation_isDroppedWithTheBaseline() throws Exception {
        try (Scenario p = new Scenario(home, MemoriesConfig.builder().historyRetention(1).build())) {
            p.consolidateBoth(); // entry 1 used the secret thread
            // Entry 2 no longer selects it (its memory was pruned), but the agent kept its text in
            // the summary; retention 1 trims entry 1, so no kept entry names the secret thread.
            assertThat(Sql.update(p.home, "DELETE FROM stage1_outputs WHERE thread_id = '" + p.secretThread + "'"))
                    .isEqualTo(1);
            p.model.consolidation = request -> writeSummary(request, "v1\n\n- kept from before: " + SECRET + "\n");
            p.clock.advance(java.time.Duration.ofHours(7));
            p.store.enqueuePhase2(p.clock.instant().getEpochSecond());
            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(p.engine.admin().history()).singleElement()
                    .satisfies(c -> assertThat(c.threadIds()).doesNotContain(p.secretThread));
            assertThat(p.engine.buildDeveloperInstructions()).contains(SECRET);

            p.engine.threads().delete(p.secretThread);

            assertThat(p.engine.buildDeveloperInstructions()).doesNotContain(SECRET);
            assertThat(filesContaining(p.memoryRoot(), SECRET)).isEmpty();
            assertThat(gitObjectsContaining(p.memoryRoot(), SECRET)).isEmpty();
            assertThat(p.engine.admin().history()).isEmpty();
        }
    }

    @Test
    void whileAForgetWaitsForARunningConsolidation_theReadingToolsSayItIsInProgress_andShowNoText() throws Exception {
        try (Scenario p = new Scenario(home, MemoriesConfig.defaults())) {
            p.consolidateBoth();
            String searchSecret = "{\"queries\":[\"PURPLE-OTTER\"]}";
            assertThat(p.engine.tools().call(MemoryTools.SEARCH, searchSecret)).contains(SECRET);
            p.clock.advance(java.time.Duration.ofHours(7));
            p.store.enqueuePhase2(p.clock.instant().getEpochSecond());
            Path note = p.memoryRoot().resolve("extensions/ad_hoc/notes/20261101-note.md");
            Files.createDirectories(note.getParent());
            Files.writeString(note, "a note\n"); // something new: the agent runs
            Function<dev.mnemo.llm.ModelRequest, ModelResponse> writer = p.model.consolidation;
            AtomicReference<String> readMeanwhile = new AtomicReference<>();
            AtomicReference<String> instructionsMeanwhile = new AtomicReference<>();
            p.model.consolidation = request -> {
                if (readMeanwhile.get() == null) {
                    p.engine.threads().delete(p.secretThread); // forgotten while the lock is held
                    readMeanwhile.set(p.engine.tools().call(MemoryTools.SEARCH, searchSecret));
                    instructionsMeanwhile.set(p.engine.buildDeveloperInstructions());
                }
                return writer.apply(request);
            };

            p.engine.admin().runPhase2();

            assertThat(readMeanwhile.get()).contains("being updated after a forget").doesNotContain(SECRET);
            assertThat(instructionsMeanwhile.get()).isEmpty();
            assertThat(p.engine.tools().call(MemoryTools.SEARCH, searchSecret)).doesNotContain("being updated")
                    .doesNotContain(SECRET);
        }
    }

    @Test
    void aForgetDeferredToARunThatFails_isCompletedWhenTheRunEnds_andTheNextRunIsDueAtOnce() throws Exception {
        try (Scenario p = new Scenario(home, MemoriesConfig.defaults())) {
            p.consolidateBoth();
            p.clock.advance(java.time.Duration.ofHours(7));
            p.store.enqueuePhase2(p.clock.instant().getEpochSecond());
            Path note = p.memoryRoot().resolve("extensions/ad_hoc/notes/20261101-note.md");
            Files.createDirectories(note.getParent());
            Files.writeString(note, "a note\n"); // something new: the agent runs
            Function<dev.mnemo.llm.ModelRequest, ModelResponse> writer = p.model.consolidation;
            p.model.consolidation = request -> {
                p.engine.threads().delete(p.secretThread); // forgotten while the lock is held
                throw new IllegalStateException("the consolidation model is down");
            };

            Phase2Report failed = p.engine.admin().runPhase2();

            assertThat(failed.outcome()).isEqualTo(Phase2Outcome.FAILED);
            assertThat(p.engine.buildDeveloperInstructions()).doesNotContain(SECRET);
            assertThat(filesContaining(p.memoryRoot(), SECRET)).isEmpty();
            assertThat(gitObjectsContaining(p.memoryRoot(), SECRET)).isEmpty();
            assertThat(p.store.pendingForgets()).isEmpty();
            p.model.consolidation = writer;
            assertThat(p.engine.admin().runPhase2().outcome()).as("no backoff").isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(p.engine.buildToolInstructions()).contains(KEPT).doesNotContain(SECRET);
        }
    }

    @Test
    void aForgetLandingAfterTheRunsLastCheck_isCompletedBeforeTheRunReturns() throws Exception {
        FaultyStore faults = new FaultyStore();
        try (Scenario p = new Scenario(home, MemoriesConfig.defaults(), faults)) {
            p.extractBoth();
            Function<dev.mnemo.llm.ModelRequest, ModelResponse> writer = p.model.consolidation;
            // After its commit the run looks up each thread its history names (two) to find the
            // forgotten ones; the forget lands right after the last lookup, before the run ends.
            java.util.concurrent.atomic.AtomicInteger lookups = new java.util.concurrent.atomic.AtomicInteger();
            Runnable[] forgetAfterLastLookup = new Runnable[1];
            forgetAfterLastLookup[0] = () -> {
                if (lookups.incrementAndGet() < 2) {
                    faults.interleaveAfter("thread", forgetAfterLastLookup[0]);
                } else {
                    p.engine.threads().delete(p.secretThread);
                }
            };
            p.model.consolidation = request -> {
                if (ScriptedLanguageModel.afterToolResults(request)) {
                    faults.interleaveAfter("thread", forgetAfterLastLookup[0]);
                }
                return writer.apply(request);
            };

            Phase2Report report = p.engine.admin().runPhase2();

            assertThat(report.outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(p.engine.buildDeveloperInstructions()).doesNotContain(SECRET);
            assertThat(filesContaining(p.memoryRoot(), SECRET)).isEmpty();
            assertThat(gitObjectsContaining(p.memoryRoot(), SECRET)).isEmpty();
            assertThat(p.store.pendingForgets()).isEmpty();
            p.model.consolidation = writer;
            assertThat(p.engine.admin().runPhase2().outcome()).as("due at once").isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(p.engine.buildToolInstructions()).contains(KEPT).doesNotContain(SECRET);
        }
    }

    @Test
    void aPendingForgetLeftByADeadProcess_isCompletedFirstByTheNextRun_pastTheCooldown() throws Exception {
        try (Scenario p = new Scenario(home, MemoriesConfig.defaults())) {
            p.consolidateBoth();
            // A process forgot the thread in the store, recorded the pending forget, held the lock
            // for its own consolidation and died: the row stays claimed until its lease ends.
            p.store.addPendingForget(p.secretThread, p.clock.instant());
            p.store.deleteThread(p.secretThread, p.clock.instant());
            assertThat(Sql.update(p.home, "UPDATE jobs SET status = 'running', worker_id = 'dead', ownership_token = "
                    + "'dead-token', lease_until = " + (p.clock.instant().getEpochSecond() + 3600)
                    + " WHERE kind = 'memory_consolidate_global'")).isEqualTo(1);
            p.clock.advance(java.time.Duration.ofHours(2)); // the lease ended; the success cooldown has not

            Phase2Report report = p.engine.admin().runPhase2();

            assertThat(report.outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(p.engine.buildDeveloperInstructions()).doesNotContain(SECRET);
            assertThat(filesContaining(p.memoryRoot(), SECRET)).isEmpty();
            assertThat(gitObjectsContaining(p.memoryRoot(), SECRET)).isEmpty();
            assertThat(p.store.pendingForgets()).isEmpty();
            assertThat(p.engine.buildToolInstructions()).contains(KEPT);
        }
    }

    @Test
    void statusAfterAForget_keepsTheLastSuccess_andShowsThePendingForgetNotAFailure() throws Exception {
        try (Scenario p = new Scenario(home, MemoriesConfig.defaults())) {
            p.consolidateBoth();
            java.time.Instant succeeded = p.engine.admin().status().lastPhase2Success().orElseThrow();
            // A running consolidation elsewhere holds the lock: the forget waits for it.
            assertThat(Sql.update(p.home, "UPDATE jobs SET status = 'running', worker_id = 'other', ownership_token = "
                    + "'other-token', lease_until = " + (p.clock.instant().getEpochSecond() + 3600)
                    + " WHERE kind = 'memory_consolidate_global'")).isEqualTo(1);

            p.engine.threads().delete(p.secretThread);

            dev.mnemo.MemoryStatus pending = p.engine.admin().status();
            assertThat(pending.pendingForgets()).containsExactly(p.secretThread);
            assertThat(pending.lastPhase2Success()).contains(succeeded);

            assertThat(Sql.update(p.home, "UPDATE jobs SET lease_until = 0 WHERE kind = 'memory_consolidate_global'"))
                    .isEqualTo(1);
            p.engine.admin().runPhase2();
            dev.mnemo.MemoryStatus after = p.engine.admin().status();
            assertThat(after.pendingForgets()).isEmpty();
            assertThat(after.lastPhase2Success()).isPresent();
            assertThat(after.lastPhase2RealFailure()).isEmpty();
        }
    }

    @Test
    void retention_sparesTheMemoryOfAThreadAKeptConsolidationUsed_soAForgetsReconsolidationHasIt() throws Exception {
        try (Scenario p = new Scenario(home, MemoriesConfig.defaults())) {
            p.consolidateBoth();
            // The kept thread's memory is stale and no longer selected (a forget's restore resets the
            // flags this way): retention alone would delete it.
            assertThat(Sql.update(p.home, "UPDATE stage1_outputs SET selected_for_phase2 = 0, last_usage = NULL,"
                    + " source_updated_at = 1 WHERE thread_id = '" + p.keptThread + "'")).isEqualTo(1);

            assertThat(p.engine.admin().prune()).isZero();

            assertThat(p.store.stage1Output(p.keptThread)).isPresent();
        }
    }

    @Test
    void externalContextOnTheRequestThread_recordsTheForgetsAndLeavesTheRollbackToOneBackgroundPass()
            throws Exception {
        HeldExecutor executor = HeldExecutor.onThreadsUntilHeld();
        MemoriesConfig config = MemoriesConfig.builder().disableOnExternalContext(true).build();
        try (Scenario p = new Scenario(home, config, new FaultyStore(), executor)) {
            p.consolidateBoth();
            // The secret conversation was spawned by the kept one; a sub-agent of the secret one
            // reads a web page: both consolidated ancestors are polluted with it.
            try (MemorySession secret = p.engine.openSession(SessionContext.root(p.secretThread)
                    .spawnedBy(p.keptThread));
                    MemorySession child = p.engine.openSession(SessionContext.root("sub-agent")
                            .spawnedBy(p.secretThread))) {
                secret.startupTask().completion().join();
                child.startupTask().completion().join();
                executor.hold();

                child.externalContext("web_search");

                List<Runnable> queued = executor.release();
                assertThat(queued).as("one background pass for every polluted ancestor").hasSize(1);
                assertThat(p.store.pendingForgets()).containsExactlyInAnyOrder(p.secretThread, p.keptThread);
                assertThat(filesContaining(p.memoryRoot(), SECRET)).as("the rollback has not run yet").isNotEmpty();
                assertThat(child.developerInstructions()).doesNotContain(SECRET);
                assertThat(p.engine.buildDeveloperInstructions()).doesNotContain(SECRET);

                queued.get(0).run();

                assertThat(p.store.pendingForgets()).isEmpty();
                assertThat(filesContaining(p.memoryRoot(), SECRET)).isEmpty();
                assertThat(gitObjectsContaining(p.memoryRoot(), SECRET)).isEmpty();
                assertThat(p.engine.admin().history()).isEmpty();
            }
        } finally {
            executor.shutdownNow();
        }
    }


    private void forgetAndCheck(Consumer<Scenario> forget) throws Exception {
        try (Scenario p = new Scenario(home, MemoriesConfig.defaults())) {
            p.consolidateBoth();
            List<Consolidation> before = p.engine.admin().history();
            assertThat(p.engine.buildToolInstructions()).contains(SECRET); // the test sees it while it is there
            MemorySession reader = p.engine.conversation("reader");
            assertThat(reader.developerInstructions()).contains(SECRET);
            // Its startup run ends first: one that starts during the forget waits for it and then
            // re-consolidates at once (due now), which would refuse the rollback below as "running".
            reader.startupTask().completion().join();

            forget.accept(p);

            assertThat(reader.developerInstructions()).doesNotContain(SECRET);
            assertThat(p.engine.buildDeveloperInstructions()).doesNotContain(SECRET);
            assertThat(p.engine.tools().call("memories_search", "{\"query\":\"PURPLE-OTTER\"}"))
                    .doesNotContain("PURPLE-OTTER-7731 is");
            assertThat(filesContaining(p.memoryRoot(), SECRET)).isEmpty();
            assertThat(gitObjectsContaining(p.memoryRoot(), SECRET)).isEmpty();
            assertThat(p.engine.admin().history()).isEmpty();
            assertThatThrownBy(() -> p.engine.admin().rollback(before.get(0).id()))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    /** Writes {@code summary} as memory_summary.md and the raw memories as MEMORY.md. */
    private static ModelResponse writeSummary(dev.mnemo.llm.ModelRequest request, String summary) {
        if (ScriptedLanguageModel.afterToolResults(request)) {
            return ModelResponse.ofText("consolidated", ScriptedLanguageModel.DEFAULT_USAGE);
        }
        return ModelResponse.ofToolCalls(List.of(
                ScriptedLanguageModel.writeFile("w1", "MEMORY.md", "# Task Group: everything\n\n- " + KEPT + "\n"),
                ScriptedLanguageModel.writeFile("w2", "memory_summary.md", summary)),
                ScriptedLanguageModel.DEFAULT_USAGE);
    }

    /** Two recorded threads, one holding a secret; a consolidation that copies raw memories into the summary. */
    private static final class Scenario extends Pipeline {
        final String keptThread;
        final String secretThread;

        Scenario(Path home, MemoriesConfig config) {
            this(home, config, new FaultyStore());
        }

        Scenario(Path home, MemoriesConfig config, FaultyStore faults) {
            this(home, config, faults, null);
        }

        Scenario(Path home, MemoriesConfig config, FaultyStore faults, java.util.concurrent.ExecutorService executor) {
            super(home, config, null, null, faults, executor);
            model.extraction = request -> ScriptedModel.extractionInput(request).contains("codename")
                    ? ScriptedModel.reply("- " + SECRET, "# " + SECRET, "codename")
                    : ScriptedModel.reply("- " + KEPT, "# build notes", "build");
            model.consolidation = request -> {
                Optional<Path> root = Optional.of(memoryRoot()); // the test reads the disk; a model would use read_file
                String raw = root.map(r -> r.resolve("raw_memories.md")).filter(Files::isRegularFile)
                        .map(Scenario::read).orElse("");
                return writeSummary(request, "v1\n\n## What's in Memory\n" + raw);
            };
            keptThread = recordSession("how do we build", "thanks");
            secretThread = recordSession("hello", "note that " + SECRET);
        }

        void extractBoth() {
            idle();
            engine.admin().runPhase1("current-thread");
        }

        void consolidateBoth() {
            extractBoth();
            assertThat(engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
        }

        private static String read(Path file) {
            try {
                return Files.readString(file);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }
}
