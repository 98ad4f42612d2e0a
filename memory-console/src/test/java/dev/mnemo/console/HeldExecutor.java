package dev.mnemo.console;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * An executor that runs nothing until the test says so: what lets a test look at the console while
 * a refresh "runs", then let it finish, without sleeping or racing.
 */
final class HeldExecutor extends AbstractExecutorService {

    private final List<Runnable> held = new ArrayList<>();
    private boolean shutdown;

    @Override
    public synchronized void execute(Runnable task) {
        held.add(task);
    }

    /** Runs every held task on the calling thread, in the order they came. */
    void runHeld() {
        List<Runnable> tasks;
        synchronized (this) {
            tasks = List.copyOf(held);
            held.clear();
        }
        tasks.forEach(Runnable::run);
    }

    @Override
    public synchronized void shutdown() {
        shutdown = true;
    }

    @Override
    public synchronized List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> tasks = List.copyOf(held);
        held.clear();
        return tasks;
    }

    @Override
    public synchronized boolean isShutdown() {
        return shutdown;
    }

    @Override
    public synchronized boolean isTerminated() {
        return shutdown && held.isEmpty();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return isTerminated();
    }
}
