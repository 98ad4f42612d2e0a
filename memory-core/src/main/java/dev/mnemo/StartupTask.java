package dev.mnemo;

import java.util.concurrent.CompletableFuture;

/** A handle on the background pipeline run that {@link MemoryEngine#startStartupTask} submitted. */
public interface StartupTask {

    /**
     * Completes with the report when the run ends; never completes exceptionally for pipeline
     * failures (they are in the report). A run cancelled by {@link #cancel()} or by closing the
     * engine completes exceptionally with a {@link java.util.concurrent.CancellationException} as
     * the cause.
     *
     * @return the future of the run's report
     */
    CompletableFuture<StartupReport> completion();

    /**
     * Asks the run to stop at its next step boundary; jobs it owns are released for retry.
     *
     * @return false when the run had already finished
     */
    boolean cancel();
}
