package dev.mnemo.it;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * An executor given to an engine in tests: while it holds, it keeps every task for the test to run
 * (or not) on the thread it chooses, so what the engine handed over, and when, is plain to see.
 * {@link #holding()} holds from the start; {@link #onThreadsUntilHeld()} runs tasks on real threads
 * until {@link #hold()}. Shut down, it refuses new tasks.
 */
final class HeldExecutor extends AbstractExecutorService {

    /** Where tasks run while not held; null for an executor that always holds. */
    private final ExecutorService threads;
    private final List<Runnable> held = new CopyOnWriteArrayList<>();
    private volatile boolean holding;
    private volatile boolean shutdown;

    private HeldExecutor(ExecutorService threads, boolean holding) {
        this.threads = threads;
        this.holding = holding;
    }

    /** Keeps every task until the test runs it. */
    static HeldExecutor holding() {
        return new HeldExecutor(null, true);
    }

    /** Runs tasks on real threads until {@link #hold()}. */
    static HeldExecutor onThreadsUntilHeld() {
        return new HeldExecutor(Executors.newCachedThreadPool(), false);
    }

    /** From now on, keeps the tasks. */
    void hold() {
        holding = true;
    }

    /** How many tasks are kept. */
    int held() {
        return held.size();
    }

    /** What was kept, in order; no longer kept (an executor with threads stops holding). */
    List<Runnable> release() {
        if (threads != null) {
            holding = false;
        }
        List<Runnable> released = List.copyOf(held);
        held.removeAll(released);
        return released;
    }

    @Override
    public void execute(Runnable task) {
        if (shutdown) {
            throw new RejectedExecutionException("shut down");
        }
        if (holding) {
            held.add(task);
        } else {
            threads.execute(task);
        }
    }

    @Override
    public void shutdown() {
        shutdown = true;
        if (threads != null) {
            threads.shutdown();
        }
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> left = release();
        if (threads != null) {
            threads.shutdownNow();
        }
        return left;
    }

    @Override
    public boolean isShutdown() {
        return shutdown;
    }

    @Override
    public boolean isTerminated() {
        return shutdown && held.isEmpty() && (threads == null || threads.isTerminated());
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return threads == null ? isTerminated() : threads.awaitTermination(timeout, unit) && isTerminated();
    }
}
