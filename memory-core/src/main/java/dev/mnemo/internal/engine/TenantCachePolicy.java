package dev.mnemo.internal.engine;

import dev.mnemo.MemoryEngine;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * The tenant cache's policy, apart from opening and closing engines (as Caffeine keeps eviction
 * apart from the map's values): which tenants are open, in order of last use, how many leases
 * each holds, and which entries go when they are idle past the timeout or beyond the most open.
 * It drops entries from its map and hands them back; {@link TenantEngineLifecycle} closes them.
 * It is not thread-safe: every call runs under the lifecycle's lock, which guards only this
 * bookkeeping.
 *
 * <p>The map's order is the order of last use (a lease's release counts as use and moves the
 * entry to the end, as handing it out does), so the least recently used entries come first and an
 * entry idle past the timeout has only idle entries before it. A call therefore looks only at the
 * head of the map: it drops idle, unleased entries from the front and stops at the first entry
 * used within the timeout, so each entry is examined about once per eviction rather than on every
 * call (amortised O(1); leased entries at the head are stepped over). The scheduled sweep still
 * walks every entry, off the callers' path.
 */
final class TenantCachePolicy {

    /** How a call holds the engine it gets. */
    enum Hold {
        /** {@code forTenant}: counts as use, holds nothing. */
        USE,
        /** {@code lease}: counts as use, held until the lease closes. */
        LEASE,
        /** {@code visit}: held for the visit, not counted as use. */
        VISIT
    }

    /** One tenant's engine: the future of its build, when it was last handed out, its open leases. */
    static final class Entry {
        final CompletableFuture<MemoryEngine> engine = new CompletableFuture<>();
        Instant lastUsed;
        int leases;
        /** Opened by a visit and not handed to any caller since: closed when the visit ends. */
        boolean visitOnly;

        Entry(Instant now) {
            this.lastUsed = now;
        }
    }

    /** The tenant's entry, and whether this call reserved it (then it must build the engine). */
    record Admission(Entry entry, boolean reserved) {}

    private final int maxOpen;
    private final Duration idleTimeout;
    /** In order of last use, least recent first: {@link #touch} moves an entry to the end. */
    private final LinkedHashMap<String, Entry> open = new LinkedHashMap<>();
    /** Entries eviction checks looked at, callers' and sweeps' together: a diagnostic for tests. */
    private long examined;

    /** @param idleTimeout how long an unleased entry may go unused; null for no idle expiry */
    TenantCachePolicy(int maxOpen, Duration idleTimeout) {
        this.maxOpen = maxOpen;
        this.idleTimeout = idleTimeout;
    }

    /** The idle timeout; null when entries never expire for being idle. */
    Duration idleTimeout() {
        return idleTimeout;
    }

    /**
     * Finds or reserves the tenant's entry and counts the hold: a use or a lease moves it to the end
     * as the one used last, a visit leaves its last use and its place as they were.
     */
    Admission admit(String tenantId, Hold hold, Instant now) {
        Entry entry = open.get(tenantId);
        boolean reserved = false;
        if (entry == null) {
            entry = new Entry(now);
            entry.visitOnly = hold == Hold.VISIT;
            open.put(tenantId, entry);
            reserved = true;
        } else if (hold != Hold.VISIT) {
            entry.lastUsed = now;
            entry.visitOnly = false;
            touch(tenantId, entry);
        }
        if (hold != Hold.USE) {
            entry.leases++;
        }
        return new Admission(entry, reserved);
    }

    /**
     * What a call for {@code keep} drops: the idle entries at the head, then, unless the call is a
     * visit (a visit never closes another tenant's engine), the least recently used beyond the bound.
     */
    void evictFor(String keep, Hold hold, Instant now, List<Map.Entry<String, Entry>> toClose) {
        collectIdleAtHead(now, keep, toClose);
        if (hold != Hold.VISIT) {
            collectBeyondMax(keep, toClose);
        }
    }

    /** The tenant's entry; null when it has none open. */
    Entry entry(String tenantId) {
        return open.get(tenantId);
    }

    /** Moves the tenant's entry to the end of the order, as the one used last. */
    private void touch(String tenantId, Entry entry) {
        if (open.remove(tenantId, entry)) {
            open.put(tenantId, entry);
        }
    }

    /** Ends a lease: its release counts as use. */
    void release(String tenantId, Entry entry, Instant now) {
        entry.leases--;
        entry.lastUsed = now;
        touch(tenantId, entry); // still this tenant's entry: to the end, as last used
    }

    /** Ends a visit's hold; unlike a lease's release, the engine's last use stays as it was. */
    void letGo(Entry entry) {
        entry.leases--;
    }

    /**
     * Ends a visit's hold; an entry the visit itself opened, and that no caller asked for meanwhile,
     * is dropped.
     */
    void endVisit(String tenantId, Entry entry, List<Map.Entry<String, Entry>> toClose) {
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

    /** The entries whose engine is built, each held as a lease holds it; their last use untouched. */
    List<Map.Entry<String, Entry>> holdBuilt() {
        List<Map.Entry<String, Entry>> held = new ArrayList<>();
        for (Map.Entry<String, Entry> e : open.entrySet()) {
            CompletableFuture<MemoryEngine> engine = e.getValue().engine;
            if (engine.isDone() && !engine.isCompletedExceptionally()) {
                e.getValue().leases++;
                held.add(Map.entry(e.getKey(), e.getValue()));
            }
        }
        return held;
    }

    /** Forgets an entry whose build failed, if it is still the tenant's. */
    void removeFailed(String tenantId, Entry entry) {
        open.remove(tenantId, entry);
    }

    /** Drops every entry, for the set's close. */
    void dropAll(List<Map.Entry<String, Entry>> toClose) {
        for (Map.Entry<String, Entry> e : open.entrySet()) {
            toClose.add(Map.entry(e.getKey(), e.getValue()));
        }
        open.clear();
    }

    /** The sweep's walk: every entry idle past the timeout and unleased. */
    void collectIdle(Instant now, String keep, List<Map.Entry<String, Entry>> toClose) {
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

    private static void drop(Iterator<Map.Entry<String, Entry>> it, Map.Entry<String, Entry> e,
            List<Map.Entry<String, Entry>> toClose) {
        toClose.add(Map.entry(e.getKey(), e.getValue()));
        it.remove();
    }

    /** The open tenants, sorted. */
    Set<String> tenants() {
        return new TreeSet<>(open.keySet());
    }

    int size() {
        return open.size();
    }

    /** How many entries the eviction checks have looked at: callers' checks and sweeps together. */
    long examined() {
        return examined;
    }
}
