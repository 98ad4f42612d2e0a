package dev.mnemo.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.spi.Phase2ClaimPolicy.JobRow;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class Phase2ClaimPolicyTest {

    private static final Instant NOW = Instant.parse("2026-06-01T12:00:00Z");
    private static final long NOW_S = NOW.getEpochSecond();
    private static final long HOUR = 3_600;

    private static JobRow row(String status, Long leaseUntil, Long retryAt, Long finishedAt, String lastError) {
        return new JobRow(status, leaseUntil, retryAt, finishedAt, lastError);
    }

    @Test
    void constants_areCodexs() {
        assertThat(Phase2ClaimPolicy.JOB_LEASE).isEqualTo(Duration.ofHours(1));
        assertThat(Phase2ClaimPolicy.HEARTBEAT).isEqualTo(Duration.ofSeconds(90));
        assertThat(Phase2ClaimPolicy.RETRY_DELAY).isEqualTo(Duration.ofHours(1));
        assertThat(Phase2ClaimPolicy.SUCCESS_COOLDOWN).isEqualTo(Duration.ofHours(6));
    }

    @Test
    void decide_claimsAFreshPendingRow() {
        assertThat(Phase2ClaimPolicy.decide(row("pending", null, null, null, null), NOW))
                .isEqualTo(ClaimOutcome.CLAIMED);
    }

    @Test
    void decide_skipsWhileAFailuresBackoffLasts_beforeLookingAtTheLease() {
        JobRow backingOff = row("running", NOW_S + HOUR, NOW_S + 1, NOW_S - 10, "failed_agent");

        assertThat(Phase2ClaimPolicy.decide(backingOff, NOW)).isEqualTo(ClaimOutcome.SKIPPED_RETRY_UNAVAILABLE);
        assertThat(Phase2ClaimPolicy.decide(row("error", null, NOW_S, NOW_S - HOUR, "failed_agent"), NOW))
                .as("the backoff ends at retry_at").isEqualTo(ClaimOutcome.CLAIMED);
    }

    @Test
    void decide_skipsALiveLease_andTakesOverAnExpiredOne() {
        assertThat(Phase2ClaimPolicy.decide(row("running", NOW_S + 1, null, null, null), NOW))
                .isEqualTo(ClaimOutcome.SKIPPED_RUNNING);
        assertThat(Phase2ClaimPolicy.decide(row("running", NOW_S, null, null, null), NOW))
                .isEqualTo(ClaimOutcome.CLAIMED);
        assertThat(Phase2ClaimPolicy.decide(row("running", null, null, null, null), NOW))
                .as("a running row without a lease is stale").isEqualTo(ClaimOutcome.CLAIMED);
    }

    @Test
    void decide_leaseMattersOnlyForARunningRow() {
        assertThat(Phase2ClaimPolicy.decide(row("pending", NOW_S + HOUR, null, null, null), NOW))
                .isEqualTo(ClaimOutcome.CLAIMED);
    }

    @Test
    void decide_holdsTheSuccessCooldownForSixHours() {
        long cooldown = Phase2ClaimPolicy.SUCCESS_COOLDOWN.toSeconds();

        assertThat(Phase2ClaimPolicy.decide(row("done", null, null, NOW_S - cooldown + 1, null), NOW))
                .isEqualTo(ClaimOutcome.SKIPPED_COOLDOWN);
        assertThat(Phase2ClaimPolicy.decide(row("pending", null, null, NOW_S - cooldown + 1, null), NOW))
                .as("an enqueue keeps the cooldown").isEqualTo(ClaimOutcome.SKIPPED_COOLDOWN);
        assertThat(Phase2ClaimPolicy.decide(row("done", null, null, NOW_S - cooldown, null), NOW))
                .isEqualTo(ClaimOutcome.CLAIMED);
    }

    @Test
    void decide_aFailureIsNoCooldown_onceItsBackoffPassed() {
        assertThat(Phase2ClaimPolicy.decide(row("error", null, NOW_S - 1, NOW_S - 60, "failed_agent"), NOW))
                .isEqualTo(ClaimOutcome.CLAIMED);
    }

    @Test
    void decide_comparesWholeSecondsAsTheRowDoes() {
        long cooldown = Phase2ClaimPolicy.SUCCESS_COOLDOWN.toSeconds();
        Instant justBefore = NOW.minusMillis(1);

        assertThat(Phase2ClaimPolicy.decide(row("done", null, null, NOW_S - cooldown, null), justBefore))
                .isEqualTo(ClaimOutcome.SKIPPED_COOLDOWN);
        assertThat(Phase2ClaimPolicy.decide(row("running", NOW_S, null, null, null), justBefore))
                .isEqualTo(ClaimOutcome.SKIPPED_RUNNING);
        assertThat(Phase2ClaimPolicy.decide(row("running", NOW_S, null, null, null), NOW.plusMillis(999)))
                .isEqualTo(ClaimOutcome.CLAIMED);
    }

    @Test
    void lastSuccess_isTheFinishWhileNoErrorIsRecorded() {
        assertThat(Phase2ClaimPolicy.lastSuccess(row("done", null, null, NOW_S - 5, null)))
                .contains(Instant.ofEpochSecond(NOW_S - 5));
        assertThat(Phase2ClaimPolicy.lastSuccess(row("error", null, NOW_S + HOUR, NOW_S - 5, "failed_agent")))
                .isEmpty();
        assertThat(Phase2ClaimPolicy.lastSuccess(row("running", NOW_S + HOUR, null, null, null))).isEmpty();
    }

    @Test
    void notBefore_isTheBackoff_elseTheCooldownEnd_elseNothing() {
        long cooldown = Phase2ClaimPolicy.SUCCESS_COOLDOWN.toSeconds();

        assertThat(Phase2ClaimPolicy.notBefore(row("error", null, NOW_S + 60, NOW_S, "failed_agent"), NOW))
                .contains(Instant.ofEpochSecond(NOW_S + 60));
        assertThat(Phase2ClaimPolicy.notBefore(row("done", null, null, NOW_S - HOUR, null), NOW))
                .contains(Instant.ofEpochSecond(NOW_S - HOUR + cooldown));
        assertThat(Phase2ClaimPolicy.notBefore(row("done", null, null, NOW_S - cooldown, null), NOW)).isEmpty();
        assertThat(Phase2ClaimPolicy.notBefore(row("error", null, NOW_S, NOW_S - 60, "failed_agent"), NOW))
                .isEmpty();
    }

    @Test
    void notBefore_agreesWithDecide() {
        for (long finished = NOW_S - 7 * HOUR; finished <= NOW_S; finished += 600) {
            JobRow done = row("done", null, null, finished, null);
            boolean waiting = Phase2ClaimPolicy.notBefore(done, NOW).isPresent();
            assertThat(Phase2ClaimPolicy.decide(done, NOW) == ClaimOutcome.SKIPPED_COOLDOWN)
                    .as("finished at %s", finished).isEqualTo(waiting);
        }
    }

    @Test
    void jobRow_needsAStatus() {
        assertThatThrownBy(() -> new JobRow(null, null, null, null, null))
                .isInstanceOf(NullPointerException.class).hasMessage("status");
    }
}
