package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ExtractionBudget;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.Phase1Report;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.SkipReason;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.testkit.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code max_extraction_tokens_per_day} in fleet mode: each tenant's engine spends its own budget,
 * kept in PostgreSQL, and concurrent jobs keep within it as on SQLite.
 */
class FleetExtractionBudgetTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static final TokenUsage FOUR_THOUSAND = new TokenUsage(3_600, 0, 400, 0);
    private static PostgresBackend backend;

    @BeforeAll
    static void migrate() {
        backend = DB.backend("budget");
    }

    @TempDir
    Path temp;

    private static MemoryEngine engine(String tenant, Path cache, TestClock clock, long limit, int concurrency) {
        MemoriesConfig config = Fleet.config().toBuilder().maxExtractionTokensPerDay(limit)
                .phase1Concurrency(concurrency).maxRolloutsPerStartup(64).build();
        LanguageModel model = request -> ModelResponse.ofText(Fleet.stage1Reply(Fleet.facts(request)), FOUR_THOUSAND);
        return backend.engineBuilder(tenant, cache).config(config).extractionModel(model)
                .consolidationAgent(Fleet.agent()).clock(clock).build();
    }

    private static void record(MemoryEngine engine, String threadId) {
        try (RecordedSession session = engine.sessions().start(SessionContext.root(threadId))) {
            session.userMessage("FACT: " + threadId + " was worked on");
        }
    }

    @Test
    void eachTenantSpendsItsOwnBudget() {
        TestClock clock = new TestClock(Fleet.START);
        LocalDate today = ExtractionBudget.dayOf(Fleet.START);
        try (MemoryEngine alice = engine("alice-budget", temp.resolve("alice"), clock, 10_000, 1);
                MemoryEngine bob = engine("bob-budget", temp.resolve("bob"), clock, 10_000, 1)) {
            for (String id : new String[] {"t1", "t2", "t3"}) {
                record(alice, id);
            }
            record(bob, "t1");
            clock.advance(Duration.ofHours(2));

            Phase1Report aliceRun = alice.admin().runPhase1("none");
            Phase1Report bobRun = bob.admin().runPhase1("none");

            assertThat(aliceRun.succeeded()).isEqualTo(2);
            assertThat(aliceRun.deferred()).isEqualTo(1);
            assertThat(aliceRun.skipped()).contains(SkipReason.TOKEN_BUDGET_EXHAUSTED);
            assertThat(bobRun.succeeded()).isEqualTo(1);
            assertThat(bobRun.skipped()).isEmpty();
            assertThat(backend.store("alice-budget").extractionTokensSpent(today)).isEqualTo(8_000);
            assertThat(backend.store("bob-budget").extractionTokensSpent(today)).isEqualTo(4_000);
            assertThat(alice.admin().status().extractionBudget().orElseThrow().spentTokens()).isEqualTo(8_000);
            assertThat(bob.admin().status().extractionBudget().orElseThrow().spentTokens()).isEqualTo(4_000);

            // The next UTC day, alice's deferred job runs.
            clock.advance(Duration.ofDays(1));
            assertThat(alice.admin().runPhase1("none").succeeded()).isEqualTo(1);
        }
    }

    @Test
    void concurrentJobs_neverSpendMoreThanTheBudgetPlusOneOverrunPerWorker() {
        int workers = 8;
        long limit = 20_000;
        TestClock clock = new TestClock(Fleet.START);
        try (MemoryEngine carol = engine("carol-budget", temp.resolve("carol"), clock, limit, workers)) {
            for (int i = 0; i < 24; i++) {
                record(carol, "c" + i);
            }
            clock.advance(Duration.ofHours(2));

            Phase1Report report = carol.admin().runPhase1("none");

            long spent = backend.store("carol-budget").extractionTokensSpent(ExtractionBudget.dayOf(clock.instant()));
            long mostOverrunPerJob = FOUR_THOUSAND.totalTokens() - 2_000; // a reservation holds at least 2,000
            assertThat(report.claimed()).isEqualTo(24);
            assertThat(report.deferred()).isPositive();
            assertThat(spent).isEqualTo(report.usage().totalTokens())
                    .isLessThanOrEqualTo(limit + workers * mostOverrunPerJob);
        }
    }
}
