package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.SelectionPolicy;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Phase 2 selects under the configured {@code selection_policy}: with room for one input, Codex's
 * ranking keeps the memory that was consolidated and cited, the fair one gives the place it keeps
 * for new memories to the one no consolidation has used yet. Real SQLite store and git workspace.
 */
class FairSelectionPipelineTest {

    @TempDir
    Path home;

    @ParameterizedTest
    @EnumSource(SelectionPolicy.class)
    void aFullSelection_takesTheCitedMemoryUnderCodex_andTheNewOneUnderFair(SelectionPolicy policy) {
        MemoriesConfig config = MemoriesConfig.builder().maxRawMemoriesForConsolidation(1).selectionPolicy(policy)
                .build();
        try (Pipeline p = new Pipeline(home, config, null)) {
            String cited = p.recordSession("set up the build");
            p.idle();
            p.engine.admin().runPhase1("current-thread");
            assertThat(p.engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            for (int i = 0; i < 3; i++) {
                p.store.recordUsage(List.of(cited), p.clock.instant());
            }
            String fresh = p.recordSession("tune the flaky test");
            p.idle();
            p.engine.admin().runPhase1("current-thread");

            Phase2Outcome outcome = p.engine.admin().runPhase2().outcome();

            String selected = policy == SelectionPolicy.FAIR ? fresh : cited;
            String left = policy == SelectionPolicy.FAIR ? cited : fresh;
            assertThat(outcome).as("Codex's selection is unchanged, so is the folder")
                    .isEqualTo(policy == SelectionPolicy.FAIR ? Phase2Outcome.SUCCEEDED : Phase2Outcome.NO_WORKSPACE_CHANGES);
            assertThat(p.engine.admin().history().get(0).threadIds()).containsExactly(selected);
            assertThat(p.store.stage1Output(selected).orElseThrow().selectedSnapshot()).isPresent();
            assertThat(p.store.stage1Output(left).orElseThrow().selectedSnapshot()).isEmpty();
        }
    }
}
