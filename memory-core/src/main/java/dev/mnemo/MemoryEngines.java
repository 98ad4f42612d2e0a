package dev.mnemo;

import dev.mnemo.internal.engine.TenantEngines;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BiConsumer;
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
 * try (MemoryEngines.Lease lease = engines.lease(userId)) {          // one request
 *     MemorySession session = lease.engine().conversation(conversationId);
 *     ...
 * }
 * }</pre>
 *
 * <p>At most {@code maxOpen} engines are open; beyond that the least recently used one without an
 * open {@link Lease} is closed (its job claims released, its open sessions recorded and closed). An
 * engine unused and unleased for {@code idleTimeout} is closed by a background check, whether or
 * not any caller comes. Engines are closed on the set's own thread, never on a caller's, and never
 * while a lease on them is open: a request that leased its engine always finishes on it. A tenant's
 * engine is never opened twice at once: concurrent first calls wait for the one build, and a
 * tenant whose engine is being closed is reopened only after the close finished. Thread-safe.
 *
 * <p>Engines built with their default executor hold no thread while idle (their pools' threads end
 * after a minute without work), so a set of 500 idle tenants holds no thread for them.
 */
public interface MemoryEngines extends AutoCloseable {

    /**
     * A builder; only the engine factory is required.
     *
     * @return a new builder with the defaults
     */
    static Builder builder() {
        return TenantEngines.builder();
    }

    /**
     * The tenant's engine, opened through the factory on first use. Shared: callers must not close
     * it ({@link MemoryEngine#close()} on it throws); the set closes it. Without a {@link #lease},
     * an engine held across a long request may be closed as idle or least recently used under its
     * caller; requests should {@link #lease} it.
     *
     * @param tenantId the tenant, as the application names it (a user, team or workspace id); not blank
     * @return the tenant's shared engine, open
     * @throws IllegalArgumentException when the tenant id is blank
     * @throws IllegalStateException when the set is closed
     */
    MemoryEngine forTenant(String tenantId);

    /**
     * The tenant's engine, held open until the lease is closed: neither the idle timeout nor
     * {@code maxOpen} closes an engine with an open lease. One lease per request, closed when the
     * request's answer is complete.
     *
     * @param tenantId the tenant, as the application names it (a user, team or workspace id); not blank
     * @return the lease, to close when the request's answer is complete
     * @throws IllegalArgumentException when the tenant id is blank
     * @throws IllegalStateException when the set is closed
     */
    Lease lease(String tenantId);

    /**
     * How many engines are open now.
     *
     * @return the count, at most {@code maxOpen} except while a {@link #visit} holds an extra one
     */
    int openCount();

    /**
     * The tenants whose engines are open now, sorted.
     *
     * @return a snapshot of their ids; empty when none is open
     */
    Set<String> openTenants();

    /**
     * Calls {@code visit} with each engine open now, in tenant id order, holding each open for
     * the call as a lease does but without counting as use: what a pipeline schedule or a health
     * check does, so that visiting never keeps an idle tenant's engine open. An engine still being
     * built or already chosen for closing is skipped. An exception from {@code visit} stops the walk
     * and reaches the caller.
     *
     * @param visit called with each tenant id and its engine; must not close the engine
     * @return how many engines were visited
     */
    int forEachOpen(BiConsumer<String, MemoryEngine> visit);

    /**
     * Calls {@code visit} with the tenant's engine and returns what it returns, holding the engine
     * open for the call as a lease does but without counting as use. An engine that was open stays
     * as it was (its idle time runs on); an engine opened for the visit is closed, in the background,
     * right after it, unless a caller asked for the tenant meanwhile. What a schedule that runs a
     * user's due pipeline, or an operator's look at one user, does without keeping engines open.
     * A visit never closes another tenant's engine to make room: for its duration the set may hold
     * more than {@code maxOpen} engines.
     *
     * <p>The default holds a {@link #lease} for the call (which counts as use); the built-in set
     * does as described.
     *
     * @param <T> the type of what {@code visit} returns
     * @param tenantId the tenant, as the application names it; not blank
     * @param visit called once with the tenant's engine; must not close it
     * @return what {@code visit} returned
     * @throws IllegalArgumentException when the tenant id is blank
     * @throws IllegalStateException when the set is closed
     */
    default <T> T visit(String tenantId, Function<MemoryEngine, T> visit) {
        try (Lease lease = lease(tenantId)) {
            return visit.apply(lease.engine());
        }
    }

    /** A request's hold on one tenant's engine; closing it twice is harmless. */
    interface Lease extends AutoCloseable {

        /**
         * The tenant whose engine this lease holds.
         *
         * @return the tenant id given to {@link MemoryEngines#lease}
         */
        String tenantId();

        /**
         * The tenant's shared engine.
         *
         * @return the engine, open until this lease is closed; callers must not close it
         * @throws IllegalStateException after {@link #close()}
         */
        MemoryEngine engine();

        /** Ends the hold: the engine may be closed again once idle. */
        @Override
        void close();
    }

    /** Closes every open engine; later calls to {@link #forTenant} fail. */
    @Override
    void close();

    /** Configures a {@link MemoryEngines}. */
    interface Builder {

        /**
         * Sets how a tenant's engine is opened; required.
         *
         * @param factory opens a tenant's engine from its id, usually in a folder of its own
         *     ({@link TenantHomes}); called once per opening, never twice at once for one tenant
         * @return this builder
         */
        Builder engineFactory(Function<String, MemoryEngine> factory);

        /**
         * The most engines open at once; default 100.
         *
         * @param engines the limit, at least 1
         * @return this builder
         * @throws IllegalArgumentException when {@code engines} is less than 1
         */
        Builder maxOpen(int engines);

        /**
         * Closes an engine unused for this long; default never.
         *
         * @param idle how long an unleased engine may stay unused; positive
         * @return this builder
         * @throws IllegalArgumentException when {@code idle} is zero or negative
         */
        Builder idleTimeout(Duration idle);

        /**
         * The clock idle times are read from; default the system UTC clock.
         *
         * @param clock the clock, for tests a fixed or manual one
         * @return this builder
         */
        Builder clock(Clock clock);

        /**
         * Where idle checks are scheduled and evicted engines closed; default a daemon thread the set
         * owns and stops on {@link MemoryEngines#close()}. A given scheduler is not shut down.
         *
         * @param scheduler the executor for idle checks and closes
         * @return this builder
         */
        Builder scheduler(ScheduledExecutorService scheduler);

        /**
         * Builds the set.
         *
         * @return the set, with no engine open yet
         * @throws IllegalStateException when no engine factory was given
         */
        MemoryEngines build();
    }
}
