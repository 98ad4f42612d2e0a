package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.Stage1Result;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A forget vacuums the tables shared by every tenant only when it deleted rows, never on the
 * caller's thread, and a burst of forgets coalesces. Each test holds a lock that a {@code VACUUM}
 * of {@code tenant_stage1_outputs} waits for, so "returns before the vacuum ran" is observed, not
 * timed: a forget that vacuumed on its own thread would not return until the lock is released.
 */
class BackgroundVacuumTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static final String SCHEMA = "vacuums";
    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    private static final Instant VERSION = NOW.minus(Duration.ofDays(1));
    private static final long BOUND_SECONDS = 30;
    private static ExecutorService callers;

    @BeforeAll
    static void start() {
        callers = Executors.newCachedThreadPool();
    }

    @AfterAll
    static void stop() {
        callers.shutdownNow();
    }

    @Test
    void forgetThatDeletesNothing_queuesNoVacuum() throws Exception {
        try (PostgresBackend backend = DB.backend(SCHEMA); Connection lock = lockAgainstVacuum()) {
            MemoryStore store = backend.store("nothing-to-forget");
            addThread(store, "no-memory");

            returnsInTime(() -> store.markThreadPolluted("no-memory", NOW));
            returnsInTime(() -> store.markThreadPolluted("no-memory", NOW)); // already polluted: as every externalContext() does
            returnsInTime(() -> store.deleteThread("never-registered", NOW));
            returnsInTime(store::clearMemoryData);

            assertThat(backend.database().vacuums().requested()).isZero();
            assertThat(vacuumsWaiting()).isZero();
        }
    }

    @Test
    void forgetThatDeletes_returnsBeforeItsVacuumRuns_whichRunsInTheBackground() throws Exception {
        try (PostgresBackend backend = DB.backend(SCHEMA)) {
            VacuumQueue vacuums = backend.database().vacuums();
            MemoryStore store = backend.store("deleter");
            storeMemory(store, "secret");
            try (Connection lock = lockAgainstVacuum()) {
                returnsInTime(() -> store.deleteThread("secret", NOW));

                await("a VACUUM waiting for the lock, on another session", () -> vacuumsWaiting() == 1);
                assertThat(vacuums.completed()).isZero();
                lock.rollback();
            }
            await("the background vacuum to finish", () -> vacuums.completed() == 1);
            assertThat(vacuums.requested()).isEqualTo(1);
        }
    }

    @Test
    void burstOfForgets_leavesOneVacuumQueuedBehindTheRunningOne() throws Exception {
        try (PostgresBackend backend = DB.backend(SCHEMA)) {
            VacuumQueue vacuums = backend.database().vacuums();
            MemoryStore store = backend.store("burst");
            for (int i = 0; i <= 20; i++) {
                storeMemory(store, "t" + i);
            }
            try (Connection lock = lockAgainstVacuum()) {
                returnsInTime(() -> store.deleteThread("t0", NOW));
                await("the first vacuum to run (waiting for the lock)", () -> vacuumsWaiting() == 1);
                for (int i = 1; i <= 20; i++) {
                    String id = "t" + i;
                    returnsInTime(() -> store.markThreadPolluted(id, NOW));
                }
                assertThat(vacuums.waiting()).as("table sets with a vacuum queued").isEqualTo(1);
                lock.rollback();
            }
            await("both vacuums to finish", () -> vacuums.completed() == 2);
            assertThat(vacuums.requested()).isEqualTo(21);
            assertThat(vacuums.waiting()).isZero();
            assertThat(vacuums.started()).as("no third vacuum").isEqualTo(2);
        }
    }

    @Test
    void close_dropsTheQueuedVacuumAndCancelsTheRunningOne() throws Exception {
        PostgresBackend backend = DB.backend(SCHEMA);
        VacuumQueue vacuums = backend.database().vacuums();
        MemoryStore store = backend.store("closer");
        storeMemory(store, "a");
        storeMemory(store, "b");
        try (Connection lock = lockAgainstVacuum()) {
            returnsInTime(() -> store.deleteThread("a", NOW));
            await("the first vacuum to run (waiting for the lock)", () -> vacuumsWaiting() == 1);
            returnsInTime(() -> store.deleteThread("b", NOW));
            assertThat(vacuums.waiting()).isEqualTo(1);

            returnsInTime(backend::close);

            assertThat(vacuumsWaiting()).as("the running VACUUM was cancelled").isZero();
            assertThat(vacuums.waiting()).isZero();
            assertThat(vacuums.started()).isEqualTo(1);
            assertThat(vacuums.completed()).isZero();
            storeMemory(store, "c");
            returnsInTime(() -> store.deleteThread("c", NOW)); // after close: the forget works, nothing is vacuumed
            assertThat(vacuums.started()).isEqualTo(1);
            assertThat(vacuums.waiting()).isZero();
        }
    }

    // ---- helpers ----------------------------------------------------------------------------------

    private static void addThread(MemoryStore store, String id) {
        store.upsertThread(ThreadInfo.builder(id).rolloutPath(Path.of("/rollouts/" + id + ".jsonl"))
                .createdAt(VERSION.minus(Duration.ofHours(1))).updatedAt(VERSION).source("app")
                .preview("talk about " + id).build());
    }

    private static void storeMemory(MemoryStore store, String id) {
        addThread(store, id);
        JobClaim claim = store.tryClaimStage1Job(id, "worker", VERSION, Duration.ofHours(1), 64, NOW);
        assertThat(store.markStage1Succeeded(id, claim.token(), VERSION,
                new Stage1Result("raw memory of " + id, "summary of " + id, Optional.empty()), NOW)).isTrue();
    }

    /**
     * A connection holding, in an open transaction, the lock a {@code VACUUM} of
     * {@code tenant_stage1_outputs} needs (and a forget's {@code DELETE} does not); rolling back or
     * closing it releases the lock. The schema must exist (a backend built on it).
     */
    private static Connection lockAgainstVacuum() throws Exception {
        Connection connection = DB.dataSource().getConnection();
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("LOCK TABLE " + SCHEMA + ".tenant_stage1_outputs IN SHARE UPDATE EXCLUSIVE MODE");
        }
        return connection; // the pool rolls the open transaction back on close
    }

    /** Runs {@code call} on another thread and fails unless it returns within the bound. */
    private static void returnsInTime(Runnable call) throws Exception {
        CompletableFuture.runAsync(call, callers).get(BOUND_SECONDS, TimeUnit.SECONDS);
    }

    /** VACUUMs of this database (not autovacuum) waiting for a lock. */
    private static int vacuumsWaiting() throws Exception {
        try (Connection monitor = DB.dataSource().getConnection();
                PreparedStatement query = monitor.prepareStatement("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE datname = current_database() AND query LIKE 'VACUUM%' AND wait_event_type = 'Lock'");
                ResultSet rows = query.executeQuery()) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /** Bounded polling of a condition the background thread makes true. */
    private static void await(String what, Condition condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(5); // polling another thread's progress, not waiting for time to pass
        }
    }

    @FunctionalInterface
    private interface Condition {
        boolean holds() throws Exception;
    }
}
