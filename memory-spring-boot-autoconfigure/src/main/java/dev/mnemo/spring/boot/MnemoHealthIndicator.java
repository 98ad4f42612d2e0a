package dev.mnemo.spring.boot;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.MemoryStatus;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code mnemo} health: UP with the job counts, the thread counts and the last consolidation;
 * DOWN when the engine cannot read its store. The last Phase 2 failure reason, while it is the
 * latest Phase 2 outcome, is a detail; it does not make the application DOWN (the pipeline retries).
 * With {@link MemoryEngines} (many users) it reports how many engines are open; each tenant's own
 * health is the application's to expose, since tenant ids must not become health keys.
 */
final class MnemoHealthIndicator implements HealthIndicator {

    private final ObjectProvider<MemoryEngine> engine;
    private final ObjectProvider<MemoryEngines> engines;

    MnemoHealthIndicator(ObjectProvider<MemoryEngine> engine, ObjectProvider<MemoryEngines> engines) {
        this.engine = engine;
        this.engines = engines;
    }

    @Override
    public Health health() {
        MemoryEngine single = engine.getIfUnique();
        if (single != null) {
            return health(single);
        }
        MemoryEngines tenants = engines.getIfUnique();
        if (tenants != null) {
            return Health.up().withDetail("openEngines", tenants.openCount()).build();
        }
        return Health.unknown().withDetail("reason", "no MemoryEngine or MemoryEngines bean").build();
    }

    private static Health health(MemoryEngine engine) {
        MemoryStatus status;
        try {
            status = engine.admin().status();
        } catch (RuntimeException e) {
            return Health.down(e).build();
        }
        Health.Builder health = Health.up()
                .withDetail("jobs", status.jobCounts())
                .withDetail("threads", status.threadCounts())
                .withDetail("memories", status.stage1Outputs())
                .withDetail("runningJobs", status.runningLeases().size())
                .withDetail("lastConsolidation", status.lastPhase2Success().map(Object::toString).orElse("never"));
        status.lastPhase2Failure().ifPresent(failure -> health.withDetail("lastConsolidationFailure", failure));
        status.lastStartupSkip().ifPresent(skip -> health.withDetail("lastStartupSkip", skip.name()));
        return health.build();
    }
}
