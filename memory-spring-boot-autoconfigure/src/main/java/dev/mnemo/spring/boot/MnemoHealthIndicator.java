package dev.mnemo.spring.boot;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryStatus;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code mnemo} health: UP with the job counts, the thread counts and the last consolidation;
 * DOWN when the engine cannot read its store. The last Phase 2 failure reason, while it is the
 * latest Phase 2 outcome, is a detail; it does not make the application DOWN (the pipeline retries).
 */
final class MnemoHealthIndicator implements HealthIndicator {

    private final MemoryEngine engine;

    MnemoHealthIndicator(MemoryEngine engine) {
        this.engine = engine;
    }

    @Override
    public Health health() {
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
