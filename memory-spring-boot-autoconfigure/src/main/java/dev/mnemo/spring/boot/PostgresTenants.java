package dev.mnemo.spring.boot;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryStatus;
import dev.mnemo.TenantHomes;
import dev.mnemo.postgres.PostgresBackend;
import dev.mnemo.spi.MemoryStore;
import java.nio.file.Path;
import java.time.Clock;
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
            public String describe() {
                return "PostgreSQL schema " + backend.schema();
            }
        };
    }
}
