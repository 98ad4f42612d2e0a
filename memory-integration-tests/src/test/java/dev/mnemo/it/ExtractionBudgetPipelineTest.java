package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ExtractionBudget;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryStatus;
import dev.mnemo.Phase1Report;
import dev.mnemo.SessionContext;
import dev.mnemo.SkipReason;
import dev.mnemo.StartupReport;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.MemoryEventListener;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code max_extraction_tokens_per_day} end to end over a real SQLite store: jobs reserve their
 * estimate before they run and settle with the model's reported usage; a job without room is
 * released unrun; a spent budget claims nothing and the run says {@code token_budget_exhausted}
 * until the next UTC day.
 */
class ExtractionBudgetPipelineTest {

    private static final long LIMIT = 10_000;
    /** What each scripted extraction reports: about 4,000 tokens a job. */
    private static final TokenUsage FOUR_THOUSAND = new TokenUsage(3_600, 0, 400, 0);

    @TempDir
    Path home;

    private static MemoriesConfig budget(long limit, int concurrency) {
        return MemoriesConfig.builder().maxExtractionTokensPerDay(limit).phase1Concurrency(concurrency)
                .maxRolloutsPerStartup(64).build();
    }

    private static LocalDate day(Pipeline p) {
        return ExtractionBudget.dayOf(p.clock.instant());
    }

    @Test
    void thirdJobOfFourThousandTokens_isNotRun_andRunsTheNextUtcDay() {
        try (Pipeline p = new Pipeline(home, budget(LIMIT, 1), null)) {
            p.model.extractionUsage = FOUR_THOUSAND;
            for (int i = 0; i < 3; i++) {
                p.recordSession("task " + i);
            }
            p.idle();

            Phase1Report first = p.engine.admin().runPhase1("current-thread");

            assertThat(first.claimed()).isEqualTo(3);
            assertThat(first.succeeded()).isEqualTo(2);
            assertThat(first.deferred()).isEqualTo(1);
            assertThat(first.skipped()).contains(SkipReason.TOKEN_BUDGET_EXHAUSTED);
            assertThat(p.model.extractions()).isEqualTo(2);
            assertThat(p.store.extractionTokensSpent(day(p))).isEqualTo(8_000);
            assertThat(p.store.status(p.clock.instant()).lastModelFailure()).isEmpty();

            // Later the same day the deferred job still does not fit: it waits, spending no retry.
            p.clock.advance(Duration.ofHours(1));
            Phase1Report again = p.engine.admin().runPhase1("current-thread");
            assertThat(again.deferred()).isEqualTo(1);
            assertThat(p.model.extractions()).isEqualTo(2);

            // The next UTC day has a budget of its own.
            p.clock.advance(Duration.ofHours(9));
            Phase1Report nextDay = p.engine.admin().runPhase1("current-thread");
            assertThat(nextDay.succeeded()).isEqualTo(1);
            assertThat(nextDay.skipped()).isEmpty();
            assertThat(p.model.extractions()).isEqualTo(3);
            assertThat(p.store.extractionTokensSpent(day(p))).isEqualTo(4_000);
        }
    }

    @Test
    void spentBudget_claimsNothing_andTheStartupTaskSaysSo_untilTheNextUtcDay() throws Exception {
        List<String> heard = new CopyOnWriteArrayList<>();
        MemoryEventListener listener = new MemoryEventListener() {
            @Override
            public void phase1BudgetExhausted(ExtractionBudget budget, int deferredJobs) {
                heard.add(budget.exhausted() + "/" + deferredJobs);
            }
        };
        try (Pipeline p = new Pipeline(home, budget(LIMIT, 1), null, listener)) {
            p.model.extractionUsage = new TokenUsage(5_500, 0, 500, 0); // over the estimate: an over-spend
            for (int i = 0; i < 3; i++) {
                p.recordSession("task " + i);
            }
            p.idle();
            assertThat(p.engine.admin().runPhase1("current-thread").deferred()).isEqualTo(1);
            assertThat(p.store.extractionTokensSpent(day(p))).as("the over-spend is recorded").isEqualTo(12_000);

            StartupReport report = p.engine.startStartupTask(SessionContext.root("current-thread")).completion()
                    .get(30, TimeUnit.SECONDS);

            assertThat(report.skipped()).contains(SkipReason.TOKEN_BUDGET_EXHAUSTED);
            assertThat(report.phase1().claimed()).isZero();
            assertThat(p.model.extractions()).isEqualTo(2);
            MemoryStatus status = p.engine.admin().status();
            assertThat(status.lastStartupSkip()).contains(SkipReason.TOKEN_BUDGET_EXHAUSTED);
            ExtractionBudget today = status.extractionBudget().orElseThrow();
            assertThat(today.exhausted()).isTrue();
            assertThat(today.spentTokens()).isEqualTo(12_000);
            assertThat(today.describe()).startsWith("exhausted until 00:00 UTC");
            assertThat(heard).containsExactly("true/1", "true/0");

            p.clock.advance(Duration.ofHours(9));
            assertThat(p.engine.admin().runPhase1("current-thread").succeeded()).isEqualTo(1);
            assertThat(p.engine.admin().status().extractionBudget().orElseThrow().exhausted()).isFalse();
        }
    }

    @Test
    void concurrentJobs_neverSpendMoreThanTheBudgetPlusOneOverrunPerWorker() {
        int workers = 8;
        long limit = 20_000;
        try (Pipeline p = new Pipeline(home, budget(limit, workers), null)) {
            p.model.extractionUsage = FOUR_THOUSAND;
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                ids.add(p.recordSession("task " + i));
            }
            p.idle();

            Phase1Report report = p.engine.admin().runPhase1("current-thread");

            long spent = p.store.extractionTokensSpent(day(p));
            // Each job reserves at least the output allowance (2,000 tokens), so a job runs past its
            // reservation by at most 4,000 - 2,000.
            long mostOverrunPerJob = FOUR_THOUSAND.totalTokens() - 2_000;
            assertThat(report.claimed()).isEqualTo(40);
            assertThat(report.succeeded() + report.deferred()).isEqualTo(40);
            assertThat(report.deferred()).isPositive();
            assertThat(spent).isEqualTo(report.usage().totalTokens())
                    .isEqualTo(report.succeeded() * FOUR_THOUSAND.totalTokens())
                    .isLessThanOrEqualTo(limit + workers * mostOverrunPerJob);
            assertThat(report.skipped()).contains(SkipReason.TOKEN_BUDGET_EXHAUSTED);
        }
    }

    @Test
    void everyEnding_settlesTheReservation_withWhatTheModelReported() {
        try (Pipeline p = new Pipeline(home, budget(LIMIT, 1), null)) {
            p.model.extractionUsage = FOUR_THOUSAND;
            p.recordSession("task");
            p.idle();

            // A model failure: nothing reported, the whole reservation comes back.
            p.model.extraction = request -> {
                throw new dev.mnemo.llm.ModelException(dev.mnemo.llm.ModelException.Reason.NETWORK, "unreachable");
            };
            Phase1Report unreachable = p.engine.admin().runPhase1("current-thread");
            assertThat(unreachable.failed()).isEqualTo(1);
            assertThat(p.store.extractionTokensSpent(day(p))).isZero();

            // Two replies that never match the schema: a failed job whose two answers are counted.
            p.clock.advance(Duration.ofMinutes(10));
            p.model.extraction = request -> "not json";
            Phase1Report invalid = p.engine.admin().runPhase1("current-thread");
            assertThat(invalid.failed()).isEqualTo(1);
            assertThat(p.store.extractionTokensSpent(day(p))).isEqualTo(2 * FOUR_THOUSAND.totalTokens());
        }
    }

    @Test
    void withoutABudget_nothingIsReservedOrReported() {
        try (Pipeline p = new Pipeline(home)) {
            p.recordSession("task");
            p.idle();
            Phase1Report report = p.engine.admin().runPhase1("current-thread");
            assertThat(report.succeeded()).isEqualTo(1);
            assertThat(report.skipped()).isEmpty();
            assertThat(p.store.extractionTokensSpent(day(p))).isZero();
            assertThat(p.engine.admin().status().extractionBudget()).isEmpty();
        }
    }
}
