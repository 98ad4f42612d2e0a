package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryStatus;
import dev.mnemo.Phase2Outcome;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code admin().status()}: what an operator needs to see that the pipeline is stuck, and why. */
class StatusTest {

    @TempDir
    Path home;

    @Test
    void statusShowsJobsThreadsLastConsolidationAndUnreadableRollouts() throws Exception {
        try (Pipeline p = new Pipeline(home)) {
            String id = p.recordSession("work");
            String other = p.recordSession("more work");
            p.engine.threads().setMemoryMode(other, MemoryMode.DISABLED);
            Path broken = Files.createDirectories(home.resolve("sessions/2026/11/01"))
                    .resolve("rollout-2026-11-01T00-00-00-broken.jsonl");
            Files.writeString(broken, "not json at all\n");
            p.idle();
            p.engine.admin().syncThreads();
            p.engine.admin().runPhase1("current-thread");
            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);

            MemoryStatus status = p.engine.admin().status();

            assertThat(status.threadCounts()).containsEntry(MemoryMode.ENABLED, 1).containsEntry(MemoryMode.DISABLED, 1)
                    .containsEntry(MemoryMode.POLLUTED, 0);
            assertThat(status.stage1Outputs()).isEqualTo(1);
            assertThat(status.jobCounts().get("memory_stage1")).containsEntry("done", 1);
            assertThat(status.jobCounts().get("memory_consolidate_global")).containsEntry("done", 1);
            assertThat(status.lastPhase2Success()).contains(p.clock.instant());
            assertThat(status.lastPhase2Failure()).isEmpty();
            assertThat(status.runningLeases()).isEmpty();
            assertThat(status.unreadableRollouts()).containsOnlyKeys(broken.toString());
            assertThat(p.store.stage1Output(id)).isPresent();
        }
    }

    @Test
    void clearForgetsMemoriesJobsWorkspaceAndHistoryButKeepsThreads() throws Exception {
        try (Pipeline p = new Pipeline(home)) {
            String id = p.recordSession("work");
            p.idle();
            p.engine.admin().runPhase1("current-thread");
            p.engine.admin().runPhase2();
            assertThat(p.engine.admin().history()).isNotEmpty();

            p.engine.admin().clear();

            MemoryStatus status = p.engine.admin().status();
            assertThat(status.stage1Outputs()).isZero();
            assertThat(status.jobCounts().values()).allSatisfy(byStatus ->
                    assertThat(byStatus.values()).allMatch(n -> n == 0));
            assertThat(p.engine.admin().history()).isEmpty();
            try (java.util.stream.Stream<Path> left = Files.list(p.memoryRoot())) {
                assertThat(left).isEmpty();
            }
            assertThat(p.engine.threads().get(id)).isPresent();
            assertThat(p.engine.buildDeveloperInstructions()).isEmpty();
            // As in Codex, the rollouts are still there: the next run rebuilds memory from them.
            assertThat(p.engine.admin().runPhase1("current-thread").claimed()).isEqualTo(1);
        }
    }
}
