package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.DeadJob;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.ClaimOutcome;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Dead Phase 1 jobs are a tenant's own: two tenants with the same thread id, one of whose job died,
 * never see, count or retry the other's.
 */
class DeadJobTenantIsolationTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    private static final Instant VERSION = NOW.minus(Duration.ofDays(1));
    private static final Duration LEASE = Duration.ofHours(1);

    private static PostgresBackend backend;

    @BeforeAll
    static void migrate() {
        backend = DB.backend("deadjobs");
    }

    private static void addThread(MemoryStore store, String id) {
        store.upsertThread(ThreadInfo.builder(id).rolloutPath(Path.of("/rollouts/" + id + ".jsonl"))
                .createdAt(VERSION.minus(Duration.ofHours(1))).updatedAt(VERSION).source("cli")
                .preview("fix the build").build());
    }

    private static void fail(MemoryStore store, String id, int times, Duration retryDelay) {
        for (int attempt = 1; attempt <= times; attempt++) {
            JobClaim claim = store.tryClaimStage1Job(id, "worker", VERSION, LEASE, 64, NOW);
            assertThat(claim.outcome()).isEqualTo(ClaimOutcome.CLAIMED);
            assertThat(store.markStage1Failed(id, claim.token(), "content filtered", retryDelay, NOW))
                    .isTrue();
        }
    }

    @Test
    void oneTenantsDeadJob_isNeitherListedCountedNorRetriedForAnotherWithTheSameThreadId() {
        MemoryStore alice = backend.store("alice");
        MemoryStore bob = backend.store("bob");
        addThread(alice, "t1");
        addThread(bob, "t1");
        fail(alice, "t1", 3, Duration.ZERO);
        fail(bob, "t1", 1, Duration.ofHours(1)); // backing off, not dead

        assertThat(alice.deadStage1Jobs(10)).extracting(DeadJob::threadId).containsExactly("t1");
        assertThat(bob.deadStage1Jobs(10)).isEmpty();
        assertThat(alice.status(NOW).deadJobs()).isEqualTo(1);
        assertThat(bob.status(NOW).deadJobs()).isZero();

        assertThat(bob.retryDeadStage1Jobs(NOW)).isZero();
        assertThat(alice.deadStage1Jobs(10)).hasSize(1);

        assertThat(alice.retryDeadStage1Jobs(NOW)).isEqualTo(1);
        assertThat(bob.tryClaimStage1Job("t1", "worker", VERSION, LEASE, 64, NOW).outcome())
                .as("bob's job still waits out its delay").isEqualTo(ClaimOutcome.SKIPPED_RETRY_BACKOFF);
        assertThat(alice.tryClaimStage1Job("t1", "worker", VERSION, LEASE, 64, NOW).outcome())
                .isEqualTo(ClaimOutcome.CLAIMED);

        assertThat(bob.retryStage1Job("t1", NOW)).isTrue();
        assertThat(alice.retryStage1Job("t1", NOW)).as("alice's is running now").isFalse();
    }
}
