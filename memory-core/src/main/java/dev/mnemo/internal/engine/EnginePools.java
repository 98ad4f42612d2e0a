package dev.mnemo.internal.engine;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The thread pools an engine owns when it is given no executor. Every thread is a daemon and ends
 * after {@link #IDLE_THREAD_KEEP_ALIVE} without work, so a server with hundreds of idle tenants'
 * engines holds no idle threads for them.
 */
final class EnginePools {

    /** How long an engine-owned pool keeps a thread with no work. */
    static final Duration IDLE_THREAD_KEEP_ALIVE = Duration.ofSeconds(60);

    private EnginePools() {
    }

    /** Two threads for startup runs, ending after {@code keepAlive} without work. */
    static ThreadPoolExecutor startupPool(Duration keepAlive) {
        AtomicInteger n = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 2, keepAlive.toMillis(), TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), r -> daemon(r, "mnemo-startup-" + n.incrementAndGet()));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** Cached, for the helpers of a run (Phase 1 extractions, the heartbeat, the agent's watchdog). */
    static ExecutorService workers() {
        AtomicInteger n = new AtomicInteger();
        return Executors.newCachedThreadPool(r -> daemon(r, "mnemo-worker-" + n.incrementAndGet()));
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }
}
