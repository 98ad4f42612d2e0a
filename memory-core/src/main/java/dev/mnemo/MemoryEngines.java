package dev.mnemo;

import dev.mnemo.internal.engine.TenantEngines;
import java.time.Clock;
import java.time.Duration;
import java.util.function.Function;

/**
 * One {@link MemoryEngine} per tenant (a user, a team, a workspace: whatever must never see
 * another's memories), opened on demand and shared by every caller of that tenant.
 *
 * <pre>{@code
 * MemoryEngines engines = MemoryEngines.builder()
 *         .engineFactory(TenantHomes.under(Path.of("/var/lib/mnemo"), () -> MemoryEngine.builder().model(model)))
 *         .maxOpen(500)
 *         .idleTimeout(Duration.ofMinutes(30))
 *         .build();
 * MemorySession session = engines.forTenant(userId).conversation(conversationId);
 * }</pre>
 *
 * <p>At most {@code maxOpen} engines are open; beyond that the least recently used one is closed
 * (its leases released, its open sessions recorded and closed). An engine unused for
 * {@code idleTimeout} is closed the next time the set is touched. A tenant's engine is never
 * opened twice at once: concurrent first calls wait for the one build, and a tenant whose engine
 * is being closed is reopened only after the close finished. Thread-safe.
 */
public interface MemoryEngines extends AutoCloseable {

    /** A builder; only the engine factory is required. */
    static Builder builder() {
        return TenantEngines.builder();
    }

    /**
     * The tenant's engine, opened through the factory on first use. Shared: callers must not close
     * it ({@link MemoryEngine#close()} on it throws); the set closes it.
     *
     * @throws IllegalArgumentException when the tenant id is blank
     * @throws IllegalStateException when the set is closed
     */
    MemoryEngine forTenant(String tenantId);

    /** How many engines are open now. */
    int openCount();

    /** Closes every open engine; later calls to {@link #forTenant} fail. */
    @Override
    void close();

    /** Configures a {@link MemoryEngines}. */
    interface Builder {

        /** Opens a tenant's engine; called once per opening, never twice at once for one tenant. */
        Builder engineFactory(Function<String, MemoryEngine> factory);

        /** The most engines open at once; default 100. */
        Builder maxOpen(int engines);

        /** Closes an engine unused for this long; default never. */
        Builder idleTimeout(Duration idle);

        /** The clock idle times are read from; default the system UTC clock. */
        Builder clock(Clock clock);

        /**
         * Builds the set.
         *
         * @throws IllegalStateException when no engine factory was given
         */
        MemoryEngines build();
    }
}
