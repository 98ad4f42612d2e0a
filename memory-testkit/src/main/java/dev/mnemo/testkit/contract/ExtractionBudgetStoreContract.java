package dev.mnemo.testkit.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.spi.ClaimOutcome;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The daily extraction token ledger of {@code max_extraction_tokens_per_day}: reservations within
 * the limit, settlement by the model's reported usage, one ledger per UTC day, reservations that
 * never pass the limit together however many workers make them, and a Phase 1 job deferred for
 * the budget that keeps its retries.
 *
 * <p>Part of {@link MemoryStoreContract}, which a store's test extends.
 */
public abstract class ExtractionBudgetStoreContract extends MemoryStoreContractSupport {

    private static final LocalDate TODAY = LocalDate.ofInstant(NOW, ZoneOffset.UTC);
    private static final long LIMIT = 10_000;

    @Test
    void reservations_succeedUpToTheLimit_andFailBeyondIt() {
        assertThat(store.extractionTokensSpent(TODAY)).isZero();
        assertThat(store.reserveExtractionTokens(TODAY, 4_000, LIMIT, NOW)).isTrue();
        assertThat(store.reserveExtractionTokens(TODAY, 6_000, LIMIT, NOW)).isTrue();
        assertThat(store.extractionTokensSpent(TODAY)).isEqualTo(LIMIT);

        assertThat(store.reserveExtractionTokens(TODAY, 1, LIMIT, NOW)).isFalse();
        assertThat(store.extractionTokensSpent(TODAY)).as("a refused reservation writes nothing").isEqualTo(LIMIT);
    }

    @Test
    void firstReservation_ofADay_largerThanTheLimit_isRefused() {
        assertThat(store.reserveExtractionTokens(TODAY, LIMIT + 1, LIMIT, NOW)).isFalse();
        assertThat(store.extractionTokensSpent(TODAY)).isZero();
    }

    @Test
    void settle_replacesTheReservation_byTheReportedUsage() {
        assertThat(store.reserveExtractionTokens(TODAY, 4_000, LIMIT, NOW)).isTrue();
        store.settleExtractionTokens(TODAY, 4_000, 1_500, NOW);
        assertThat(store.extractionTokensSpent(TODAY)).isEqualTo(1_500);

        // The room the smaller usage gave back is reservable again.
        assertThat(store.reserveExtractionTokens(TODAY, 8_500, LIMIT, NOW)).isTrue();
        assertThat(store.reserveExtractionTokens(TODAY, 1, LIMIT, NOW)).isFalse();
    }

    @Test
    void settle_recordsAnOverSpend_pastTheLimit_andItStopsTheNextReservation() {
        assertThat(store.reserveExtractionTokens(TODAY, 9_000, LIMIT, NOW)).isTrue();
        store.settleExtractionTokens(TODAY, 9_000, 12_000, NOW);

        assertThat(store.extractionTokensSpent(TODAY)).isEqualTo(12_000);
        assertThat(store.reserveExtractionTokens(TODAY, 1, LIMIT, NOW)).isFalse();
    }

    @Test
    void settle_ofAJobThatUsedNothing_givesTheWholeReservationBack() {
        assertThat(store.reserveExtractionTokens(TODAY, 4_000, LIMIT, NOW)).isTrue();
        store.settleExtractionTokens(TODAY, 4_000, 0, NOW);
        assertThat(store.extractionTokensSpent(TODAY)).isZero();
    }

    @Test
    void days_keepSeparateLedgers() {
        LocalDate tomorrow = TODAY.plusDays(1);
        assertThat(store.reserveExtractionTokens(TODAY, LIMIT, LIMIT, NOW)).isTrue();
        assertThat(store.reserveExtractionTokens(TODAY, 1, LIMIT, NOW)).isFalse();

        assertThat(store.reserveExtractionTokens(tomorrow, 3_000, LIMIT, NOW.plus(Duration.ofDays(1)))).isTrue();
        store.settleExtractionTokens(TODAY, LIMIT, 7_000, NOW.plus(Duration.ofDays(1)));

        assertThat(store.extractionTokensSpent(TODAY)).isEqualTo(7_000);
        assertThat(store.extractionTokensSpent(tomorrow)).isEqualTo(3_000);
    }

    @Test
    void concurrentReservations_fromEightThreadsAndTwoHandles_neverPassTheLimit() throws Exception {
        // Two handles on the same data stand for two processes; each thread asks 40 times for 300.
        try (MemoryStore second = openStore(dir)) {
            List<Long> granted = concurrently(8, worker -> {
                MemoryStore handle = worker % 2 == 0 ? store : second;
                long tokens = 0;
                for (int i = 0; i < 40; i++) {
                    if (handle.reserveExtractionTokens(TODAY, 300, LIMIT, NOW)) {
                        tokens += 300;
                    }
                }
                return tokens;
            });
            long total = granted.stream().mapToLong(Long::longValue).sum();
            assertThat(total).isEqualTo(9_900); // 33 reservations of 300 fit in 10,000, the 34th does not
            assertThat(store.extractionTokensSpent(TODAY)).isEqualTo(total);
            assertThat(second.extractionTokensSpent(TODAY)).isEqualTo(total);
        }
    }

    @Test
    void reservations_rejectAmountsBelowOne() {
        assertThatThrownBy(() -> store.reserveExtractionTokens(TODAY, 0, LIMIT, NOW))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tokens");
        assertThatThrownBy(() -> store.reserveExtractionTokens(TODAY, 10, 0, NOW))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dailyLimit");
        assertThatThrownBy(() -> store.settleExtractionTokens(TODAY, 10, -1, NOW))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("used");
    }

    @Test
    void deferredJob_keepsEveryRetry_andIsClaimableAgainFromRetryAt() {
        addThread("a");
        Instant retryAt = NOW.plus(Duration.ofMinutes(10));
        for (int deferral = 1; deferral <= 5; deferral++) {
            String token = claim("a", version(100));
            assertThat(store.deferStage1Job("a", token, "token_budget_exhausted", NOW, NOW)).isTrue();
        }
        String token = claim("a", version(100));
        assertThat(store.deferStage1Job("a", token, "token_budget_exhausted", retryAt, NOW)).isTrue();
        assertThat(store.deferStage1Job("a", token, "token_budget_exhausted", retryAt, NOW))
                .as("no longer owned").isFalse();
        assertThat(tryClaim("a", version(100), retryAt.minusSeconds(1)).outcome())
                .isEqualTo(ClaimOutcome.SKIPPED_RETRY_BACKOFF);
        assertThat(store.status(NOW).lastModelFailure()).as("not a model failure").isEmpty();
        assertThat(jobCount(STAGE1, "pending")).as("waiting, not failed").isEqualTo(1);
        assertThat(jobCount(STAGE1, "error")).isZero();

        // Six deferrals later the rollout still has its three attempts for bad extractions.
        for (int attempt = 1; attempt <= 3; attempt++) {
            JobClaim claim = tryClaim("a", version(100), retryAt);
            assertThat(claim.outcome()).as("attempt %s", attempt).isEqualTo(ClaimOutcome.CLAIMED);
            assertThat(store.markStage1Failed("a", claim.token(), "bad reply", Duration.ZERO, retryAt)).isTrue();
        }
        assertThat(tryClaim("a", version(100), retryAt).outcome()).isEqualTo(ClaimOutcome.SKIPPED_RETRY_EXHAUSTED);
    }
}
