package dev.mnemo.internal.engine;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * {@link MemoryEngines}: one engine per tenant, opened on first use and closed when idle, least
 * recently used beyond the bound, or when the set closes. The set is a facade over two parts kept
 * apart as Caffeine keeps eviction policy apart from the map: {@link TenantCachePolicy} decides
 * which tenants stay open (idle expiry, the LRU bound, leases), and {@link TenantEngineLifecycle}
 * opens and closes engines, visits tenants for a schedule and runs the idle sweep, under one lock
 * that guards only bookkeeping.
 */
public final class TenantEngines implements MemoryEngines {

    private final TenantEngineLifecycle lifecycle;

    private TenantEngines(BuilderImpl builder) {
        this.lifecycle = new TenantEngineLifecycle(builder.factory,
                new TenantCachePolicy(builder.maxOpen, builder.idleTimeout), builder.clock, builder.scheduler);
    }

    public static MemoryEngines.Builder builder() {
        return new BuilderImpl();
    }

    @Override
    public MemoryEngine forTenant(String tenantId) {
        return lifecycle.acquire(tenantId, TenantCachePolicy.Hold.USE).engine.join();
    }

    @Override
    public Lease lease(String tenantId) {
        MemoryEngine engine = lifecycle.acquire(tenantId, TenantCachePolicy.Hold.LEASE).engine.join();
        return new TenantLease(tenantId, engine);
    }

    /**
     * The visit holds the entry as a lease does, without touching its last use or its place in the
     * order; an entry the visit itself opened, and that no caller asked for meanwhile, is dropped
     * and closed in the background when the visit ends.
     */
    @Override
    public <T> T visit(String tenantId, Function<MemoryEngine, T> visit) {
        Objects.requireNonNull(visit, "visit");
        return lifecycle.visit(tenantId, visit);
    }

    @Override
    public Set<String> openTenants() {
        return lifecycle.openTenants();
    }

    @Override
    public int forEachOpen(BiConsumer<String, MemoryEngine> visit) {
        Objects.requireNonNull(visit, "visit");
        return lifecycle.forEachOpen(visit);
    }

    @Override
    public int openCount() {
        return lifecycle.openCount();
    }

    /**
     * Closes engines idle past the timeout and unleased, on the calling thread, walking every entry;
     * the scheduler does this on its own, and every {@link #forTenant} hands the idle ones it finds
     * at the head of the map to the background.
     *
     * @return how many were closed
     */
    public int closeIdle() {
        return lifecycle.closeIdle();
    }

    /** Closes every open engine, waiting for leased ones' requests no longer than each engine's close does. */
    @Override
    public void close() {
        lifecycle.close();
    }

    /**
     * How many entries the eviction checks have looked at since the set was built: callers' checks
     * and the scheduled sweeps together. A diagnostic (tests use it to see that a call does not walk
     * every open engine); not part of {@link MemoryEngines}.
     */
    public long entriesExamined() {
        return lifecycle.entriesExamined();
    }

    /** A request's hold on its tenant's engine. */
    private final class TenantLease implements Lease {
        private final String tenantId;
        private final MemoryEngine engine;
        private final AtomicBoolean released = new AtomicBoolean();

        TenantLease(String tenantId, MemoryEngine engine) {
            this.tenantId = tenantId;
            this.engine = engine;
        }

        @Override
        public String tenantId() {
            return tenantId;
        }

        @Override
        public MemoryEngine engine() {
            if (released.get()) {
                throw new IllegalStateException("the lease on tenant " + tenantId + "'s engine was closed");
            }
            return engine;
        }

        @Override
        public void close() {
            if (!released.compareAndSet(false, true)) {
                return;
            }
            lifecycle.releaseLease(tenantId, engine);
        }
    }

    /** Configures {@link TenantEngines}. */
    private static final class BuilderImpl implements MemoryEngines.Builder {
        private Function<String, MemoryEngine> factory;
        private int maxOpen = 100;
        private Duration idleTimeout;
        private Clock clock = Clock.systemUTC();
        private ScheduledExecutorService scheduler;

        @Override
        public MemoryEngines.Builder engineFactory(Function<String, MemoryEngine> factory) {
            this.factory = Objects.requireNonNull(factory, "factory");
            return this;
        }

        @Override
        public MemoryEngines.Builder maxOpen(int engines) {
            if (engines < 1) {
                throw new IllegalArgumentException("maxOpen must be at least 1, was " + engines);
            }
            this.maxOpen = engines;
            return this;
        }

        @Override
        public MemoryEngines.Builder idleTimeout(Duration idle) {
            Objects.requireNonNull(idle, "idle");
            if (idle.isNegative() || idle.isZero()) {
                throw new IllegalArgumentException("idleTimeout must be positive, was " + idle);
            }
            this.idleTimeout = idle;
            return this;
        }

        @Override
        public MemoryEngines.Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        @Override
        public MemoryEngines.Builder scheduler(ScheduledExecutorService scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        @Override
        public MemoryEngines build() {
            if (factory == null) {
                throw new IllegalStateException("no engine factory: call engineFactory(..), e.g. with "
                        + "TenantHomes.under(root, () -> MemoryEngine.builder().model(model))");
            }
            return new TenantEngines(this);
        }
    }
}
