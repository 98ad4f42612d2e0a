package dev.mnemo.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Vacuums tables of the schema after a forget, off the request path: a forget that deleted rows
 * asks for it and returns at once; one background thread of the backend runs the {@code VACUUM}s.
 * The tables are shared by every tenant, so requests coalesce: while a vacuum of a table set waits
 * to start, further requests for that set join it, so a burst of forgets leaves at most one vacuum
 * per table set queued behind the running one. {@link #close()} drops what is queued and cancels
 * what runs (autovacuum reclaims the rest later).
 */
final class VacuumQueue implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(VacuumQueue.class);
    /** How long {@link #close()} waits for a cancelled vacuum to stop. */
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);
    /** The thread ends after this long without work; the next request starts another. */
    private static final Duration IDLE_THREAD_TIMEOUT = Duration.ofSeconds(30);

    private final DataSource dataSource;
    private final String schema;
    private final ExecutorService executor;
    /** Requests waiting per table set (a set is in the map while its vacuum has not started). */
    private final Map<List<String>, Integer> waiting = new HashMap<>();
    private final AtomicLong requested = new AtomicLong();
    private final AtomicLong started = new AtomicLong();
    private final AtomicLong completed = new AtomicLong();
    private Statement running;
    private boolean closed;

    VacuumQueue(DataSource dataSource, String schema) {
        this.dataSource = dataSource;
        this.schema = schema;
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, IDLE_THREAD_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(), task -> {
                    Thread thread = new Thread(task, "mnemo-postgres-vacuum-" + schema);
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
        this.executor = pool;
    }

    /**
     * Queues a vacuum of {@code tables} (names in the schema), unless one of the same set is already
     * queued and not started: then this request joins it.
     *
     * @param reason what was deleted, for the log
     */
    void request(List<String> tables, String reason) {
        List<String> set = List.copyOf(tables);
        requested.incrementAndGet();
        synchronized (this) {
            if (closed) {
                LOG.debug("not vacuuming {} of schema {} after {}: the backend is closed", set, schema, reason);
                return;
            }
            Integer earlier = waiting.merge(set, 1, Integer::sum) - 1;
            if (earlier > 0) {
                LOG.debug("vacuum of {} in schema {} already queued; {} joins it ({} waiting)", set, schema, reason,
                        earlier + 1);
                return;
            }
        }
        try {
            executor.execute(() -> run(set));
            LOG.debug("vacuum of {} in schema {} queued after {}", set, schema, reason);
        } catch (RejectedExecutionException e) { // closed meanwhile
            synchronized (this) {
                waiting.remove(set);
            }
            LOG.debug("not vacuuming {} of schema {} after {}: the backend is closed", set, schema, reason);
        }
    }

    private void run(List<String> tables) {
        int forgets;
        synchronized (this) {
            Integer joined = waiting.remove(tables);
            if (closed || joined == null) {
                return;
            }
            forgets = joined;
            started.incrementAndGet();
        }
        long start = System.nanoTime();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(true); // VACUUM cannot run inside a transaction block
            for (String table : tables) {
                try (Statement statement = connection.createStatement()) {
                    if (!setRunning(statement)) {
                        return;
                    }
                    try {
                        statement.execute("VACUUM " + TenantDatabase.quoted(schema) + "." + table);
                    } finally {
                        setRunning(null);
                    }
                }
            }
            completed.incrementAndGet();
            LOG.info("vacuumed {} in schema {} after {} forget(s) in {} ms", tables, schema, forgets,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        } catch (SQLException e) {
            if (isClosed()) {
                LOG.info("vacuum of {} in schema {} cancelled by close; autovacuum will reclaim the dead rows", tables,
                        schema);
            } else {
                LOG.warn("could not vacuum {} in schema {} after {} forget(s): {}", tables, schema, forgets,
                        e.getMessage());
            }
        }
    }

    /** Records the statement {@link #close()} may cancel; false when closed already. */
    private synchronized boolean setRunning(Statement statement) {
        running = statement;
        return !closed;
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    /** Vacuums asked for since this queue was made (coalesced or not). For tests and the log. */
    long requested() {
        return requested.get();
    }

    /** Vacuums that started (each after the requests it coalesced). For tests. */
    long started() {
        return started.get();
    }

    /** Vacuums that ran to the end. For tests. */
    long completed() {
        return completed.get();
    }

    /** Table sets whose vacuum is queued and not started. For tests. */
    synchronized int waiting() {
        return waiting.size();
    }

    /**
     * Drops queued vacuums, cancels the running one and waits (boundedly) for the thread to end.
     * Later requests are skipped.
     */
    @Override
    public void close() {
        Statement cancel;
        int dropped;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            dropped = waiting.size();
            waiting.clear();
            cancel = running;
        }
        executor.shutdownNow();
        if (cancel != null) {
            try {
                cancel.cancel();
            } catch (SQLException e) {
                LOG.debug("could not cancel the running vacuum in schema {}: {}", schema, e.getMessage());
            }
        }
        try {
            if (!executor.awaitTermination(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("the vacuum thread of schema {} did not stop within {}", schema, CLOSE_TIMEOUT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (cancel != null || dropped > 0) {
            LOG.info("closed the vacuum queue of schema {}: {} running vacuum cancelled, {} queued dropped", schema,
                    cancel != null ? 1 : 0, dropped);
        }
    }
}
