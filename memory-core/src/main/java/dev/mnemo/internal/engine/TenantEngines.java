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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link MemoryEngines}: an access-ordered map of tenant → engine under one lock, where the lock
 * guards only bookkeeping. Engines are built and closed outside it; a tenant's entry holds the
 * future of its one build, and a tenant whose engine is closing keeps that close's future so a
 * reopening waits for it.
 */
public final class TenantEngines implements MemoryEngines {

    private static final Logger LOG = LoggerFactory.getLogger(TenantEngines.class);

    private final Function<String, MemoryEngine> factory;
    private final int maxOpen;
    private final Duration idleTimeout;
    private final Clock clock;
    private final Object lock = new Object();
    private final LinkedHashMap<String, Entry> open = new LinkedHashMap<>(16, 0.75f, true);
    private final Map<String, CompletableFuture<Void>> closing = new LinkedHashMap<>();
    private boolean closed;

    /** One tenant's engine: the future of its build, and when it was last handed out. */
    private static final class Entry {
        final CompletableFuture<MemoryEngine> engine = new CompletableFuture<>();
        Instant lastUsed;

        Entry(Instant now) {
            this.lastUsed = now;
        }
    }

    private TenantEngines(BuilderImpl builder) {
        this.factory = builder.factory;
        this.maxOpen = builder.maxOpen;
        this.idleTimeout = builder.idleTimeout;
        this.clock = builder.clock;
    }

    public static MemoryEngines.Builder builder() {
        return new BuilderImpl();
    }

    @Override
    public MemoryEngine forTenant(String tenantId) {
        Objects.requireNonNull(tenantId, "tenantId");
        if (tenantId.isBlank()) {
            throw new IllegalArgumentException("tenant id must not be blank");
        }
        // 1. Under the lock: find or reserve the tenant's entry, and pick what must close.
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
                open.put(tenantId, entry);
                mustBuild = true;
            }
            entry.lastUsed = now;
            previousClose = closing.get(tenantId);
            collectIdle(now, tenantId, toClose);
            collectBeyondMax(tenantId, toClose);
        }
        // 2. Outside it: close what was dropped, build what was reserved.
        closeAll(toClose);
        if (mustBuild) {
            build(tenantId, entry, previousClose);
        }
        try {
            return entry.engine.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : e;
        }
    }

    @Override
    public int openCount() {
        synchronized (lock) {
            return open.size();
        }
    }

    /** Closes engines idle past the timeout now; also done on every {@link #forTenant} call. */
    public int closeIdle() {
        List<Map.Entry<String, Entry>> toClose = new ArrayList<>();
        synchronized (lock) {
            collectIdle(clock.instant(), null, toClose);
        }
        closeAll(toClose);
        return toClose.size();
    }

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
        closeAll(toClose);
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

    private void collectIdle(Instant now, String keep, List<Map.Entry<String, Entry>> toClose) {
        if (idleTimeout == null) {
            return;
        }
        Iterator<Map.Entry<String, Entry>> it = open.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Entry> e = it.next();
            if (!e.getKey().equals(keep) && Duration.between(e.getValue().lastUsed, now).compareTo(idleTimeout) >= 0) {
                drop(it, e, toClose);
            }
        }
    }

    private void collectBeyondMax(String keep, List<Map.Entry<String, Entry>> toClose) {
        Iterator<Map.Entry<String, Entry>> it = open.entrySet().iterator(); // least recently used first
        while (open.size() > maxOpen && it.hasNext()) {
            Map.Entry<String, Entry> e = it.next();
            if (!e.getKey().equals(keep)) {
                drop(it, e, toClose);
            }
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

    private void closeAll(List<Map.Entry<String, Entry>> toClose) {
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

    /** Configures {@link TenantEngines}. */
    private static final class BuilderImpl implements MemoryEngines.Builder {
        private Function<String, MemoryEngine> factory;
        private int maxOpen = 100;
        private Duration idleTimeout;
        private Clock clock = Clock.systemUTC();

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
        public MemoryEngines build() {
            if (factory == null) {
                throw new IllegalStateException("no engine factory: call engineFactory(..), e.g. with "
                        + "TenantHomes.under(root, () -> MemoryEngine.builder().model(model))");
            }
            return new TenantEngines(this);
        }
    }
}
