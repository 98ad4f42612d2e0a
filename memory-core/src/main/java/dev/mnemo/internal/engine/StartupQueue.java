package dev.mnemo.internal.engine;

import dev.mnemo.SessionContext;
import dev.mnemo.SkipReason;
import dev.mnemo.StartupReport;
import dev.mnemo.StartupTask;
import dev.mnemo.internal.extract.Phase1Runner;
import dev.mnemo.internal.startup.StartupRunner;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's startup runs: submitted on its executor, coalesced, and wound down when it closes.
 * A session that starts while a run is queued and not yet started joins that run, so a burst of new
 * conversations queues at most one run behind the running one. A session the gates skip (an
 * ephemeral or sub-agent session, generation off, no model) is answered at once, queueing nothing.
 */
final class StartupQueue {

    private static final Logger LOG = LoggerFactory.getLogger(StartupQueue.class);

    private final StartupRunner startup;
    private final ExecutorService executor;
    private final Set<BackgroundStartupTask> running = ConcurrentHashMap.newKeySet();
    private final AtomicReference<SkipReason> lastSkip = new AtomicReference<>();
    /** Guards {@link #queued}. */
    private final Object lock = new Object();
    /** The run submitted and not yet started, which new sessions join; null when none. */
    private BackgroundStartupTask queued;

    StartupQueue(StartupRunner startup, ExecutorService executor) {
        this.startup = startup;
        this.executor = executor;
    }

    /** What the last finished run was skipped for, if it was. */
    Optional<SkipReason> lastSkip() {
        return Optional.ofNullable(lastSkip.get());
    }

    StartupTask submit(SessionContext session) {
        if (startup.gate(session).isPresent()) {
            StartupReport skipped = startup.run(session, () -> true);
            lastSkip.set(skipped.skipped().orElse(null));
            return StartupTasks.done(skipped);
        }
        synchronized (lock) {
            if (queued != null) {
                StartupTask joined = queued.join(session);
                if (joined != null) {
                    return joined;
                }
            }
            BackgroundStartupTask task = new BackgroundStartupTask(session);
            StartupTask handle = task.handle();
            running.add(task);
            task.result().whenComplete((report, error) -> running.remove(task));
            try {
                task.submitted(executor.submit(() -> run(task)));
                queued = task;
            } catch (RejectedExecutionException e) {
                running.remove(task);
                task.result().completeExceptionally(
                        new IllegalStateException("the engine's executor refused the startup task", e));
            }
            return handle;
        }
    }

    private void run(BackgroundStartupTask task) {
        synchronized (lock) {
            if (queued == task) {
                queued = null; // from here on, new sessions queue the next run
            }
            if (!task.start()) {
                return;
            }
        }
        try {
            StartupReport report = startup.run(task.session(), task::isCancelled);
            lastSkip.set(report.skipped().orElse(null));
            task.result().complete(report);
        } catch (Phase1Runner.Phase1InterruptedException e) {
            task.result().cancel(false);
        } catch (RuntimeException | Error e) {
            LOG.error("memory startup task failed unexpectedly", e);
            task.result().completeExceptionally(e);
        }
    }

    /** Lets running runs finish within {@code timeout}, then cancels the rest and gives them as long again. */
    void windDown(Duration timeout) {
        awaitAll(timeout.toNanos());
        List<BackgroundStartupTask> cancelled = List.copyOf(running).stream().filter(BackgroundStartupTask::cancel).toList();
        if (!cancelled.isEmpty()) {
            LOG.info("memory engine closing: cancelled {} startup task(s) still running after {} s", cancelled.size(),
                    timeout.toMillis() / 1000.0);
            awaitAll(timeout.toNanos()); // let them wind down before their jobs are released
        }
    }

    private void awaitAll(long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        for (BackgroundStartupTask task : List.copyOf(running)) {
            try {
                task.result().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                // Timed out, failed or cancelled: the caller decides what comes next.
            }
        }
    }
}
