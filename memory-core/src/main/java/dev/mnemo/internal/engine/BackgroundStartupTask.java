package dev.mnemo.internal.engine;

import dev.mnemo.StartupReport;
import dev.mnemo.StartupTask;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/** A submitted startup run: its report future, and a cancel flag the run checks between steps. */
final class BackgroundStartupTask implements StartupTask {

    private final CompletableFuture<StartupReport> completion = new CompletableFuture<>();
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile Future<?> submitted;

    @Override
    public CompletableFuture<StartupReport> completion() {
        return completion.copy();
    }

    /** The future the engine completes; callers only see copies, so they cannot complete it. */
    CompletableFuture<StartupReport> result() {
        return completion;
    }

    void submitted(Future<?> future) {
        this.submitted = future;
    }

    /** Called first thing by the run; false when the task was cancelled before it started. */
    boolean start() {
        return started.compareAndSet(false, true) && !cancelled.get();
    }

    boolean isCancelled() {
        return cancelled.get();
    }

    @Override
    public boolean cancel() {
        if (completion.isDone()) {
            return false;
        }
        cancelled.set(true);
        Future<?> future = submitted;
        if (future != null) {
            future.cancel(true);
        }
        if (started.compareAndSet(false, true)) {
            // Never ran: nobody else will complete it.
            completion.cancel(false);
        }
        return true;
    }
}
