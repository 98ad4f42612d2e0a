package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.Consolidation;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.Phase2Report;
import dev.mnemo.SessionContext;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ReasoningEffort;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.spi.ConsolidationAgentResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Phase 2 end to end: real SQLite store, real git workspace, the default agent driven by a scripted model. */
class Phase2PipelineTest {

    private static final String VALID_SUMMARY = "v1\n\nsummary\n";

    @TempDir
    Path home;

    @TempDir
    Path outside;

    @Test
    void consolidationLeavesValidArtifactsCleanDiffSelectionAndHistory() {
        try (Pipeline p = new Pipeline(home)) {
            String id = p.recordSession("set up the build");
            p.idle();
            p.engine.admin().runPhase1("current-thread");

            Phase2Report report = p.engine.admin().runPhase2();

            assertThat(report.outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(report.inputs()).isEqualTo(1);
            // three turns: read raw_memories.md (the prompt names no path to read it from), write, stop
            assertThat(report.usage()).isEqualTo(ScriptedModel.USAGE.plus(ScriptedModel.USAGE).plus(ScriptedModel.USAGE));
            assertThat(read(p.memoryRoot().resolve("memory_summary.md"))).startsWith("v1\n");
            assertThat(read(p.memoryRoot().resolve("MEMORY.md"))).contains("a memory");
            assertThat(p.workspace.diff().isEmpty()).isTrue();
            assertThat(Files.exists(p.memoryRoot().resolve("phase2_workspace_diff.md"))).isFalse();
            assertThat(p.store.stage1Output(id).orElseThrow().selectedSnapshot()).contains(Pipeline.T0);
            List<Consolidation> history = p.engine.admin().history();
            assertThat(history).singleElement().satisfies(c -> {
                assertThat(c.threadIds()).containsExactly(id);
                assertThat(c.inputs()).isEqualTo(1);
            });
        }
    }

    @Test
    void agentRequestsUseMediumEffortTheConfiguredModelAndPointAtTheDiffFile() {
        MemoriesConfig config = MemoriesConfig.builder().consolidationModel("big-model").build();
        try (Pipeline p = new Pipeline(home, config, null)) {
            p.recordSession("work");
            p.idle();
            p.engine.admin().runPhase1("current-thread");
            p.engine.admin().runPhase2();
            ModelRequest first = p.model.requests().stream().filter(r -> r.outputSchema().isEmpty()).findFirst()
                    .orElseThrow();
            assertThat(first.model()).isEqualTo("big-model");
            assertThat(first.reasoningEffort()).isEqualTo(ReasoningEffort.MEDIUM);
            assertThat(first.messages().get(0).text()).contains("Memory workspace diff:", "phase2_workspace_diff.md",
                    "Mode: INIT");
            assertThat(first.tools()).extracting(t -> t.name()).contains("write_file", "read_file");
        }
    }

    @Test
    void secondPhase2InsideTheCooldownIsSkipped_andAfterItNoChangeMeansNoAgentRun() {
        try (Pipeline p = new Pipeline(home)) {
            p.recordSession("work");
            p.idle();
            p.engine.admin().runPhase1("current-thread");
            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            int turns = p.model.consolidationTurns();

            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SKIPPED_COOLDOWN);
            p.clock.advance(Duration.ofHours(7));
            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.NO_WORKSPACE_CHANGES);
            assertThat(p.model.consolidationTurns()).isEqualTo(turns);
        }
    }

    @Test
    void cleanWorkspaceWithoutArtifactsStillRunsTheAgent_andFailsWhenItWritesNothing() throws Exception {
        int[] runs = {0};
        ConsolidationAgent idle = request -> {
            runs[0]++;
            return ConsolidationAgentResult.completed(TokenUsage.ZERO);
        };
        try (Pipeline p = new Pipeline(home, MemoriesConfig.defaults(), idle)) {
            p.recordSession("one input");
            p.idle();
            p.engine.admin().runPhase1("current");
            // A first run syncs the input and fails: the agent wrote nothing.
            assertThat(p.engine.admin().runPhase2().failure()).hasValueSatisfying(f ->
                    assertThat(f).startsWith("failed_invalid_artifacts"));
            // Commit that synced state as the baseline, so the workspace is clean but has no artifacts.
            Files.deleteIfExists(p.memoryRoot().resolve("phase2_workspace_diff.md"));
            p.workspace.squashHistory();
            p.clock.advance(Duration.ofHours(2));

            Phase2Report report = p.engine.admin().runPhase2();

            assertThat(runs[0]).isEqualTo(2);
            assertThat(report.outcome()).isEqualTo(Phase2Outcome.FAILED);
            assertThat(report.failure().orElseThrow()).startsWith("failed_invalid_artifacts");
            assertThat(read(p.memoryRoot().resolve("phase2_workspace_diff.md"))).contains("## Status\n- none\n");
            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SKIPPED_RETRY_BACKOFF);
        }
    }

    @Test
    void workerCreatedSymlinkIsRemovedAndFailsTheRunWhetherOrNotTheWorkerCompleted() throws Exception {
        Path target = Files.writeString(outside.resolve("target.md"), "outside\n");
        for (boolean completed : new boolean[] {true, false}) {
            Path h = home.resolve("completed-" + completed);
            ConsolidationAgent linking = request -> {
                try {
                    Files.writeString(request.memoryRoot().resolve("MEMORY.md"), "memory\n");
                    Files.writeString(request.memoryRoot().resolve("memory_summary.md"), VALID_SUMMARY);
                    Files.createSymbolicLink(request.memoryRoot().resolve("extensions/ad_hoc/link.md"), target);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return completed ? ConsolidationAgentResult.completed(TokenUsage.ZERO)
                        : ConsolidationAgentResult.failed("worker failed", TokenUsage.ZERO);
            };
            try (Pipeline p = new Pipeline(h, MemoriesConfig.defaults(), linking)) {
                p.recordSession("one input");
                p.idle();
                p.engine.startStartupTask(SessionContext.root("current")).completion().get(30, TimeUnit.SECONDS);
                assertThat(Files.exists(p.memoryRoot().resolve("extensions/ad_hoc/link.md"),
                        java.nio.file.LinkOption.NOFOLLOW_LINKS)).isFalse();
                assertThat(read(target)).isEqualTo("outside\n");
                assertThat(Files.exists(p.memoryRoot().resolve("phase2_workspace_diff.md"))).isTrue();
                assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SKIPPED_RETRY_BACKOFF);
                assertThat(p.engine.admin().status().lastPhase2Failure()).hasValueSatisfying(f ->
                        assertThat(f).startsWith(completed ? "failed_invalid_artifacts" : "failed_agent"));
            }
        }
    }

    @Test
    void startupReplacesASymlinkedExtensionsFolderBeforeSeeding() throws Exception {
        try (Pipeline p = new Pipeline(home)) {
            Files.createDirectories(p.memoryRoot());
            Files.createSymbolicLink(p.memoryRoot().resolve("extensions"), outside);
            p.engine.startStartupTask(SessionContext.root("current")).completion().get(30, TimeUnit.SECONDS);
            assertThat(Files.isSymbolicLink(p.memoryRoot().resolve("extensions"))).isFalse();
            assertThat(p.memoryRoot().resolve("extensions/ad_hoc/instructions.md")).isRegularFile();
            try (Stream<Path> files = Files.list(outside)) {
                assertThat(files).isEmpty();
            }
        }
    }

    @Test
    void seededInstructionsAreNeverOverwritten() throws Exception {
        try (Pipeline p = new Pipeline(home)) {
            Path instructions = p.memoryRoot().resolve("extensions/ad_hoc/instructions.md");
            Files.createDirectories(instructions.getParent());
            Files.writeString(instructions, "my own rules\n");
            p.engine.startStartupTask(SessionContext.root("current")).completion().get(30, TimeUnit.SECONDS);
            assertThat(read(instructions)).isEqualTo("my own rules\n");
        }
    }

    @Test
    void workspaceDiffTracksInputsAcrossRuns() throws IOException {
        MemoriesConfig config = MemoriesConfig.builder().maxRawMemoriesForConsolidation(1).build();
        try (Pipeline p = new Pipeline(home, config, null)) {
            String a = p.recordSession("task A");
            p.idle();
            p.model.extraction = request -> ScriptedModel.reply("memory A", "summary A", "rollout-a");
            p.engine.admin().runPhase1("current-thread");
            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);

            String b = p.recordSession("task B");
            p.idle();
            p.model.extraction = request -> ScriptedModel.reply("memory B", "summary B", "rollout-b");
            p.engine.admin().runPhase1("current-thread");
            List<String> diffsSeen = new java.util.ArrayList<>();
            p.model.consolidation = request -> {
                diffsSeen.add(read(p.memoryRoot().resolve("phase2_workspace_diff.md")));
                return ScriptedModel.writeArtifactsFromRawMemories(request);
            };
            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);

            assertThat(diffsSeen.get(0)).contains("- M raw_memories.md").containsPattern("- D rollout_summaries/.*rollout_a\\.md")
                    .containsPattern("- A rollout_summaries/.*rollout_b\\.md").contains("-memory A", "+memory B");
            String raw = read(p.memoryRoot().resolve("raw_memories.md"));
            assertThat(raw).contains(b).doesNotContain(a);
            try (Stream<Path> summaries = Files.list(p.memoryRoot().resolve("rollout_summaries"))) {
                assertThat(summaries.map(f -> f.getFileName().toString())).singleElement().asString()
                        .endsWith("-rollout_b.md");
            }
        }
    }

    @Test
    void oldExtensionResourcesArePruned_withAndWithoutStage1Input() throws Exception {
        for (boolean withInput : new boolean[] {true, false}) {
            Path h = home.resolve("input-" + withInput);
            try (Pipeline p = new Pipeline(h)) {
                if (withInput) {
                    p.recordSession("work");
                }
                p.clock.advance(Duration.ofDays(8));
                Path resources = Files.createDirectories(p.memoryRoot().resolve("extensions/feed/resources"));
                Files.writeString(resources.getParent().resolve("instructions.md"), "feed\n");
                Files.writeString(resources.resolve("2026-11-01T09-00-00-old.md"), "old\n");
                Files.writeString(resources.resolve("2026-11-03T09-00-00-young.md"), "young\n");
                Files.writeString(resources.resolve("notes.md"), "undated\n");

                p.engine.startStartupTask(SessionContext.root("current")).completion().get(30, TimeUnit.SECONDS);

                assertThat(resources.resolve("2026-11-01T09-00-00-old.md")).doesNotExist();
                assertThat(resources.resolve("2026-11-03T09-00-00-young.md")).exists();
                assertThat(resources.resolve("notes.md")).exists();
                assertThat(p.memoryRoot().resolve("phase2_workspace_diff.md")).doesNotExist();
                assertThat(p.workspace.diff().isEmpty()).isTrue();
            }
        }
    }

    @Test
    void freshFolderWithoutMemoriesOrNotes_doesNotStartTheAgent() {
        try (Pipeline p = new Pipeline(home)) {
            Phase2Report report = p.engine.startStartupTask(SessionContext.root("current")).completion().join().phase2();

            assertThat(report.outcome()).isEqualTo(Phase2Outcome.NO_WORKSPACE_CHANGES);
            assertThat(report.inputs()).isZero();
            assertThat(p.model.consolidationTurns()).isZero();
        }
    }

    @Test
    void anAdHocNoteAloneStartsTheAgent() {
        try (Pipeline p = new Pipeline(home)) {
            String written = p.engine.tools().call("memories_add_ad_hoc_note",
                    "{\"filename\":\"2026-11-01T09-00-00-prefer-tabs.md\",\"note\":\"The user prefers tabs.\"}");
            assertThat(written).doesNotContain("error");

            Phase2Report report = p.engine.admin().runPhase2();

            assertThat(report.outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(p.model.consolidationTurns()).isPositive();
        }
    }

    @Test
    void storedMemoriesThatAreAllPastMaxUnusedDays_keepTheFolderAndDoNotStartTheAgent() throws IOException {
        try (Pipeline p = new Pipeline(home)) {
            p.recordSession("how do we release?");
            p.idle();
            p.engine.admin().runPhase1("current");
            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            String memory = read(p.memoryRoot().resolve("MEMORY.md"));
            int turns = p.model.consolidationTurns();
            p.clock.advance(Duration.ofDays(40));

            Phase2Report report = p.engine.admin().runPhase2();

            assertThat(report.outcome()).isEqualTo(Phase2Outcome.NO_WORKSPACE_CHANGES);
            assertThat(p.model.consolidationTurns()).isEqualTo(turns);
            assertThat(read(p.memoryRoot().resolve("MEMORY.md"))).isEqualTo(memory);
            assertThat(p.workspace.diff().isEmpty()).isTrue();
        }
    }

    @Test
    void forgettingTheOnlyMemory_removesItsFilesAtOnce_withoutTheAgent() {
        try (Pipeline p = new Pipeline(home)) {
            String id = p.recordSession("how do we release?");
            p.idle();
            p.engine.admin().runPhase1("current");
            p.engine.admin().runPhase2();
            int turns = p.model.consolidationTurns();
            assertThat(p.memoryRoot().resolve("MEMORY.md")).exists();

            p.engine.threads().delete(id); // no clock advance: a forget does not wait for the cooldown

            assertThat(p.memoryRoot().resolve("MEMORY.md")).doesNotExist();
            assertThat(p.memoryRoot().resolve("memory_summary.md")).doesNotExist();
            Phase2Report report = p.engine.admin().runPhase2();
            assertThat(report.inputs()).isZero();
            assertThat(report.outcome()).isEqualTo(Phase2Outcome.NO_WORKSPACE_CHANGES);
            assertThat(p.model.consolidationTurns()).isEqualTo(turns);
        }
    }

    @Test
    void agentThatDoesNotCompleteFailsWithFailedAgent() {
        ConsolidationAgent failing = request -> ConsolidationAgentResult.failed("model unreachable", TokenUsage.ZERO);
        try (Pipeline p = new Pipeline(home, MemoriesConfig.defaults(), failing)) {
            p.recordSession("one input");
            p.idle();
            p.engine.admin().runPhase1("current");
            Phase2Report report = p.engine.admin().runPhase2();
            assertThat(report.failure()).contains("failed_agent: model unreachable");
        }
    }

    @Test
    void rollbackRestoresTheFilesAndTheSelection() {
        try (Pipeline p = new Pipeline(home)) {
            String a = p.recordSession("task A");
            p.idle();
            p.engine.admin().runPhase1("current-thread");
            p.engine.admin().runPhase2();
            String first = p.engine.admin().history().get(0).id();
            String memoryAfterFirst = read(p.memoryRoot().resolve("MEMORY.md"));

            String b = p.recordSession("task B");
            p.idle();
            p.model.extraction = request -> ScriptedModel.reply("memory B", "summary B", null);
            p.engine.admin().runPhase1("current-thread");
            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(p.store.stage1Output(b).orElseThrow().selectedSnapshot()).isPresent();

            p.engine.admin().rollback(first);

            assertThat(read(p.memoryRoot().resolve("MEMORY.md"))).isEqualTo(memoryAfterFirst);
            assertThat(p.store.stage1Output(a).orElseThrow().selectedSnapshot()).isPresent();
            assertThat(p.store.stage1Output(b).orElseThrow().selectedSnapshot()).isEmpty();
            assertThat(p.engine.admin().history()).hasSize(3);
        }
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
