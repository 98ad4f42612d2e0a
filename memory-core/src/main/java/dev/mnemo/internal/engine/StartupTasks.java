package dev.mnemo.internal.engine;

import dev.mnemo.StartupReport;
import dev.mnemo.StartupTask;
import java.util.concurrent.CompletableFuture;

/** Startup tasks that need no thread. */
final class StartupTasks {

    private StartupTasks() {
    }

    /** A task already finished with {@code report}: what a session the gates skip gets. */
    static StartupTask done(StartupReport report) {
        CompletableFuture<StartupReport> completed = CompletableFuture.completedFuture(report);
        return new StartupTask() {
            @Override
            public CompletableFuture<StartupReport> completion() {
                return completed.copy();
            }

            @Override
            public boolean cancel() {
                return false;
            }
        };
    }
}
