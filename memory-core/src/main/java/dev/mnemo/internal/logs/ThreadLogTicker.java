package dev.mnemo.internal.logs;

import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One timer and one small write pool for every open {@link ThreadLogWriter} of a process. A single
 * daemon thread, {@code mnemo-thread-logs}, started when the first writer registers, calls each
 * writer's {@link ThreadLogWriter#tick()} once a {@link #PERIOD}; a tick only compares timestamps and
 * hands any write or retention delete to {@link #executor()}, at most {@link #WRITE_THREADS} daemon
 * threads ({@code mnemo-thread-logs-write-N}) shared by every engine (each writer still writes one
 * batch at a time). With no writer registered the timer's task is cancelled, and every thread ends
 * after {@link #IDLE_KEEP_ALIVE} without work. 500 tenants' engines hold these few threads, not one
 * each, and their logs never take a thread of an engine's own executor.
 *
 * <p>The process-wide instance is {@link #shared()}; tests may make their own.
 */
public final class ThreadLogTicker {

    private static final Logger LOG = LoggerFactory.getLogger(ThreadLogTicker.class);

    /** How often every registered writer is ticked. */
    public static final Duration PERIOD = Duration.ofSeconds(1);
    /** How long the timer thread outlives the last writer. */
    public static final Duration IDLE_KEEP_ALIVE = Duration.ofSeconds(30);
    /** Threads that write batches and apply retention, for all writers together. */
    public static final int WRITE_THREADS = 2;

    private static final ThreadLogTicker SHARED = new ThreadLogTicker("mnemo-thread-logs");

    private final Set<ThreadLogWriter> writers = ConcurrentHashMap.newKeySet();
    private final ScheduledThreadPoolExecutor timer;
    private final ThreadPoolExecutor writes;
    /** The periodic task while at least one writer is registered (guarded by {@code this}). */
    private ScheduledFuture<?> task;

    /** A ticker with its own timer thread named {@code threadName} (a daemon). */
    public ThreadLogTicker(String threadName) {
        Objects.requireNonNull(threadName, "threadName");
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        timer.setKeepAliveTime(IDLE_KEEP_ALIVE.toMillis(), TimeUnit.MILLISECONDS);
        timer.allowCoreThreadTimeOut(true);
        timer.setRemoveOnCancelPolicy(true);
        AtomicInteger n = new AtomicInteger();
        this.writes = new ThreadPoolExecutor(WRITE_THREADS, WRITE_THREADS, IDLE_KEEP_ALIVE.toMillis(),
                TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, threadName + "-write-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        writes.allowCoreThreadTimeOut(true);
    }

    /** Where writers write their batches and apply retention: the shared write pool. */
    public Executor executor() {
        return writes;
    }

    /** The process's ticker. */
    public static ThreadLogTicker shared() {
        return SHARED;
    }

    /** Ticks {@code writer} until the returned registration is closed. */
    public Registration register(ThreadLogWriter writer) {
        Objects.requireNonNull(writer, "writer");
        synchronized (this) {
            writers.add(writer);
            if (task == null) {
                task = timer.scheduleWithFixedDelay(this::tickAll, PERIOD.toMillis(), PERIOD.toMillis(),
                        TimeUnit.MILLISECONDS);
            }
        }
        return () -> unregister(writer);
    }

    private void unregister(ThreadLogWriter writer) {
        synchronized (this) {
            if (writers.remove(writer) && writers.isEmpty() && task != null) {
                task.cancel(false);
                task = null;
            }
        }
    }

    /** How many writers are ticked now. */
    public int registered() {
        return writers.size();
    }

    /** One pass over every writer; a writer that throws is logged and the others still tick. */
    void tickAll() {
        for (ThreadLogWriter writer : writers) {
            try {
                writer.tick();
            } catch (RuntimeException e) {
                LOG.warn("thread logs: a writer's tick failed; it is tried again at the next one", e);
            }
        }
    }

    /** A writer's place in the ticker; closing it stops its ticks (idempotent). */
    @FunctionalInterface
    public interface Registration extends AutoCloseable {
        @Override
        void close();
    }
}
