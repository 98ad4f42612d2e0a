package dev.mnemo.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ExtractionBudget;
import dev.mnemo.SkipReason;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/** The meters fed by the engine's listener events, read from a simple registry. */
class MnemoMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MnemoMetrics metrics = new MnemoMetrics(registry);

    @Test
    void budgetExhaustions_countByWhenTheyStoppedPhase1_andDeferredJobs_withNoTenantTag() {
        ExtractionBudget spent = new ExtractionBudget(LocalDate.of(2026, 6, 1), 10_400, 10_000);

        metrics.phase1BudgetExhausted(spent, 3);
        metrics.phase1BudgetExhausted(spent, 0);
        metrics.phase1BudgetExhausted(spent, 0);
        metrics.startupSkipped(SkipReason.TOKEN_BUDGET_EXHAUSTED);

        assertThat(registry.get("mnemo.phase1.budget.exhausted").tag("when", "part_way").counter().count())
                .isEqualTo(1.0);
        assertThat(registry.get("mnemo.phase1.budget.exhausted").tag("when", "before_claim").counter().count())
                .isEqualTo(2.0);
        assertThat(registry.get("mnemo.phase1.budget.deferred").counter().count()).isEqualTo(3.0);
        assertThat(registry.get("mnemo.startup.skipped").tag("reason", "token_budget_exhausted").counter().count())
                .isEqualTo(1.0);
        registry.getMeters().forEach(meter -> assertThat(meter.getId().getTags())
                .allSatisfy(tag -> assertThat(tag.getKey()).isIn("when", "reason")));
    }
}
