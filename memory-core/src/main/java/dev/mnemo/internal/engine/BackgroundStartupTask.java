package dev.mnemo.internal.engine;

import dev.mnemo.SessionContext;
import dev.mnemo.StartupReport;
import dev.mnemo.StartupTask;
import dev.mnemo.internal.events.BackgroundOperations;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A submitted startup run: its report future, and a cancel flag the run checks between steps.
 *
 * <p>Sessions that start while a run is queued and not yet started join it instead of queueing
 * another ({@link #join}): a burst of new conversations costs one run behind the running one. Each
 * caller holds its own {@link StartupTask} handle; the run is cancelled only when every holder
 * cancelled it. The run works for the newest joined session (its thread is the one Phase 1 skips;
 * earlier sessions' threads are protected by the idle window, as every live thread is).
 */
final class BackgroundStartupTask {

    private final CompletableFuture<StartupReport> completion = new CompletableFuture<>();
    private final AtomicBoolean cancelled = new AtomicBoolean();
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicInteger holders = new AtomicInteger();
    private volatile SessionContext session;
    private volatile Future<?> submitted;
    private final BackgroundOperations.Run run;

    /** @param run the background run this task is, announced when it was made */
    BackgroundStartupTask(SessionContext session, BackgroundOperations.Run run) {
        this.session = Objects.requireNonNull(session, "session");
        this.run = Objects.requireNonNull(run, "run");
    }

    /** The background run this task is: finished when its result completes, however it does. */
    BackgroundOperations.Run run() {
        return run;
    }

    /** The future the engine completes; callers only see copies, so they cannot complete it. */
    CompletableFuture<StartupReport> result() {
        return completion;
    }

    /** The session the run works for: the newest that joined before it started. */
    SessionContext session() {
        return session;
    }

    /** A handle for the first caller. */
    StartupTask handle() {
        holders.incrementAndGet();
        return new Handle();
    }

    /**
     * A handle for another session, if the run has not started yet (the caller holds the engine's
     * queue lock, so no run starts between this check and the join taking effect for the run).
     */
    StartupTask join(SessionContext newer) {
        if (started.get() || cancelled.get()) {
            return null;
        }
        this.session = newer;
        return handle();
    }

    void submitted(Future<?> future) {
        this.submitted = future;
    }

    /** Called first thing by the run; false when the task was cancelled before it started. */
    boolean start() {
        return started.compareAndSet(false, true) && !cancelled.get();
    }

    boolean hasStarted() {
        return started.get();
    }

    boolean isCancelled() {
        return cancelled.get();
    }

    /** Cancels the run for every holder: what engine close does. */
    boolean cancel() {
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

    /** One caller's view of the run. */
    private final class Handle implements StartupTask {
        private final AtomicBoolean gaveUp = new AtomicBoolean();
        private final CompletableFuture<StartupReport> view = completion.copy();

        @Override
        public CompletableFuture<StartupReport> completion() {
            return view.copy();
        }

        /** Cancels the run when this was its last holder; otherwise only this holder's view. */
        @Override
        public boolean cancel() {
            if (view.isDone() || !gaveUp.compareAndSet(false, true)) {
                return false;
            }
            if (holders.decrementAndGet() > 0) {
                return view.cancel(false);
            }
            return BackgroundStartupTask.this.cancel();
        }
    }
}
