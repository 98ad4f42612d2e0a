package dev.mnemo.internal.engine;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link MemoryEngines}: an access-ordered map of tenant → engine under one lock, where the lock
 * guards only bookkeeping. Engines are built outside it, on the caller's thread; they are closed
 * on the scheduler's thread, never on a caller's. A tenant's entry holds the future of its one
 * build and its count of open leases; an engine with a lease open is never chosen for closing.
 * A tenant whose engine is closing keeps that close's future, so a reopening waits for it.
 *
 * <p>The map's order is the order of last use (a lease's release counts as use and moves the
 * entry to the end, as handing it out does), so the least recently used entries come first and an
 * entry idle past the timeout has only idle entries before it. A call therefore looks only at the
 * head of the map: it drops idle, unleased entries from the front and stops at the first entry
 * used within the timeout, so each entry is examined about once per eviction rather than on every
 * call (amortised O(1); leased entries at the head are stepped over). The scheduled sweep still
 * walks every entry, off the callers' path.
 */
public final class TenantEngines implements MemoryEngines {

    private static final Logger LOG = LoggerFactory.getLogger(TenantEngines.class);
    /** The most time between two idle checks, whatever the idle timeout. */
    private static final Duration MAX_SWEEP_INTERVAL = Duration.ofMinutes(1);

    private final Function<String, MemoryEngine> factory;
    private final int maxOpen;
    private final Duration idleTimeout;
    private final Clock clock;
    private final ScheduledExecutorService scheduler;
    private final boolean ownsScheduler;
    private final Object lock = new Object();
    /** In order of last use, least recent first: {@link #touch} moves an entry to the end. */
    private final LinkedHashMap<String, Entry> open = new LinkedHashMap<>();
    private final Map<String, CompletableFuture<Void>> closing = new LinkedHashMap<>();
    private boolean closed;
    /** Entries eviction checks looked at, callers' and sweeps' together: a diagnostic for tests. */
    private long examined;

    /** One tenant's engine: the future of its build, when it was last handed out, its open leases. */
    private static final class Entry {
        final CompletableFuture<MemoryEngine> engine = new CompletableFuture<>();
        Instant lastUsed;
        int leases;
        /** Opened by {@link #visit} and not handed to any caller since: closed when the visit ends. */
        boolean visitOnly;

        Entry(Instant now) {
            this.lastUsed = now;
        }
    }

    private TenantEngines(BuilderImpl builder) {
        this.factory = builder.factory;
        this.maxOpen = builder.maxOpen;
        this.idleTimeout = builder.idleTimeout;
        this.clock = builder.clock;
        this.ownsScheduler = builder.scheduler == null;
        this.scheduler = ownsScheduler ? defaultScheduler() : builder.scheduler;
        if (idleTimeout != null) {
            long every = Math.max(1, Math.min(idleTimeout.dividedBy(2).toMillis(), MAX_SWEEP_INTERVAL.toMillis()));
            scheduler.scheduleWithFixedDelay(this::closeIdleQuietly, every, every, TimeUnit.MILLISECONDS);
        }
    }

    public static MemoryEngines.Builder builder() {
        return new BuilderImpl();
    }

    /** How a call holds the engine it gets. */
    private enum Hold {
        /** {@link #forTenant}: counts as use, holds nothing. */
        USE,
        /** {@link #lease}: counts as use, held until the lease closes. */
        LEASE,
        /** {@link #visit}: held for the visit, not counted as use. */
        VISIT
    }

    @Override
    public MemoryEngine forTenant(String tenantId) {
        return acquire(tenantId, Hold.USE).engine.join();
    }

    @Override
    public Lease lease(String tenantId) {
        MemoryEngine engine = acquire(tenantId, Hold.LEASE).engine.join();
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
        Entry entry = acquire(tenantId, Hold.VISIT);
        try {
            return visit.apply(entry.engine.join());
        } finally {
            List<Map.Entry<String, Entry>> toClose = new ArrayList<>();
            synchronized (lock) {
                entry.leases--;
                if (entry.visitOnly && entry.leases == 0 && open.get(tenantId) == entry) {
                    Iterator<Map.Entry<String, Entry>> it = open.entrySet().iterator();
                    while (it.hasNext()) {
                        Map.Entry<String, Entry> e = it.next();
                        if (e.getValue() == entry) {
                            drop(it, e, toClose);
                            break;
                        }
                    }
                }
            }
            closeInBackground(toClose);
        }
    }

    @Override
    public Set<String> openTenants() {
        synchronized (lock) {
            return new TreeSet<>(open.keySet());
        }
    }

    @Override
    public int forEachOpen(BiConsumer<String, MemoryEngine> visit) {
        Objects.requireNonNull(visit, "visit");
        // 1. Under the lock: the built engines, each held as a lease holds it; lastUsed untouched.
        List<Map.Entry<String, Entry>> held = new ArrayList<>();
        synchronized (lock) {
            for (Map.Entry<String, Entry> e : open.entrySet()) {
                CompletableFuture<MemoryEngine> engine = e.getValue().engine;
                if (engine.isDone() && !engine.isCompletedExceptionally()) {
                    e.getValue().leases++;
                    held.add(Map.entry(e.getKey(), e.getValue()));
                }
            }
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
            entry.leases--;
        }
    }

    /** The tenant's entry, its engine built (or failed: then it is no longer held); held as {@code hold} says. */
    private Entry acquire(String tenantId, Hold hold) {
        Objects.requireNonNull(tenantId, "tenantId");
        if (tenantId.isBlank()) {
            throw new IllegalArgumentException("tenant id must not be blank");
        }
        // 1. Under the lock: find or reserve the tenant's entry, count the lease, pick what must close.
        Instant now = clock.instant();
        Entry entry;
        boolean mustBuild = false;
        CompletableFuture<Void> previousClose;
        List<Map.Entry<String, Entry>> toClose = new ArrayList<>();
        synchronized (lock) {
            if (closed) {
                throw new IllegalStateException("the tenant engines are closed");
            }
            entry = open.get(tenantId);
            if (entry == null) {
                entry = new Entry(now);
                entry.visitOnly = hold == Hold.VISIT;
                open.put(tenantId, entry);
                mustBuild = true;
            } else if (hold != Hold.VISIT) {
                entry.lastUsed = now;
                entry.visitOnly = false;
                touch(tenantId, entry);
            }
            if (hold != Hold.USE) {
                entry.leases++;
            }
            previousClose = closing.get(tenantId);
            collectIdleAtHead(now, tenantId, toClose);
            if (hold != Hold.VISIT) { // a visit never closes another tenant's engine
                collectBeyondMax(tenantId, toClose);
            }
        }
        // 2. Outside it: hand what was dropped to the background, build what was reserved.
        closeInBackground(toClose);
        if (mustBuild) {
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

    /** Moves the tenant's entry to the end of the order, as the one used last; under the lock. */
    private void touch(String tenantId, Entry entry) {
        if (open.remove(tenantId, entry)) {
            open.put(tenantId, entry);
        }
    }

    private void release(String tenantId, Entry entry) {
        synchronized (lock) {
            entry.leases--;
            entry.lastUsed = clock.instant();
            touch(tenantId, entry); // still this tenant's entry: to the end, as last used
        }
        LOG.trace("lease of tenant {} released", tenantId);
    }

    @Override
    public int openCount() {
        synchronized (lock) {
            return open.size();
        }
    }

    /**
     * Closes engines idle past the timeout and unleased, on the calling thread, walking every entry;
     * the scheduler does this on its own, and every {@link #forTenant} hands the idle ones it finds
     * at the head of the map to the background.
     *
     * @return how many were closed
     */
    public int closeIdle() {
        List<Map.Entry<String, Entry>> toClose = new ArrayList<>();
        synchronized (lock) {
            if (closed) {
                return 0;
            }
            collectIdle(clock.instant(), null, toClose);
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
    @Override
    public void close() {
        List<Map.Entry<String, Entry>> toClose = new ArrayList<>();
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            for (Map.Entry<String, Entry> e : open.entrySet()) {
                toClose.add(Map.entry(e.getKey(), e.getValue()));
                markClosing(e.getKey(), new CompletableFuture<>());
            }
            open.clear();
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

    private void build(String tenantId, Entry entry, CompletableFuture<Void> previousClose) {
        if (previousClose != null) {
            previousClose.join(); // never two engines on one tenant's state at once
        }
        try {
            MemoryEngine engine = Objects.requireNonNull(factory.apply(tenantId),
                    () -> "the engine factory returned null for tenant " + tenantId);
            entry.engine.complete(new SharedEngine(engine));
            LOG.debug("Opened the memory engine of tenant {}", tenantId);
        } catch (RuntimeException | Error e) {
            synchronized (lock) {
                open.remove(tenantId, entry);
            }
            entry.engine.completeExceptionally(e);
        }
    }

    /** The sweep's walk: every entry idle past the timeout and unleased. */
    private void collectIdle(Instant now, String keep, List<Map.Entry<String, Entry>> toClose) {
        if (idleTimeout == null) {
            return;
        }
        Iterator<Map.Entry<String, Entry>> it = open.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Entry> e = it.next();
            examined++;
            if (!e.getKey().equals(keep) && e.getValue().leases == 0 && idle(e.getValue(), now)) {
                drop(it, e, toClose);
            }
        }
    }

    /**
     * A caller's check: the idle entries at the head of the map (least recently used first), up to
     * the first one used within the timeout; every entry after it was used later still.
     */
    private void collectIdleAtHead(Instant now, String keep, List<Map.Entry<String, Entry>> toClose) {
        if (idleTimeout == null) {
            return;
        }
        Iterator<Map.Entry<String, Entry>> it = open.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Entry> e = it.next();
            examined++;
            if (!idle(e.getValue(), now)) {
                return;
            }
            if (!e.getKey().equals(keep) && e.getValue().leases == 0) {
                drop(it, e, toClose);
            }
        }
    }

    private boolean idle(Entry entry, Instant now) {
        return Duration.between(entry.lastUsed, now).compareTo(idleTimeout) >= 0;
    }

    /** The least recently used unleased entries while more than {@code maxOpen} are open. */
    private void collectBeyondMax(String keep, List<Map.Entry<String, Entry>> toClose) {
        Iterator<Map.Entry<String, Entry>> it = open.entrySet().iterator(); // least recently used first
        while (open.size() > maxOpen && it.hasNext()) {
            Map.Entry<String, Entry> e = it.next();
            examined++;
            if (!e.getKey().equals(keep) && e.getValue().leases == 0) {
                drop(it, e, toClose);
            }
        }
    }

    /**
     * How many entries the eviction checks have looked at since the set was built: callers' checks
     * and the scheduled sweeps together. A diagnostic (tests use it to see that a call does not walk
     * every open engine); not part of {@link MemoryEngines}.
     */
    public long entriesExamined() {
        synchronized (lock) {
            return examined;
        }
    }

    private void drop(Iterator<Map.Entry<String, Entry>> it, Map.Entry<String, Entry> e,
            List<Map.Entry<String, Entry>> toClose) {
        toClose.add(Map.entry(e.getKey(), e.getValue()));
        markClosing(e.getKey(), new CompletableFuture<>());
        it.remove();
    }

    private void markClosing(String tenantId, CompletableFuture<Void> done) {
        CompletableFuture<Void> earlier = closing.get(tenantId);
        closing.put(tenantId, earlier == null ? done : CompletableFuture.allOf(earlier, done));
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
            Entry entry;
            synchronized (lock) {
                entry = open.get(tenantId);
            }
            if (entry != null && ((SharedEngine) entry.engine.getNow(null)) == engine) {
                release(tenantId, entry);
            }
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
