package dev.mnemo.spring.boot;

import dev.mnemo.ExtractionBudget;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.MemoryException;
import dev.mnemo.MemoryStatus;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code mnemo} health.
 *
 * <ul>
 *   <li>One shared engine: UP with the job counts, the thread counts and the last consolidation;
 *       DOWN when the engine cannot read its store. The last Phase 2 failure reason, while it is
 *       the latest Phase 2 outcome, is a detail; it does not make the application DOWN (the
 *       pipeline retries). So is the day's extraction budget ({@code max_extraction_tokens_per_day}),
 *       spent or not: an exhausted budget is the limit working, not a fault.</li>
 *   <li>One engine per user: the storage every user shares is probed (the users' homes folder, or
 *       the PostgreSQL database of a {@code PostgresBackend}): DOWN when it fails. UP with the
 *       number of open engines and of those whose store failed a status read ({@code failingEngines}:
 *       one user's broken store is that user's problem, not the application's), and of those whose
 *       own extraction budget is spent for the day ({@code extractionBudgetExhaustedEngines}, when any). User ids never
 *       become health keys or details.</li>
 * </ul>
 * With the pipeline schedule on, its interval and last run are details too.
 */
final class MnemoHealthIndicator implements HealthIndicator {

    private final ObjectProvider<MemoryEngine> engine;
    private final ObjectProvider<MemoryEngines> engines;
    private final Optional<TenantStorage> storage;
    private final Optional<MnemoPipelineSchedule> schedule;

    /**
     * @param storage what every user's engine shares, when known (the auto-configured MemoryEngines'
     *     storage, or an application's own MemoryEngines over a PostgresBackend bean)
     */
    MnemoHealthIndicator(ObjectProvider<MemoryEngine> engine, ObjectProvider<MemoryEngines> engines,
            Optional<TenantStorage> storage, Optional<MnemoPipelineSchedule> schedule) {
        this.engine = engine;
        this.engines = engines;
        this.storage = storage;
        this.schedule = schedule;
    }

    @Override
    public Health health() {
        Health.Builder health;
        MemoryEngines users = engines.getIfUnique();
        MemoryEngine single = engine.getIfUnique();
        if (users != null) {
            health = perUser(users);
        } else if (single != null) {
            health = shared(single);
        } else {
            return Health.unknown().withDetail("reason", "no MemoryEngine or MemoryEngines bean").build();
        }
        schedule.ifPresent(s -> health.withDetail("pipelineSchedule", Map.of("interval", s.interval().toString(),
                "lastRun", s.lastRun().map(Object::toString).orElse("never"), "lastRunEngines", s.lastRunEngines())));
        return health.build();
    }

    private Health.Builder perUser(MemoryEngines users) {
        if (storage.isPresent()) {
            try {
                storage.get().probe();
            } catch (RuntimeException e) {
                return Health.down(e).withDetail("storage", storage.get().describe())
                        .withDetail("openEngines", users.openCount());
            }
        }
        int[] tally = tally(users);
        Health.Builder health = Health.up().withDetail("openEngines", users.openCount())
                .withDetail("failingEngines", tally[0]);
        if (tally[1] > 0) {
            health.withDetail("extractionBudgetExhaustedEngines", tally[1]);
        }
        storage.ifPresent(s -> health.withDetail("storage", s.describe()));
        return health;
    }

    /**
     * How many open users' engines fail a status read, and how many have spent today's extraction
     * budget (each user's own: the budget is per tenant); visiting does not count as use.
     */
    private static int[] tally(MemoryEngines users) {
        int[] tally = {0, 0};
        users.forEachOpen((user, open) -> {
            try {
                if (open.admin().status().extractionBudget().filter(ExtractionBudget::exhausted).isPresent()) {
                    tally[1]++;
                }
            } catch (MemoryException e) {
                tally[0]++;
            }
        });
        return tally;
    }

    private static Health.Builder shared(MemoryEngine engine) {
        MemoryStatus status;
        try {
            status = engine.admin().status();
        } catch (RuntimeException e) {
            return Health.down(e);
        }
        Health.Builder health = Health.up()
                .withDetail("jobs", status.jobCounts())
                .withDetail("threads", status.threadCounts())
                .withDetail("memories", status.stage1Outputs())
                .withDetail("runningJobs", status.runningLeases().size())
                .withDetail("lastConsolidation", status.lastPhase2Success().map(Object::toString).orElse("never"));
        status.lastPhase2Failure().ifPresent(failure -> health.withDetail("lastConsolidationFailure", failure));
        status.lastStartupSkip().ifPresent(skip -> health.withDetail("lastStartupSkip", skip.code()));
        status.extractionBudget().ifPresent(budget -> health.withDetail("extractionBudget", Map.of(
                "day", budget.day().toString(), "spentTokens", budget.spentTokens(), "limitTokens", budget.limitTokens(),
                "exhausted", budget.exhausted(), "resetsAt", budget.resetsAt().toString())));
        return health;
    }
}
