package dev.mnemo.internal.engine;

import dev.mnemo.SessionContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's open conversations by thread id, with the rule that keeps a long-running server's
 * memory bounded: a session opened through {@code conversation(id)} is closed once it has been
 * unused for the idle timeout, and beyond {@code maxOpen} the least recently used ones are closed.
 * A session in a turn or with an unfinished answer stream is never evicted, and one the caller
 * opened with {@code openSession} belongs to that caller and is never evicted either. Eviction only
 * ends the recording: the next {@code conversation(id)} continues the same rollout.
 *
 * <p>Sweeps run on the callers' threads ({@link #maybeSweep}), at most one at a time, when the map is
 * over its bound or a sweep interval has passed; the scheduled pipeline sweeps too. A session is
 * removed inside the map's own compute, so a caller that was just handed it has touched it first
 * and it is no longer idle.
 */
final class OpenConversations {

    private static final Logger LOG = LoggerFactory.getLogger(OpenConversations.class);

    private final ConcurrentHashMap<String, EngineSession> open = new ConcurrentHashMap<>();
    private final Duration idleTimeout;
    private final int maxOpen;
    private final Duration sweepInterval;
    private final AtomicBoolean sweeping = new AtomicBoolean();
    private volatile Instant nextSweep = Instant.MIN;

    OpenConversations(Duration idleTimeout, int maxOpen) {
        this.idleTimeout = idleTimeout;
        this.maxOpen = maxOpen;
        Duration half = idleTimeout.dividedBy(2);
        this.sweepInterval = half.compareTo(Duration.ofMinutes(1)) < 0 ? half : Duration.ofMinutes(1);
    }

    /** A new session the caller owns; fails when one is already open for the thread. */
    EngineSession openOwned(SessionContext context, Function<SessionContext, EngineSession> factory) {
        EngineSession[] opened = new EngineSession[1];
        open.compute(context.threadId(), (id, existing) -> {
            if (existing != null) {
                throw new IllegalStateException("a memory session for thread '" + id + "' is already open in this "
                        + "engine; share it through conversation(id) or close it first");
            }
            opened[0] = factory.apply(context);
            return opened[0];
        });
        return opened[0];
    }

    /** The shared session of a conversation, opened on first use, touched either way. */
    EngineSession shared(String conversationId, Function<SessionContext, EngineSession> factory) {
        return shared(SessionContext.root(conversationId), factory);
    }

    /**
     * The open session of {@code context}'s conversation, opened with that context on first use.
     *
     * @throws IllegalArgumentException when it is open in another project than the context's
     */
    EngineSession shared(SessionContext context, Function<SessionContext, EngineSession> factory) {
        return open.compute(context.threadId(), (id, existing) -> {
            EngineSession session = existing != null ? existing : factory.apply(context).evictable();
            if (existing != null && context.explicitProject().isPresent()
                    && !context.explicitProject().equals(existing.project())) {
                throw new IllegalArgumentException("conversation " + id + " is open in "
                        + existing.project().map(p -> "project " + p).orElse("no project") + ", not in project "
                        + context.explicitProject().get() + "; close it first to move it");
            }
            session.touch();
            return session;
        });
    }

    /** Removes a session that closed itself. */
    void closed(EngineSession session) {
        open.remove(session.threadId(), session);
    }

    /** Closes a conversation's open session now; false when none is open. */
    boolean close(String conversationId) {
        EngineSession session = open.remove(conversationId);
        if (session == null) {
            return false;
        }
        session.close();
        return true;
    }

    List<EngineSession> all() {
        return List.copyOf(open.values());
    }

    int size() {
        return open.size();
    }

    /**
     * Sweeps when the map is over its bound or the sweep interval has passed; {@code keep}, the
     * session the caller is being handed, is never the one closed.
     */
    void maybeSweep(Instant now, EngineSession keep) {
        if (open.size() > maxOpen || !now.isBefore(nextSweep)) {
            sweep(now, keep);
        }
    }

    /**
     * Closes the evictable sessions idle for the timeout, then the least recently used ones beyond
     * the bound (down to nine tenths of it, so a full map does not sweep on every call).
     *
     * @return how many were closed; 0 when another sweep is running
     */
    int sweep(Instant now) {
        return sweep(now, null);
    }

    private int sweep(Instant now, EngineSession keep) {
        if (!sweeping.compareAndSet(false, true)) {
            return 0;
        }
        try {
            nextSweep = now.plus(sweepInterval);
            List<EngineSession> evicted = new ArrayList<>();
            Instant idleBefore = now.minus(idleTimeout);
            for (EngineSession session : open.values()) {
                long lastUse = session.lastUse(); // read first: a touch after it changes it, and the eviction is off
                if (session != keep && session.lastUsed().compareTo(idleBefore) <= 0) {
                    evictUnusedSince(session, lastUse, evicted);
                }
            }
            int excess = open.size() - maxOpen;
            if (excess > 0) {
                // Use numbers read once: sessions touched during the sort must not change its order.
                record Use(EngineSession session, long lastUse) {}
                List<Use> oldest = open.values().stream()
                        .filter(s -> s != keep && s.isEvictable() && !s.busy())
                        .map(s -> new Use(s, s.lastUse()))
                        .sorted(Comparator.comparingLong(Use::lastUse))
                        .limit(excess + maxOpen / 10L)
                        .toList();
                for (Use use : oldest) {
                    evictUnusedSince(use.session(), use.lastUse(), evicted);
                }
            }
            for (EngineSession session : evicted) {
                session.close();
            }
            if (!evicted.isEmpty()) {
                LOG.debug("closed {} idle conversation(s); {} open", evicted.size(), open.size());
            }
            return evicted.size();
        } finally {
            sweeping.set(false);
        }
    }

    /** Removes the session if it is still evictable, not busy, and unused since use number {@code lastUse}. */
    private void evictUnusedSince(EngineSession candidate, long lastUse, List<EngineSession> evicted) {
        open.computeIfPresent(candidate.threadId(), (id, session) -> {
            if (session == candidate && session.isEvictable() && !session.busy() && session.lastUse() == lastUse) {
                evicted.add(session);
                return null;
            }
            return session;
        });
    }
}
