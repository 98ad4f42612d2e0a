package dev.mnemo.internal.consolidate;

import dev.mnemo.spi.Phase2Store;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Extends the Phase 2 lease every {@code interval} while the agent runs, as one task on the
 * engine's executor. {@link #close()} returns only once that task has stopped (or was never
 * started), so no beat ever begins after it.
 */
final class Heartbeat implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Heartbeat.class);

    private final Phase2Store store;
    private final String token;
    private final Duration lease;
    private final long intervalNanos;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private boolean closed;
    private boolean running;

    private Heartbeat(Phase2Store store, String token, Duration lease, Duration interval, Clock clock) {
        this.store = store;
        this.token = token;
        this.lease = lease;
        this.intervalNanos = interval.toNanos();
        this.clock = clock;
    }

    /** Starts beating on {@code executor}; a refused task is logged and the lease is left to run its course. */
    static Heartbeat start(Phase2Store store, String token, Duration lease, Duration interval, Clock clock,
            Executor executor) {
        Heartbeat heartbeat = new Heartbeat(store, token, lease, interval, clock);
        try {
            executor.execute(heartbeat::beatUntilClosed);
        } catch (RejectedExecutionException e) {
            LOG.warn("memory phase-2 heartbeat not started: the executor refused it", e);
        }
        return heartbeat;
    }

    private void beatUntilClosed() {
        lock.lock();
        try {
            if (closed) {
                return; // closed before the executor got to it
            }
            running = true;
            long wait = intervalNanos;
            while (!closed) {
                wait = changed.awaitNanos(wait);
                if (!closed && wait <= 0) {
                    beat();
                    wait = intervalNanos;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            running = false;
            changed.signalAll();
            lock.unlock();
        }
    }

    /** One lease extension; runs under the lock, so {@link #close()} waits for it to end. */
    private void beat() {
        try {
            if (!store.heartbeatPhase2Job(token, lease, clock.instant())) {
                LOG.warn("memory phase-2 heartbeat: the job is no longer ours");
            }
        } catch (RuntimeException e) {
            LOG.warn("memory phase-2 heartbeat failed", e);
        }
    }

    /** Stops the beats; waits (bounded) for a beat in progress to end. */
    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
            long wait = TimeUnit.SECONDS.toNanos(30);
            while (running && wait > 0) {
                wait = changed.awaitNanos(wait);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }
}
