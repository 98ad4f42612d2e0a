package dev.mnemo.it;

import static dev.mnemo.it.ForgettingTest.filesContaining;
import static dev.mnemo.it.ForgettingTest.gitObjectsContaining;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.Consolidation;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryMode;
import dev.mnemo.MemorySession;
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

    private void forgetAndCheck(Consumer<Scenario> forget) throws Exception {
        try (Scenario p = new Scenario(home, MemoriesConfig.defaults())) {
            p.consolidateBoth();
            List<Consolidation> before = p.engine.admin().history();
            assertThat(p.engine.buildToolInstructions()).contains(SECRET); // the test sees it while it is there
            MemorySession reader = p.engine.conversation("reader");
            assertThat(reader.developerInstructions()).contains(SECRET);

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
            super(home, config, null);
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
