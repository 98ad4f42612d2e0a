package dev.mnemo.internal.engine;

import dev.mnemo.SessionContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
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
 * <p>Nothing slow runs under the map's lock. Opening a session (creating or continuing its rollout,
 * registering the thread in the store) happens outside the map, once per id: the first caller opens
 * it while later callers for the same id wait for that one open ({@link #opening}), and callers for
 * other ids are not held up. Sweeps run on the callers' threads ({@link #maybeSweep}), at most one
 * at a time, when the map is over its bound or a sweep interval has passed; the scheduled pipeline
 * sweeps too. A sweep only takes sessions out of the map (inside the map's own compute, so a caller
 * that was just handed one has touched it first and it is no longer idle) and marks them closed; the
 * rest of the close (the recording, the store) runs on {@code closer}, the engine's executor. A
 * later open of the same id waits for that close first.
 */
final class OpenConversations {

    private static final Logger LOG = LoggerFactory.getLogger(OpenConversations.class);

    private final ConcurrentHashMap<String, EngineSession> open = new ConcurrentHashMap<>();
    /** Opens in progress, by id: the one caller opening it completes the future the others wait on. */
    private final ConcurrentHashMap<String, CompletableFuture<EngineSession>> opening = new ConcurrentHashMap<>();
    /** Evicted sessions whose close is still queued on {@link #closer}, by id. */
    private final ConcurrentHashMap<String, PendingClose> closing = new ConcurrentHashMap<>();
    private final Duration idleTimeout;
    private final int maxOpen;
    private final Duration sweepInterval;
    private final Executor closer;
    private final AtomicBoolean sweeping = new AtomicBoolean();
    private volatile Instant nextSweep = Instant.MIN;

    OpenConversations(Duration idleTimeout, int maxOpen, Executor closer) {
        this.idleTimeout = idleTimeout;
        this.maxOpen = maxOpen;
        this.closer = closer;
        Duration half = idleTimeout.dividedBy(2);
        this.sweepInterval = half.compareTo(Duration.ofMinutes(1)) < 0 ? half : Duration.ofMinutes(1);
    }

    /** A new session the caller owns; fails when one is already open for the thread. */
    EngineSession openOwned(SessionContext context, Function<SessionContext, EngineSession> factory) {
        return open(context, factory, true);
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
        return open(context, factory, false);
    }

    private EngineSession open(SessionContext context, Function<SessionContext, EngineSession> factory,
            boolean owned) {
        String id = context.threadId();
        while (true) {
            EngineSession existing = owned ? open.get(id) : touchExisting(context);
            if (existing != null) {
                if (owned) {
                    throw new IllegalStateException("a memory session for thread '" + id + "' is already open in "
                            + "this engine; share it through conversation(id) or close it first");
                }
                return existing;
            }
            CompletableFuture<EngineSession> mine = new CompletableFuture<>();
            CompletableFuture<EngineSession> theirs = opening.putIfAbsent(id, mine);
            if (theirs != null) {
                awaitQuietly(theirs); // another caller is opening it: use theirs (or try again if it failed)
                continue;
            }
            try {
                if (open.containsKey(id)) {
                    continue; // opened between the look-up and the claim: look again
                }
                EngineSession session = openOutsideTheMap(context, factory, owned);
                open.put(id, session);
                mine.complete(session);
                return session;
            } catch (RuntimeException | Error e) {
                mine.completeExceptionally(e);
                throw e;
            } finally {
                opening.remove(id, mine);
                mine.complete(null); // a caller that looked again is not left waiting
            }
        }
    }

    /** The open session of the context's id, checked and touched inside the map; null when none. */
    private EngineSession touchExisting(SessionContext context) {
        return open.computeIfPresent(context.threadId(), (id, existing) -> {
            if (context.explicitProject().isPresent() && !context.explicitProject().equals(existing.project())) {
                throw new IllegalArgumentException("conversation " + id + " is open in "
                        + existing.project().map(p -> "project " + p).orElse("no project") + ", not in project "
                        + context.explicitProject().get() + "; close it first to move it");
            }
            existing.touch();
            return existing;
        });
    }

    /**
     * Finishes the close of an evicted session of the same id still queued (here, if the executor
     * has not started it: the new session must not overlap the old one's recording), then opens.
     */
    private EngineSession openOutsideTheMap(SessionContext context, Function<SessionContext, EngineSession> factory,
            boolean owned) {
        PendingClose pending = closing.get(context.threadId());
        if (pending != null) {
            pending.run();
            awaitQuietly(pending.done);
        }
        EngineSession session = factory.apply(context);
        if (!owned) {
            session.evictable();
        }
        session.touch();
        return session;
    }

    private static void awaitQuietly(CompletableFuture<?> future) {
        try {
            future.join();
        } catch (CompletionException | CancellationException e) {
            // the other caller's open failed and it has its exception; this caller tries on its own
        }
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

    /** Runs, on the calling thread, every eviction close still queued (the engine is closing). */
    void finishPendingCloses() {
        for (PendingClose pending : List.copyOf(closing.values())) {
            pending.run();
        }
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
                closeOffTheCallersThread(session);
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

    /** Marks an evicted session closed now (further use fails) and hands the rest of its close to the executor. */
    private void closeOffTheCallersThread(EngineSession session) {
        if (!session.markClosed()) {
            return;
        }
        PendingClose pending = new PendingClose(session);
        closing.put(session.threadId(), pending);
        try {
            closer.execute(pending::run);
        } catch (RejectedExecutionException e) {
            pending.run(); // a shut-down executor: the engine is closing, close it here
        }
    }

    /** The rest of one evicted session's close, run once by whichever comes first: the executor, a reopen, the engine's close. */
    private final class PendingClose {
        private final EngineSession session;
        private final AtomicBoolean started = new AtomicBoolean();
        final CompletableFuture<Void> done = new CompletableFuture<>();

        PendingClose(EngineSession session) {
            this.session = session;
        }

        void run() {
            if (!started.compareAndSet(false, true)) {
                return;
            }
            try {
                session.finishClose();
            } catch (RuntimeException e) {
                LOG.warn("idle conversation {} did not close cleanly", session.threadId(), e);
            } finally {
                closing.remove(session.threadId(), this);
                done.complete(null);
            }
        }
    }
}
