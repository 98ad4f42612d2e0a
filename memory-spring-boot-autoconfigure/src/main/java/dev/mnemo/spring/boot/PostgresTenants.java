package dev.mnemo.spring.boot;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryStatus;
import dev.mnemo.TenantHomes;
import dev.mnemo.postgres.PostgresBackend;
import dev.mnemo.spi.MemoryStore;
import java.nio.file.Path;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.StartupReport;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.springframework.beans.factory.ListableBeanFactory;

/**
 * The per-user storage of an application that declares a {@link PostgresBackend} bean: each user
 * a tenant of it, with a local cache folder under {@code mnemo.home}. The only class here that
 * names memory-postgres, an optional dependency: it is loaded only when that module is on the class
 * path.
 */
final class PostgresTenants {

    /** A tenant id no user has (a user id is never blank, this one starts with a NUL): the health probe's. */
    static final String PROBE_TENANT = "\0mnemo-health-probe";

    private PostgresTenants() {}

    /** The storage over the application's one {@link PostgresBackend} bean, if it has one. */
    static Optional<TenantStorage> find(ListableBeanFactory beans, Path cacheRoot) {
        PostgresBackend backend = beans.getBeanProvider(PostgresBackend.class).getIfUnique();
        return Optional.ofNullable(backend).map(b -> storage(b, cacheRoot));
    }

    /**
     * Due work of the tenants of a {@link PostgresBackend}: the database is the record, so nothing is
     * marked; each run asks one query over every tenant's threads
     * ({@link PostgresBackend#tenantsWithDueExtraction}). A pass leaves nothing to update: the
     * extraction's own rows say what is done. Two servers may find the same tenant; the Phase 1
     * claims (a leased job row per conversation) let only one extract each conversation.
     */
    private static final class FleetDue implements DueTenants {
        private final PostgresBackend backend;
        private final MemoriesConfig config;

        FleetDue(PostgresBackend backend, MemoriesConfig config) {
            this.backend = backend;
            this.config = config;
        }

        @Override
        public void touch(String tenantId) {}

        @Override
        public List<Due> due(Instant now, int limit) {
            return backend.tenantsWithDueExtraction(now, Duration.ofHours(config.minRolloutIdleHours()),
                    Duration.ofDays(config.maxRolloutAgeDays()),
                    config.memorySources(), limit).stream().map(tenant -> new Due(tenant, now)).toList();
        }

        @Override
        public void passed(Due due, StartupReport report, Optional<Instant> again) {}

        @Override
        public String describe() {
            return "tenants with due extractions in PostgreSQL schema " + backend.schema();
        }
    }

    private static TenantStorage storage(PostgresBackend backend, Path cacheRoot) {
        return new TenantStorage() {
            @Override
            public MemoryEngine.Builder builder(String tenantId, UnaryOperator<MemoryEngine.Builder> configure) {
                return configure.apply(backend.engineBuilder(tenantId, TenantHomes.home(cacheRoot, tenantId)));
            }

            /** A read of the tenant's status: any thread, job, stage-1 output or consolidation counts as state. */
            @Override
            public boolean hasState(String tenantId) {
                try (MemoryStore store = backend.store(tenantId)) {
                    MemoryStatus status = store.status(Clock.systemUTC().instant());
                    return status.threadCounts().values().stream().anyMatch(n -> n > 0)
                            || status.jobCounts().values().stream().flatMap(m -> m.values().stream())
                                    .anyMatch(n -> n > 0)
                            || status.stage1Outputs() > 0 || status.lastPhase2Success().isPresent();
                }
            }

            /** One read transaction of a tenant that has no rows: a round trip to the database every user shares. */
            @Override
            public void probe() {
                try (MemoryStore store = backend.store(PROBE_TENANT)) {
                    store.status(Clock.systemUTC().instant());
                }
            }

            @Override
            public Optional<DueTenants> dueTenants(Clock clock, MemoriesConfig config) {
                return Optional.of(new FleetDue(backend, config));
            }

            @Override
            public String describe() {
                return "PostgreSQL schema " + backend.schema();
            }
        };
    }
}
