package dev.mnemo.cli;

import dev.mnemo.store.sqlite.SqliteMemoryStore;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.slf4j.LoggerFactory;

/**
 * The one-time JVM initialisation that every command opening a home pays, whatever its arguments,
 * started on a daemon thread at the top of {@code main} so that it runs while the main thread
 * builds picocli's command model and parses the arguments: the same work, done in parallel, not
 * skipped.
 *
 * <p>The work: SLF4J's initialisation (provider discovery, {@code simplelogger.properties}, and
 * the JDK's locale data, which the log lines' time format loads), then
 * {@link SqliteMemoryStore#preload()} (sqlite-jdbc's native library and classes, and its own
 * date format). Nothing in it writes outside sqlite-jdbc's library cache, opens a home or logs
 * unless something fails under {@code -v}.
 *
 * <p>Commands start only once it has finished ({@link #await()}, called by the execution strategy
 * of {@link MnemoCli#commandLine(MnemoCli, StartupWarmUp)}), so SLF4J is never initialised by two
 * threads at once: a logger asked for during another thread's initialisation would be a substitute
 * that replays its events behind a notice on standard error. A failure is ignored here; the command
 * meets it again on its own thread and reports it as it always did.
 */
final class StartupWarmUp {

    private static final StartupWarmUp NONE = new StartupWarmUp(new CountDownLatch(0));

    /**
     * Arguments that mean no warm-up: help and the version open no home, and {@code mcp} sets its
     * own logging properties, which slf4j-simple reads only when it starts, so SLF4J must not start
     * before it runs. Any argument counts ({@code mnemo search mcp} is not warmed up either: slower,
     * never different).
     */
    private static final Set<String> NOT_WARMED_UP = Set.of("-h", "--help", "-V", "--version", "help", "mcp");

    private final CountDownLatch done;

    private StartupWarmUp(CountDownLatch done) {
        this.done = done;
    }

    /** Nothing to wait for. */
    static StartupWarmUp none() {
        return NONE;
    }

    /**
     * Starts the warm-up on a daemon thread, unless {@code args} name something that needs none or
     * must run before SLF4J starts (see {@link #NOT_WARMED_UP}). Call it after setting any logging
     * property.
     */
    static StartupWarmUp start(String[] args) {
        return start(args, StartupWarmUp::initialiseOnce);
    }

    /** {@link #start(String[])} with other work, for tests. */
    static StartupWarmUp start(String[] args, Runnable work) {
        if (List.of(args).stream().anyMatch(NOT_WARMED_UP::contains)) {
            return NONE;
        }
        StartupWarmUp warmUp = new StartupWarmUp(new CountDownLatch(1));
        Thread thread = new Thread(() -> warmUp.run(work), "mnemo-warm-up");
        thread.setDaemon(true);
        thread.start();
        return warmUp;
    }

    /** Returns once the warm-up has finished (at once if none was started); keeps an interrupt for later. */
    void await() {
        boolean interrupted = false;
        while (true) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void run(Runnable work) {
        try {
            work.run();
        } catch (RuntimeException | LinkageError e) {
            // the command meets it again on its own thread and reports it there
        } finally {
            done.countDown();
        }
    }

    private static void initialiseOnce() {
        LoggerFactory.getILoggerFactory();
        SqliteMemoryStore.preload();
    }
}
