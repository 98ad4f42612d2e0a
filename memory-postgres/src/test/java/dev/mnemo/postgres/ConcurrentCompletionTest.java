package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.ClaimOutcome;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Claims and completions are not serialised in PostgreSQL as they are in SQLite: a claim that
 * waits for a job row while another worker's completion commits must see that completion.
 */
class ConcurrentCompletionTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    private static final Instant VERSION = NOW.minus(Duration.ofHours(3));
    private static PostgresBackend backend;

    @BeforeAll
    static void migrate() {
        backend = DB.backend("races");
    }

    @Test
    void claimWaitingOnARowWhoseCompletionCommits_isSkippedAsUpToDate_notClaimedAgain() throws Exception {
        MemoryStore store = backend.store("racer");
        store.upsertThread(ThreadInfo.builder("t").rolloutPath(Path.of("/r.jsonl")).createdAt(VERSION)
                .updatedAt(VERSION).source("app").preview("hi").build());
        JobClaim first = store.tryClaimStage1Job("t", "worker-a", VERSION, Duration.ofHours(1), 8, NOW);
        assertThat(first.isClaimed()).isTrue();

        try (Connection completion = DB.dataSource().getConnection()) {
            completion.setAutoCommit(false);
            try (Statement statement = completion.createStatement()) {
                statement.execute("SELECT set_config('mnemo.tenant', 'racer', true), set_config('search_path', 'races', true)");
                statement.executeUpdate("UPDATE jobs SET status = 'done', lease_until = NULL,"
                        + " last_success_watermark = input_watermark WHERE job_key = 't'");
            }
            CompletableFuture<JobClaim> second = CompletableFuture.supplyAsync(
                    () -> store.tryClaimStage1Job("t", "worker-b", VERSION, Duration.ofHours(1), 8, NOW));
            awaitALockWait();
            completion.commit();

            assertThat(second.get(30, TimeUnit.SECONDS).outcome()).isEqualTo(ClaimOutcome.SKIPPED_UP_TO_DATE);
        }
    }

    /** Bounded polling of pg_stat_activity until some backend waits for a row lock. */
    private static void awaitALockWait() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        try (Connection monitor = DB.dataSource().getConnection();
                PreparedStatement query = monitor.prepareStatement(
                        "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'")) {
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
        throw new AssertionError("the second claim never waited for the job row");
    }
}
