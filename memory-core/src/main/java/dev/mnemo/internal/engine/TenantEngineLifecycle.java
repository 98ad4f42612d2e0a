package dev.mnemo.internal.engine;

import dev.mnemo.MemoryEngine;
import dev.mnemo.internal.engine.TenantCachePolicy.Entry;
import dev.mnemo.internal.engine.TenantCachePolicy.Hold;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tenant engines' lifecycle: opening a tenant's engine, closing the ones the
 * {@link TenantCachePolicy} drops, visiting tenants for a schedule, and the scheduled idle sweep.
 * One lock guards only the policy's bookkeeping and the closes in progress. Engines are built
 * outside it, on the caller's thread; they are closed on the scheduler's thread, never on a
 * caller's. A tenant's entry holds the future of its one build and its count of open leases; an
 * engine with a lease open is never chosen for closing. A tenant whose engine is closing keeps that
 * close's future, so a reopening waits for it.
 */
final class TenantEngineLifecycle {

    /** The set's logger: these lines keep the name they were logged under before they moved here. */
    private static final Logger LOG = LoggerFactory.getLogger(TenantEngines.class);
    /** The most time between two idle checks, whatever the idle timeout. */
    private static final Duration MAX_SWEEP_INTERVAL = Duration.ofMinutes(1);

    private final Function<String, MemoryEngine> factory;
    private final Clock clock;
    private final ScheduledExecutorService scheduler;
    private final boolean ownsScheduler;
    private final Object lock = new Object();
    /** Guarded by {@link #lock}. */
    private final TenantCachePolicy policy;
    private final Map<String, CompletableFuture<Void>> closing = new LinkedHashMap<>();
    private boolean closed;

    /**
     * @param factory builds a tenant's engine
     * @param policy which entries are open and which go; this lifecycle's lock guards it
     * @param scheduler closes engines and runs the idle sweep; null for one of the set's own
     */
    TenantEngineLifecycle(Function<String, MemoryEngine> factory, TenantCachePolicy policy, Clock clock,
            ScheduledExecutorService scheduler) {
        this.factory = factory;
        this.policy = policy;
        this.clock = clock;
        this.ownsScheduler = scheduler == null;
        this.scheduler = ownsScheduler ? defaultScheduler() : scheduler;
        Duration idleTimeout = policy.idleTimeout();
        if (idleTimeout != null) {
            long every = Math.max(1, Math.min(idleTimeout.dividedBy(2).toMillis(), MAX_SWEEP_INTERVAL.toMillis()));
            this.scheduler.scheduleWithFixedDelay(this::closeIdleQuietly, every, every, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * The visit holds the entry as a lease does, without touching its last use or its place in the
     * order; an entry the visit itself opened, and that no caller asked for meanwhile, is dropped
     * and closed in the background when the visit ends.
     */
    <T> T visit(String tenantId, Function<MemoryEngine, T> visit) {
        Entry entry = acquire(tenantId, Hold.VISIT);
        try {
            return visit.apply(entry.engine.join());
        } finally {
            List<Map.Entry<String, Entry>> toClose = new ArrayList<>();
            synchronized (lock) {
                policy.endVisit(tenantId, entry, toClose);
                markClosing(toClose);
            }
            closeInBackground(toClose);
        }
    }

    Set<String> openTenants() {
        synchronized (lock) {
            return policy.tenants();
        }
    }

    int forEachOpen(BiConsumer<String, MemoryEngine> visit) {
        // 1. Under the lock: the built engines, each held as a lease holds it; lastUsed untouched.
        List<Map.Entry<String, Entry>> held;
        synchronized (lock) {
            held = policy.holdBuilt();
        }
        held.sort(Map.Entry.comparingByKey()); // tenant order, not the map's access order
        // 2. Outside it: the visits, each engine let go after its own; the rest if a visit throws.
        int visited = 0;
        int next = 0;
        try {
            for (; next < held.size(); next++) {
                Map.Entry<String, Entry> e = held.get(next);
                try {
                    visit.accept(e.getKey(), e.getValue().engine.join());
                    visited++;
                } finally {
                    letGo(e.getValue());
                }
            }
        } finally {
            for (int rest = next + 1; rest < held.size(); rest++) {
                letGo(held.get(rest).getValue());
            }
        }
        return visited;
    }

    /** Ends a visit's hold; unlike a lease's release, the engine's last use stays as it was. */
    private void letGo(Entry entry) {
        synchronized (lock) {
            policy.letGo(entry);
        }
    }

    /** The tenant's entry, its engine built (or failed: then it is no longer held); held as {@code hold} says. */
    Entry acquire(String tenantId, Hold hold) {
        Objects.requireNonNull(tenantId, "tenantId");
        if (tenantId.isBlank()) {
            throw new IllegalArgumentException("tenant id must not be blank");
        }
        // 1. Under the lock: find or reserve the tenant's entry, count the lease, pick what must close.
        Instant now = clock.instant();
        TenantCachePolicy.Admission admitted;
        CompletableFuture<Void> previousClose;
        List<Map.Entry<String, Entry>> toClose = new ArrayList<>();
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the tenant engines are closed");
            }
            admitted = policy.admit(tenantId, hold, now);
            previousClose = closing.get(tenantId);
            policy.evictFor(tenantId, hold, now, toClose);
            markClosing(toClose);
        }
        // 2. Outside it: hand what was dropped to the background, build what was reserved.
        Entry entry = admitted.entry();
        closeInBackground(toClose);
        if (admitted.reserved()) {
            build(tenantId, entry, previousClose);
        }
        try {
            entry.engine.join();
            return entry;
        } catch (CompletionException e) {
            if (hold != Hold.USE) {
                release(tenantId, entry);
            }
            throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
        }
    }

    private void release(String tenantId, Entry entry) {
        synchronized (lock) {
            policy.release(tenantId, entry, clock.instant());
        }
        LOG.trace("lease of tenant {} released", tenantId);
    }

    /** Ends a lease on {@code engine}, if the tenant's entry still holds that engine. */
    void releaseLease(String tenantId, MemoryEngine engine) {
        Entry entry;
        synchronized (lock) {
            entry = policy.entry(tenantId);
        }
        if (entry != null && ((SharedEngine) entry.engine.getNow(null)) == engine) {
            release(tenantId, entry);
        }
    }

    int openCount() {
        synchronized (lock) {
            return policy.size();
        }
    }

    /** Closes engines idle past the timeout and unleased, on the calling thread, walking every entry. */
    int closeIdle() {
        List<Map.Entry<String, Entry>> toClose = new ArrayList<>();
        synchronized (lock) {
            if (closed) {
                return 0;
            }
            policy.collectIdle(clock.instant(), null, toClose);
            markClosing(toClose);
        }
        closeNow(toClose);
        return toClose.size();
    }

    private void closeIdleQuietly() {
        try {
            int count = closeIdle();
            if (count > 0) {
                LOG.debug("closed {} idle tenant engine(s)", count);
            }
        } catch (RuntimeException e) {
            LOG.warn("closing idle tenant engines failed; trying again at the next check", e);
        }
    }

    /** Closes every open engine, waiting for leased ones' requests no longer than each engine's close does. */
    void close() {
        List<Map.Entry<String, Entry>> toClose = new ArrayList<>();
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            policy.dropAll(toClose);
            markClosing(toClose);
        }
        closeNow(toClose);
        if (ownsScheduler) {
            scheduler.shutdown();
            try {
                scheduler.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    long entriesExamined() {
        synchronized (lock) {
            return policy.examined();
        }
    }

    private void build(String tenantId, Entry entry, CompletableFuture<Void> previousClose) {
        if (previousClose != null) {
            previousClose.join(); // never two engines on one tenant's state at once
        }
        try {
            MemoryEngine engine = Objects.requireNonNull(EngineBuilder.forTenant(tenantId, factory),
                    () -> "the engine factory returned null for tenant " + tenantId);
            entry.engine.complete(new SharedEngine(engine));
            LOG.debug("Opened the memory engine of tenant {}", tenantId);
        } catch (RuntimeException | Error e) {
            synchronized (lock) {
                policy.removeFailed(tenantId, entry);
            }
            entry.engine.completeExceptionally(e);
        }
    }

    /** Each dropped tenant's close in progress, which a reopening waits for; under the lock. */
    private void markClosing(List<Map.Entry<String, Entry>> dropped) {
        for (Map.Entry<String, Entry> e : dropped) {
            CompletableFuture<Void> earlier = closing.get(e.getKey());
            CompletableFuture<Void> done = new CompletableFuture<>();
            closing.put(e.getKey(), earlier == null ? done : CompletableFuture.allOf(earlier, done));
        }
    }

    /** Closes dropped engines on the scheduler's thread: a caller never waits for another tenant's close. */
    private void closeInBackground(List<Map.Entry<String, Entry>> toClose) {
        if (toClose.isEmpty()) {
            return;
        }
        try {
            scheduler.execute(() -> closeNow(toClose));
        } catch (RejectedExecutionException e) {
            closeNow(toClose); // the scheduler is shutting down: close them here rather than leak them
        }
    }

    private void closeNow(List<Map.Entry<String, Entry>> toClose) {
        for (Map.Entry<String, Entry> e : toClose) {
            String tenantId = e.getKey();
            try {
                MemoryEngine engine = e.getValue().engine.join();
                ((SharedEngine) engine).delegate().close();
                LOG.debug("Closed the memory engine of tenant {}", tenantId);
            } catch (CompletionException failedBuild) {
                // Its build failed: there is nothing to close.
            } catch (RuntimeException failure) {
                LOG.warn("Closing the memory engine of tenant {} failed", tenantId, failure);
            } finally {
                CompletableFuture<Void> done;
                synchronized (lock) {
                    done = closing.remove(tenantId);
                }
                if (done != null) {
                    done.complete(null);
                }
            }
        }
    }

    private static ScheduledExecutorService defaultScheduler() {
        return Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "mnemo-tenant-engines");
            t.setDaemon(true);
            return t;
        });
    }
}
