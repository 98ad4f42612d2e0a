package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryStatus;
import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.Phase2Report;
import dev.mnemo.testkit.ChildJvm;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM killed with SIGKILL ({@link Process#destroyForcibly()}) in the middle of Phase 1 and of
 * Phase 2: its jobs stay leased until the lease expires, then another engine takes them over and
 * finishes; nothing stays running; the read path never injects a half-written summary.
 */
class CrashTakeoverTest {

    @TempDir
    Path tmp;

    @Test
    void sigkillDuringPhase1_jobsAreTakenOverAfterTheLeaseAndFinish() throws Exception {
        Path home = tmp.resolve("home");
        List<String> threads = TestHomes.seed(home, 3, "p1crash");
        Path markers = tmp.resolve("markers");
        Path log = tmp.resolve("child.log");

        Process child = ChildJvm.start(EngineChild.class, log, "phase1-block", home.toString(),
                Long.toString(TestHomes.PIPELINE.toEpochMilli()), markers.toString());
        ChildJvm.await("the model to be called for all three threads", Duration.ofSeconds(90), child, log,
                () -> ChildJvm.markers(markers, "called-") == 3);
        child.destroyForcibly().waitFor();
        assertThat(child.exitValue()).as("killed by SIGKILL (128 + 9)").isEqualTo(137);

        // Same instant: the dead worker's leases still hold, nobody can claim.
        try (MemoryEngine engine = engine(home, TestHomes.PIPELINE, FaultModel.happy("after takeover"))) {
            MemoryStatus status = engine.admin().status();
            assertThat(status.runningLeases()).extracting(MemoryStatus.Lease::jobKey)
                    .containsExactlyInAnyOrderElementsOf(threads);
            assertThat(engine.admin().runPhase1("none").claimed()).isZero();
        }
        // Past the lease: another engine takes the jobs over and finishes them.
        try (MemoryEngine engine = engine(home, TestHomes.AFTER_LEASES, FaultModel.happy("after takeover"))) {
            Phase1Report phase1 = engine.admin().runPhase1("none");
            assertThat(phase1.claimed()).isEqualTo(3);
            assertThat(phase1.succeeded()).isEqualTo(3);
            Phase2Report phase2 = engine.admin().runPhase2();
            assertThat(phase2.outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            MemoryStatus status = engine.admin().status();
            assertThat(status.runningLeases()).isEmpty();
            assertThat(status.stage1Outputs()).isEqualTo(3);
            assertThat(engine.buildDeveloperInstructions()).contains("after takeover");
        }
    }

    @Test
    void sigkillDuringPhase2_noHalfWrittenSummaryIsInjected_andTheNextEngineFinishes() throws Exception {
        Path home = tmp.resolve("home");
        TestHomes.seed(home, 3, "p2crash");
        try (MemoryEngine engine = engine(home, TestHomes.PIPELINE, FaultModel.happy("unused"))) {
            assertThat(engine.admin().runPhase1("none").succeeded()).isEqualTo(3);
        }
        Path markers = tmp.resolve("markers");
        Path log = tmp.resolve("child.log");
        Process child = ChildJvm.start(EngineChild.class, log, "phase2-block", home.toString(),
                Long.toString(TestHomes.PIPELINE.toEpochMilli()), markers.toString());
        // Kill while the agent is writing its 1 MB files (turns 2..5 each rewrite both).
        ChildJvm.await("the agent's second turn", Duration.ofSeconds(90), child, log,
                () -> ChildJvm.markers(markers, "turn-") >= 2);
        child.destroyForcibly().waitFor();

        Path root = home.resolve("memories");
        Path summary = root.resolve("memory_summary.md");
        try (MemoryEngine engine = engine(home, TestHomes.PIPELINE, FaultModel.happy("final summary"))) {
            // A summary on disk is never a torn one: the agent's writes replace files whole.
            if (Files.exists(summary)) {
                String text = Files.readString(summary, StandardCharsets.UTF_8);
                assertThat(text).startsWith("v1\n").containsPattern("\nEND-\\d+\n$");
            }
            String instructions = engine.buildDeveloperInstructions();
            if (!instructions.isEmpty()) {
                assertThat(instructions).containsPattern("END-\\d+");
            }
            assertThat(engine.admin().status().runningLeases()).extracting(MemoryStatus.Lease::kind).hasSize(1);
            assertThat(engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SKIPPED_RUNNING);
        }
        try (MemoryEngine engine = engine(home, TestHomes.AFTER_LEASES, FaultModel.happy("final summary"))) {
            Phase2Report report = engine.admin().runPhase2();
            assertThat(report.outcome()).as("takeover: %s", report).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(engine.admin().status().runningLeases()).isEmpty();
            assertThat(engine.buildDeveloperInstructions()).contains("final summary").doesNotContain("END-");
            assertThat(engine.admin().history()).hasSize(1);
        }
        try (Stream<Path> files = Files.walk(root)) {
            assertThat(files.filter(p -> !root.relativize(p).startsWith(".git"))
                    .map(p -> p.getFileName().toString()))
                    .as("agent temp files left by the killed JVM are not in the memory folder's listing")
                    .noneMatch(name -> name.startsWith(".mnemo-agent-") && name.endsWith(".tmp"));
        }
    }

    private static MemoryEngine engine(Path home, java.time.Instant now, FaultModel model) {
        return MemoryEngine.builder().home(home).config(TestHomes.config()).model(model).clock(TestHomes.at(now))
                .build();
    }
}
