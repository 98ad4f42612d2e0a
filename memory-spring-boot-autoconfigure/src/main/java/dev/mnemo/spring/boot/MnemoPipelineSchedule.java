package dev.mnemo.spring.boot;

import dev.mnemo.MemoryAdmin;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.StartupTask;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Runs the memory pipeline on a schedule ({@code mnemo.pipeline.schedule.*}): every interval,
 * {@link MemoryAdmin#startPipeline()} on the shared engine, or on every user's engine that is open
 * and then, one after another, on the engines of users whose engines are closed but whose work is
 * due ({@link DueWorkPass}: a user who never came back still has their conversations extracted).
 * Without it, a server whose conversations stay open only extracts and consolidates when a new
 * conversation opens; with it, conversations idle past {@code min-rollout-idle-hours} are distilled
 * within one interval, and conversations idle past {@code mnemo.conversations.idle-timeout} are
 * closed. A run only submits work (coalesced with what is queued); the pipeline runs on the
 * engines' own executors.
 *
 * <p>The schedule's one daemon thread is the schedule's own: started with the application context
 * and stopped (before the engines close) with it.
 */
final class MnemoPipelineSchedule implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(MnemoPipelineSchedule.class);

    private final Duration interval;
    private final Consumer<Consumer<MemoryEngine>> engines;
    private final String describe;
    private final Clock clock;
    private volatile ScheduledExecutorService executor;
    private volatile Instant lastRun;
    private volatile int lastRunEngines;
    private final @Nullable DueWorkPass duePass;

    /**
     * @param engines walks the engines of a run, handing each to its argument: the shared one, or
     *     each open one of a {@link MemoryEngines} through {@link MemoryEngines#forEachOpen}, which
     *     does not count as use (a lease would keep every user's engine open forever)
     * @param describe what they are, for the log
     */
    MnemoPipelineSchedule(Duration interval, Consumer<Consumer<MemoryEngine>> engines, String describe, Clock clock) {
        this(interval, engines, describe, clock, null);
    }

    /** As above, then {@code duePass} over the users whose engines are closed. */
    MnemoPipelineSchedule(Duration interval, Consumer<Consumer<MemoryEngine>> engines, String describe, Clock clock,
            @Nullable DueWorkPass duePass) {
        this.interval = interval;
        this.engines = engines;
        this.describe = duePass == null ? describe : describe + ", and " + duePass.describe();
        this.clock = clock;
        this.duePass = duePass;
    }

    @Override
    public synchronized void start() {
        if (executor != null) {
            return;
        }
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "mnemo-pipeline-schedule");
            thread.setDaemon(true);
            return thread;
        });
        long every = interval.toMillis();
        executor.scheduleWithFixedDelay(this::runQuietly, every, every, TimeUnit.MILLISECONDS);
        LOG.info("Mnemo runs the memory pipeline every {} for {} (mnemo.pipeline.schedule.*)", interval, describe);
    }

    @Override
    public synchronized void stop() {
        ScheduledExecutorService running = executor;
        if (running == null) {
            return;
        }
        executor = null;
        running.shutdownNow();
        try {
            running.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return executor != null;
    }

    Duration interval() {
        return interval;
    }

    /** When the last scheduled run started its engines' pipelines. */
    Optional<Instant> lastRun() {
        return Optional.ofNullable(lastRun);
    }

    int lastRunEngines() {
        return lastRunEngines;
    }

    /**
     * One run: starts the pipeline on each engine (a shared engine closed meanwhile is skipped) and
     * returns the tasks started; their outcome is logged when they end.
     */
    List<StartupTask> runOnce() {
        List<StartupTask> started = new ArrayList<>();
        engines.accept(engine -> {
            try {
                StartupTask task = engine.admin().startPipeline();
                task.completion().whenComplete((report, failure) -> {
                    if (failure != null) {
                        LOG.warn("A scheduled memory pipeline run failed", failure);
                    } else {
                        LOG.debug("A scheduled memory pipeline run ended: {}", report);
                    }
                });
                started.add(task);
            } catch (IllegalStateException closed) {
                LOG.debug("An engine closed before its scheduled pipeline run; skipped");
            }
        });
        int dueVisited = duePass == null ? 0 : duePass.run();
        lastRun = clock.instant();
        lastRunEngines = started.size() + dueVisited;
        LOG.debug("Scheduled memory pipeline: started on {} engine(s)", started.size());
        return started;
    }

    private void runQuietly() {
        try {
            runOnce();
        } catch (RuntimeException e) {
            LOG.warn("The scheduled memory pipeline run failed; trying again in {}", interval, e);
        }
    }
}
