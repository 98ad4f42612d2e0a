package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryStatus;
import dev.mnemo.testkit.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVMs run the whole startup task on one home, several times each: no Phase 1 job is claimed
 * twice, two consolidations never overlap, and every eligible thread is extracted exactly once.
 */
class TwoProcessStartupTest {

    private static final int THREADS = 40;
    private static final int ITERATIONS = 4;

    @TempDir
    Path tmp;

    @RepeatedTest(2)
    void twoJvms_claimEachThreadOnce_andNeverConsolidateTogether() throws Exception {
        Path home = tmp.resolve("home");
        List<String> eligible = TestHomes.seed(home, THREADS, "two-jvm-" + tmp.getFileName());
        Path markers = tmp.resolve("markers");
        // 8 rollouts a startup, so the 40 threads are spread over several runs of both processes.
        Files.createDirectories(home);
        Files.writeString(home.resolve("config.toml"), """
                [memories]
                max_rollouts_per_startup = 8
                min_rollout_idle_hours = 1
                phase1_concurrency = 4
                """);
        String start = Long.toString(TestHomes.PIPELINE.toEpochMilli());
        List<Process> children = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            children.add(ChildJvm.start(EngineChild.class, tmp.resolve("child-" + i + ".log"), "startup-loop", home.toString(), start,
                    markers.toString(), Integer.toString(ITERATIONS)));
        }
        for (int i = 0; i < children.size(); i++) {
            Process child = children.get(i);
            assertThat(child.waitFor(100, TimeUnit.SECONDS)).as("child %d finished", i).isTrue();
            assertThat(child.exitValue()).as("child %d exit; log:%n%s", i,
                    Files.readString(tmp.resolve("child-" + i + ".log"))).isZero();
        }

        List<String> claims = new ArrayList<>();
        try (Stream<Path> logs = Files.list(markers)) {
            for (Path log : logs.filter(p -> p.getFileName().toString().startsWith("claims-")).toList()) {
                claims.addAll(Files.readAllLines(log));
            }
        }
        var counts = claims.stream().collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        assertThat(counts.entrySet()).as("threads sent to the model more than once")
                .filteredOn(e -> e.getValue() > 1).isEmpty();
        assertThat(counts.keySet()).as("every eligible thread extracted").containsExactlyInAnyOrderElementsOf(eligible);
        assertThat(markers.resolve("overlaps.log")).as("two consolidations at once").doesNotExist();

        try (MemoryEngine engine = MemoryEngine.builder().home(home).model(FaultModel.unused())
                .clock(TestHomes.at(TestHomes.PIPELINE.plusSeconds(600))).build()) {
            MemoryStatus status = engine.admin().status();
            assertThat(status.runningLeases()).as("nothing left running").isEmpty();
            assertThat(status.stage1Outputs()).isEqualTo(THREADS);
            // Which process reaches Phase 2 first is a race: one whose own claim found nothing may
            // consolidate while the other's jobs still run, see no change in the folder and, as Codex
            // does, start the six-hour cooldown, so no consolidation is kept in this run. Either way
            // the lock was taken and released once, successfully.
            assertThat(status.lastPhase2Success()).as("a consolidation completed").isPresent();
            assertThat(status.lastPhase2RealFailure()).as("no consolidation failed").isEmpty();
        }
    }
}
