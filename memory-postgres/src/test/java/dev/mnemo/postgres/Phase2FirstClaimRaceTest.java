package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.spi.ClaimOutcome;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A tenant's first Phase 2 claim and a Phase 1 completion on another server (which enqueues, so
 * inserts the same global job row) at the same moment: the claim must decide on the row the
 * completion inserted, never fail with a unique violation.
 */
class Phase2FirstClaimRaceTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static final String SCHEMA = "first_claim";
    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    private static final Duration LEASE = Duration.ofHours(1);
    private static PostgresBackend backend;
    private static ExecutorService threads;

    @BeforeAll
    static void migrate() {
        backend = DB.backend(SCHEMA);
        threads = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void firstClaimWaitingOnAnEnqueuesInsert_claimsTheEnqueuedRow() throws Exception {
        MemoryStore store = backend.store("waiting");
        try (Connection enqueue = DB.dataSource().getConnection()) {
            enqueue.setAutoCommit(false);
            try (Statement bind = enqueue.createStatement()) {
                bind.execute("SELECT set_config('mnemo.tenant', 'waiting', true),"
                        + " set_config('search_path', '" + SCHEMA + "', true)");
            }
            try (PreparedStatement insert = enqueue.prepareStatement(PostgresMemoryStore.SQL.get("phase2.enqueue"))) {
                insert.setInt(1, 3);
                insert.setLong(2, NOW.getEpochSecond() - 60);
                assertThat(insert.executeUpdate()).isEqualTo(1);
            }
            CompletableFuture<JobClaim> claim = CompletableFuture.supplyAsync(
                    () -> store.tryClaimPhase2Job("server-b", LEASE, NOW), threads);
            awaitALockWait();
            enqueue.commit();

            JobClaim claimed = claim.get(30, TimeUnit.SECONDS);
            assertThat(claimed.outcome()).isEqualTo(ClaimOutcome.CLAIMED);
            assertThat(claimed.inputWatermark()).as("the enqueued watermark is the claim's")
                    .isEqualTo(NOW.getEpochSecond() - 60);
        }
        assertThat(store.status(NOW).runningLeases()).singleElement()
                .satisfies(lease -> assertThat(lease.workerId()).isEqualTo("server-b"));
    }

    @Test
    void firstClaimsRacingEnqueues_neverFail_andExactlyOneRowPerTenant() throws Exception {
        CyclicBarrier start = new CyclicBarrier(2);
        for (int i = 0; i < 40; i++) {
            MemoryStore store = backend.store("racing-" + i);
            Future<JobClaim> claim = threads.submit(() -> {
                start.await(10, TimeUnit.SECONDS);
                return store.tryClaimPhase2Job("server-a", LEASE, NOW);
            });
            Future<?> enqueue = threads.submit(() -> {
                start.await(10, TimeUnit.SECONDS);
                store.enqueuePhase2(NOW.getEpochSecond());
                return null;
            });
            enqueue.get(30, TimeUnit.SECONDS);
            assertThat(claim.get(30, TimeUnit.SECONDS).outcome()).as("tenant racing-%s", i)
                    .isEqualTo(ClaimOutcome.CLAIMED);
            assertThat(store.status(NOW).jobCounts().get(JobRows.PHASE2).values().stream()
                    .mapToInt(Integer::intValue).sum()).isEqualTo(1);
        }
    }

    /** Bounded polling of pg_stat_activity until some backend of this database waits for a lock. */
    private static void awaitALockWait() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try (Connection monitor = DB.dataSource().getConnection();
                PreparedStatement query = monitor.prepareStatement("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE wait_event_type = 'Lock' AND datname = current_database()")) {
            while (System.nanoTime() < deadline) {
                try (ResultSet rows = query.executeQuery()) {
                    rows.next();
                    if (rows.getInt(1) > 0) {
                        return;
                    }
                }
                Thread.sleep(5); // polling the server, not waiting for time to pass
            }
        }
        throw new AssertionError("the claim never waited for the enqueued row");
    }
}
