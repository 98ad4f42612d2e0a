package dev.mnemo.internal.engine;

import dev.mnemo.SessionContext;
import dev.mnemo.SkipReason;
import dev.mnemo.StartupReport;
import dev.mnemo.StartupTask;
import dev.mnemo.internal.events.BackgroundOperations;
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
    private final BackgroundOperations operations;
    private final Set<BackgroundStartupTask> running = ConcurrentHashMap.newKeySet();
    private final AtomicReference<SkipReason> lastSkip = new AtomicReference<>();
    /** Guards {@link #queued}. */
    private final Object lock = new Object();
    /** The run submitted and not yet started, which new sessions join; null when none. */
    private BackgroundStartupTask queued;

    /** @param operations announces each run on the thread that submits it, and its end */
    StartupQueue(StartupRunner startup, ExecutorService executor, BackgroundOperations operations) {
        this.startup = startup;
        this.executor = executor;
        this.operations = operations;
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
            BackgroundStartupTask task = new BackgroundStartupTask(session, operations.startRun());
            StartupTask handle = task.handle();
            running.add(task);
            task.result().whenComplete((report, error) -> {
                running.remove(task);
                task.run().finish(); // a run cancelled or refused before it started
            });
            try {
                task.submitted(executor.submit(() -> task.run().within(() -> run(task))));
                queued = task;
            } catch (RejectedExecutionException e) {
                running.remove(task);
                task.result().completeExceptionally(
                        new IllegalStateException("the engine's executor refused the startup task", e));
            }
            return handle;
        }
    }

    /** The run's body, on the executor's thread; returns nothing ({@code null}) when done. */
    private Void run(BackgroundStartupTask task) {
        synchronized (lock) {
            if (queued == task) {
                queued = null; // from here on, new sessions queue the next run
            }
            if (!task.start()) {
                return null;
            }
        }
        // The run is finished before its result completes, so a caller that waited for the result
        // has heard the run's end too.
        try {
            StartupReport report = startup.run(task.session(), task::isCancelled);
            lastSkip.set(report.skipped().orElse(null));
            task.run().finish();
            task.result().complete(report);
        } catch (Phase1Runner.Phase1InterruptedException e) {
            task.run().finish();
            task.result().cancel(false);
        } catch (RuntimeException | Error e) {
            LOG.error("memory startup task failed unexpectedly", e);
            task.run().finish();
            task.result().completeExceptionally(e);
        }
        return null;
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
