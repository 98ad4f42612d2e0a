package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.Phase2Report;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.MemoryEventListener;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every model call the pipeline makes reaches the listeners, whoever started the run: what token meters count. */
class ModelCallEventsTest {

    @TempDir
    Path home;

    private record Call(String phase, TokenUsage usage) {}

    @Test
    void everyPipelineModelCall_isReportedWithItsPhaseAndUsage_fromTheAdminRunsToo() {
        List<Call> calls = new CopyOnWriteArrayList<>();
        MemoryEventListener listener = new MemoryEventListener() {
            @Override
            public void modelCalled(String phase, TokenUsage usage) {
                calls.add(new Call(phase, usage));
            }
        };
        try (Pipeline p = new Pipeline(home, MemoriesConfig.defaults(), null, listener)) {
            p.recordSession("how do we build", "thanks");
            p.recordSession("where are the logs");
            p.idle();

            Phase1Report phase1 = p.engine.admin().runPhase1("current-thread");
            Phase2Report phase2 = p.engine.admin().runPhase2();

            assertThat(phase2.outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            List<Call> extraction = calls.stream().filter(c -> c.phase().equals(MemoryEventListener.PHASE1)).toList();
            List<Call> consolidation = calls.stream().filter(c -> c.phase().equals(MemoryEventListener.PHASE2)).toList();
            assertThat(extraction).hasSize(2);
            assertThat(sum(extraction)).isEqualTo(phase1.usage());
            assertThat(consolidation).hasSizeGreaterThanOrEqualTo(2); // the tool calls, then the closing answer
            assertThat(sum(consolidation)).isEqualTo(phase2.usage());
        }
    }

    private static TokenUsage sum(List<Call> calls) {
        return calls.stream().map(Call::usage).reduce(TokenUsage.ZERO, TokenUsage::plus);
    }
}
