package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryStatus;
import dev.mnemo.ModelFailure;
import dev.mnemo.llm.ModelException;
import dev.mnemo.spi.ClaimOutcome;
import dev.mnemo.spi.JobClaim;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Phase 1 failures: the retry budget of bad extractions, the backoff after a failure, and model
 * failures that back off without spending a retry and show as the status's last model failure —
 * Codex's state-DB tests (write-sheet §10.5) and Mnemo's own rules for them.
 *
 * <p>Part of {@link MemoryStoreContract}, which a store's test extends; it needs a store that also
 * keeps threads ({@link dev.mnemo.spi.ThreadStore}) and status ({@link dev.mnemo.spi.MaintenanceStore}).
 */
public abstract class Stage1FailureStoreContract extends MemoryStoreContractSupport {

    @Test // §10.5 #14
    void stage1_retry_exhaustion_does_not_block_newer_watermark() {
        addThread("a");
        failThreeTimes("a", version(100));
        assertThat(tryClaim("a", version(100), NOW).outcome()).isEqualTo(ClaimOutcome.SKIPPED_RETRY_EXHAUSTED);

        // a newer rollout resets the budget to three attempts, backoff or not
        failThreeTimes("a", version(101));
        assertThat(tryClaim("a", version(101), NOW).outcome()).isEqualTo(ClaimOutcome.SKIPPED_RETRY_EXHAUSTED);
        String token = claim("a", version(102));
        assertThat(store.markStage1Succeeded("a", token, version(102), result("a"), NOW)).isTrue();
        assertThat(store.stage1Output("a").orElseThrow().sourceUpdatedAt()).isEqualTo(version(102));
    }

    @Test
    void stage1_failure_backs_off_until_retry_delay_passes() {
        addThread("a");
        String token = claim("a", version(100));
        assertThat(store.markStage1Failed("a", token, "model timed out", RETRY_DELAY, NOW)).isTrue();

        assertThat(tryClaim("a", version(100), NOW.plus(Duration.ofMinutes(30))).outcome())
                .isEqualTo(ClaimOutcome.SKIPPED_RETRY_BACKOFF);
        assertThat(tryClaim("a", version(100), NOW.plus(RETRY_DELAY)).outcome()).isEqualTo(ClaimOutcome.CLAIMED);
        assertThat(store.markStage1Failed("a", token, "stale owner", RETRY_DELAY, NOW)).isFalse();
    }

    private static final Duration MODEL_BACKOFF = Duration.ofMinutes(5);

    private static ModelFailure modelFailure(ModelException.Reason reason, Instant at) {
        return new ModelFailure(reason, "could not reach http://127.0.0.1:11434/v1/chat/completions", at);
    }

    @Test // Mnemo: a model failure is not the rollout's fault
    void stage1_model_failure_backs_off_but_never_spends_a_retry() {
        addThread("a");
        Instant at = NOW;
        for (int attempt = 1; attempt <= 5; attempt++) {
            JobClaim claim = tryClaim("a", version(100), at);
            assertThat(claim.outcome()).as("attempt %s", attempt).isEqualTo(ClaimOutcome.CLAIMED);
            assertThat(store.releaseStage1AfterModelFailure("a", claim.token(),
                    modelFailure(ModelException.Reason.NETWORK, at), MODEL_BACKOFF, at)).isTrue();
            assertThat(tryClaim("a", version(100), at.plus(Duration.ofMinutes(4))).outcome())
                    .isEqualTo(ClaimOutcome.SKIPPED_RETRY_BACKOFF);
            at = at.plus(MODEL_BACKOFF);
        }
        // Five model failures later the rollout still has its three attempts for bad extractions.
        failThreeTimesAt("a", version(100), at);
        assertThat(tryClaim("a", version(100), at).outcome()).isEqualTo(ClaimOutcome.SKIPPED_RETRY_EXHAUSTED);
    }

    private void failThreeTimesAt(String threadId, Instant version, Instant at) {
        for (int attempt = 1; attempt <= 3; attempt++) {
            JobClaim claim = tryClaim(threadId, version, at);
            assertThat(claim.outcome()).as("attempt %s", attempt).isEqualTo(ClaimOutcome.CLAIMED);
            assertThat(store.markStage1Failed(threadId, claim.token(), "bad reply", Duration.ZERO, at)).isTrue();
        }
    }

    @Test
    void stage1_model_failure_is_the_status_last_model_failure_until_a_job_succeeds() {
        addThread("a");
        addThread("b");
        assertThat(store.status(NOW).lastModelFailure()).isEmpty();
        String a = claim("a", version(100));
        String b = claim("b", version(100));
        store.releaseStage1AfterModelFailure("a", a, modelFailure(ModelException.Reason.NETWORK, NOW), MODEL_BACKOFF,
                NOW);
        Instant later = NOW.plusSeconds(30);
        store.releaseStage1AfterModelFailure("b", b, modelFailure(ModelException.Reason.AUTHENTICATION, later),
                MODEL_BACKOFF, later);

        MemoryStatus status = store.status(later);

        assertThat(status.lastModelFailure()).hasValueSatisfying(failure -> {
            assertThat(failure.reason()).isEqualTo(ModelException.Reason.AUTHENTICATION);
            assertThat(failure.message()).isEqualTo("could not reach http://127.0.0.1:11434/v1/chat/completions");
            assertThat(failure.at()).isEqualTo(later);
        });
        assertThat(status.jobCounts().get(STAGE1)).containsEntry("error", 2).containsEntry("running", 0);

        Instant afterBackoff = later.plus(MODEL_BACKOFF);
        String again = tryClaim("a", version(100), afterBackoff).token();
        assertThat(store.markStage1Succeeded("a", again, version(100), result("a"), afterBackoff)).isTrue();
        assertThat(store.status(afterBackoff).lastModelFailure()).isEmpty();
    }

    @Test
    void stage1_model_failure_from_a_stale_owner_changes_nothing() {
        addThread("a");
        String first = claim("a", version(100));
        Instant leaseOver = NOW.plus(LEASE);
        String second = store.tryClaimStage1Job("a", OTHER_WORKER, version(100), LEASE, 64, leaseOver).token();

        assertThat(store.releaseStage1AfterModelFailure("a", first, modelFailure(ModelException.Reason.TIMEOUT,
                leaseOver), MODEL_BACKOFF, leaseOver)).isFalse();

        assertThat(store.status(leaseOver).lastModelFailure()).isEmpty();
        assertThat(store.status(leaseOver).runningLeases()).singleElement()
                .satisfies(lease -> assertThat(lease.workerId()).isEqualTo(OTHER_WORKER));
        assertThat(store.markStage1Succeeded("a", second, version(100), result("a"), leaseOver)).isTrue();
    }

    @Test
    void clear_memory_data_forgets_the_last_model_failure() {
        addThread("a");
        String token = claim("a", version(100));
        store.releaseStage1AfterModelFailure("a", token, modelFailure(ModelException.Reason.SERVER, NOW),
                MODEL_BACKOFF, NOW);

        store.clearMemoryData();

        assertThat(store.status(NOW).lastModelFailure()).isEmpty();
    }
}
