package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.DeadJob;
import dev.mnemo.MemoryMode;
import dev.mnemo.ModelFailure;
import dev.mnemo.llm.ModelException;
import dev.mnemo.spi.ClaimOutcome;
import dev.mnemo.spi.JobClaim;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Dead Phase 1 jobs: a job whose every retry failed for its thread's current rollout version is
 * listed with its last error and counted in the status, and can be put back, claimable at once with
 * its retries restored ({@link dev.mnemo.spi.Stage1Store#deadStage1Jobs},
 * {@link dev.mnemo.spi.Stage1Store#deadStage1Job},
 * {@link dev.mnemo.spi.Stage1Store#retryStage1Job}, {@link dev.mnemo.spi.Stage1Store#retryDeadStage1Jobs}).
 *
 * <p>Part of {@link MemoryStoreContract}, which a store's test extends; it needs a store that also
 * keeps threads ({@link dev.mnemo.spi.ThreadStore}) and status ({@link dev.mnemo.spi.MaintenanceStore}).
 */
public abstract class DeadJobStoreContract extends MemoryStoreContractSupport {

    /** When the thread's retries ran out, in {@link #killJob}: after NOW, so the order of deaths is clear. */
    private static final Instant DIED = NOW.plusSeconds(60);

    /** Fails the job of the thread's current version ({@code version(100)}) until no retry is left. */
    private void killJob(String threadId, Instant diedAt) {
        for (int attempt = 1; attempt <= 3; attempt++) {
            JobClaim claim = tryClaim(threadId, version(100), diedAt);
            assertThat(claim.outcome()).as("attempt %s of %s", attempt, threadId).isEqualTo(ClaimOutcome.CLAIMED);
            assertThat(store.markStage1Failed(threadId, claim.token(), "content filtered (attempt " + attempt + ")",
                    Duration.ZERO, diedAt)).isTrue();
        }
    }

    private void addDeadJob(String threadId, Instant diedAt) {
        addThread(threadId, version(100));
        killJob(threadId, diedAt);
    }

    @Test
    void a_job_failed_until_its_retries_are_gone_is_listed_with_its_last_error() {
        addDeadJob("a", DIED);
        addThread("b", version(100));
        String healthy = claim("b", version(100));
        store.markStage1Failed("b", healthy, "one bad reply", RETRY_DELAY, NOW);

        assertThat(store.deadStage1Jobs(10)).containsExactly(
                new DeadJob("a", "content filtered (attempt 3)", DIED, 3));
        assertThat(store.status(DIED).deadJobs()).isEqualTo(1);
        assertThat(store.deadStage1Job("a")).contains(new DeadJob("a", "content filtered (attempt 3)", DIED, 3));
        assertThat(store.deadStage1Job("b")).isEmpty();
        assertThat(store.deadStage1Job("missing")).isEmpty();
    }

    @Test
    void dead_jobs_are_listed_most_recent_death_first_up_to_the_limit() {
        addDeadJob("old", DIED);
        addDeadJob("new", DIED.plusSeconds(60));
        addDeadJob("newest", DIED.plusSeconds(120));

        assertThat(store.deadStage1Jobs(2)).extracting(DeadJob::threadId).containsExactly("newest", "new");
        assertThat(store.deadStage1Jobs(0)).isEmpty();
        assertThat(store.status(DIED).deadJobs()).isEqualTo(3);
    }

    @Test
    void a_newer_rollout_version_makes_a_dead_job_claimable_so_it_is_not_dead() {
        addDeadJob("a", DIED);

        addThread("a", version(200));

        assertThat(store.deadStage1Jobs(10)).isEmpty();
        assertThat(store.status(DIED).deadJobs()).isZero();
        assertThat(tryClaim("a", version(200), DIED).outcome()).isEqualTo(ClaimOutcome.CLAIMED);
    }

    @Test
    void a_disabled_thread_has_no_dead_job() {
        addDeadJob("a", DIED);

        store.setThreadMemoryMode("a", MemoryMode.DISABLED, DIED);

        assertThat(store.deadStage1Jobs(10)).isEmpty();
        assertThat(store.retryDeadStage1Jobs(DIED)).isZero();
    }

    @Test
    void retrying_a_dead_job_makes_it_claimable_now_with_full_retries() {
        addDeadJob("a", DIED);
        assertThat(tryClaim("a", version(100), DIED).outcome()).isEqualTo(ClaimOutcome.SKIPPED_RETRY_EXHAUSTED);

        assertThat(store.retryStage1Job("a", DIED)).isTrue();

        assertThat(store.deadStage1Jobs(10)).isEmpty();
        assertThat(store.status(DIED).deadJobs()).isZero();
        // three more failures before it is dead again: the retries were restored
        killJob("a", DIED.plusSeconds(1));
        assertThat(store.deadStage1Jobs(10)).extracting(DeadJob::threadId).containsExactly("a");
    }

    @Test
    void retrying_a_job_waiting_out_a_retry_delay_makes_it_claimable_now() {
        addThread("a", version(100));
        String token = claim("a", version(100));
        store.markStage1Failed("a", token, "bad reply", RETRY_DELAY, NOW);
        assertThat(tryClaim("a", version(100), NOW).outcome()).isEqualTo(ClaimOutcome.SKIPPED_RETRY_BACKOFF);

        assertThat(store.retryStage1Job("a", NOW)).isTrue();

        assertThat(tryClaim("a", version(100), NOW).outcome()).isEqualTo(ClaimOutcome.CLAIMED);
    }

    @Test
    void retrying_a_job_backing_off_after_a_model_failure_makes_it_claimable_now() {
        addThread("a", version(100));
        String token = claim("a", version(100));
        store.releaseStage1AfterModelFailure("a", token, new ModelFailure(ModelException.Reason.NETWORK,
                "connection refused", NOW), Duration.ofMinutes(5), NOW);

        assertThat(store.retryStage1Job("a", NOW)).isTrue();

        assertThat(tryClaim("a", version(100), NOW).outcome()).isEqualTo(ClaimOutcome.CLAIMED);
    }

    @Test
    void retrying_a_healthy_running_or_unknown_thread_changes_nothing() {
        storeMemory("done", version(100));
        addThread("running", version(100));
        claim("running", version(100));
        addThread("never-claimed", version(100));

        assertThat(store.retryStage1Job("done", NOW)).isFalse();
        assertThat(store.retryStage1Job("running", NOW)).isFalse();
        assertThat(store.retryStage1Job("never-claimed", NOW)).isFalse();
        assertThat(store.retryStage1Job("missing", NOW)).isFalse();
        assertThat(store.retryDeadStage1Jobs(NOW)).isZero();
        assertThat(store.status(NOW).runningLeases()).singleElement()
                .satisfies(lease -> assertThat(lease.jobKey()).isEqualTo("running"));
    }

    @Test
    void retrying_all_dead_jobs_returns_how_many_and_leaves_the_others() {
        addDeadJob("a", DIED);
        addDeadJob("b", DIED);
        addThread("c", version(100));
        String backingOff = claim("c", version(100));
        store.markStage1Failed("c", backingOff, "bad reply", RETRY_DELAY, NOW);

        assertThat(store.retryDeadStage1Jobs(DIED)).isEqualTo(2);

        assertThat(store.deadStage1Jobs(10)).isEmpty();
        assertThat(tryClaim("a", version(100), DIED).outcome()).isEqualTo(ClaimOutcome.CLAIMED);
        assertThat(tryClaim("b", version(100), DIED).outcome()).isEqualTo(ClaimOutcome.CLAIMED);
        assertThat(tryClaim("c", version(100), DIED).outcome()).as("not dead, so not retried")
                .isEqualTo(ClaimOutcome.SKIPPED_RETRY_BACKOFF);
        assertThat(store.retryDeadStage1Jobs(DIED)).isZero();
    }

    @Test
    void a_success_after_a_retry_clears_the_dead_job_for_good() {
        addDeadJob("a", DIED);
        store.retryStage1Job("a", DIED);

        JobClaim claim = tryClaim("a", version(100), DIED);
        assertThat(store.markStage1Succeeded("a", claim.token(), version(100), result("a"), DIED)).isTrue();

        assertThat(store.deadStage1Jobs(10)).isEmpty();
        assertThat(store.status(DIED).deadJobs()).isZero();
        assertThat(store.retryStage1Job("a", DIED)).isFalse();
        assertThat(store.stage1Output("a")).isPresent();
    }
}
