package dev.mnemo.internal.extract;

import dev.mnemo.ExtractionBudget;
import dev.mnemo.llm.TokenCounter;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.Stage1Claim;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Optional;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Phase 1's daily extraction budget ({@code [memories] max_extraction_tokens_per_day}), kept in
 * the store's token ledger: read before a claim, a reservation before each job, settled by the
 * model's reported usage after it.
 *
 * <p>The guarantee: the reservations made on one UTC day never add up past the limit (the store
 * checks and adds each atomically, across every worker and process of the home or tenant). A job
 * then spends what the model reports, which may exceed its reservation; so the day's spend is at
 * most the limit plus, for each job running at the moment the limit is reached, that job's usage
 * beyond its reservation. With {@code phase1_concurrency} workers per process that is at most one
 * job's overrun per concurrent worker. Reservations are capped at the limit, so a rollout larger
 * than the whole budget runs only on a day nothing else has spent yet.
 */
final class DailyBudget {

    private static final Logger LOG = LoggerFactory.getLogger(DailyBudget.class);

    /** Tokens reserved for a job's answer on top of its input: a stage-1 reply is a few thousand. */
    static final long OUTPUT_ALLOWANCE_TOKENS = 2_000;
    /** {@code last_error} of a job deferred for the budget: the skip reason's code. */
    static final String DEFERRED_REASON = dev.mnemo.SkipReason.TOKEN_BUDGET_EXHAUSTED.code();

    /** A job's hold on the budget, to be settled after it. */
    record Reservation(LocalDate day, long tokens) {}

    private final Phase1Runner.Dependencies deps;
    private final long limit;

    private DailyBudget(Phase1Runner.Dependencies deps) {
        this.deps = deps;
        this.limit = deps.config().maxExtractionTokensPerDay();
    }

    /** The budget of {@code deps}' configuration; empty when none is set (unlimited). */
    static Optional<DailyBudget> of(Phase1Runner.Dependencies deps) {
        return deps.config().hasDailyExtractionBudget() ? Optional.of(new DailyBudget(deps)) : Optional.empty();
    }

    /** Today's figures (UTC, from the engine's clock). */
    ExtractionBudget today() {
        LocalDate day = ExtractionBudget.dayOf(deps.clock().instant());
        return new ExtractionBudget(day, deps.stage1().extractionTokensSpent(day), limit);
    }

    /**
     * Reserves {@code claim}'s estimate on today's ledger.
     *
     * @return empty when the budget has no room for it
     */
    Optional<Reservation> reserve(Stage1Claim claim) {
        Instant now = deps.clock().instant();
        Reservation reservation = new Reservation(ExtractionBudget.dayOf(now), estimate(claim));
        if (deps.stage1().reserveExtractionTokens(reservation.day(), reservation.tokens(), limit, now)) {
            return Optional.of(reservation);
        }
        return Optional.empty();
    }

    /**
     * Replaces {@code reservation} by {@code usage}, on the day it was made; a store failure is
     * logged (the reservation then stays counted, which errs on the side of spending less).
     */
    void settle(Reservation reservation, TokenUsage usage, String threadId) {
        try {
            deps.stage1().settleExtractionTokens(reservation.day(), reservation.tokens(), usage.totalTokens(),
                    deps.clock().instant());
        } catch (RuntimeException e) {
            LOG.warn("memory stage-1 job for thread {}: its {} tokens could not be settled against the extraction "
                    + "budget of {}; its reservation of {} stays counted", threadId, usage.totalTokens(),
                    reservation.day(), reservation.tokens(), e);
        }
    }

    /**
     * Releases a job the budget had no room for: claimable again at once, no retry spent. It is
     * not claimed again while the day's budget is spent ({@link Phase1Runner#run} checks first).
     */
    void defer(Stage1Claim claim) {
        Instant now = deps.clock().instant();
        String threadId = claim.thread().id();
        try {
            boolean owned = deps.stage1().deferStage1Job(threadId, claim.ownershipToken(), DEFERRED_REASON, now, now);
            LOG.info("memory stage-1 job for thread {} deferred{}: no room left in today's extraction budget of {} "
                    + "tokens", threadId, owned ? "" : " (lease lost)", limit);
        } catch (RuntimeException e) {
            LOG.warn("memory stage-1 job for thread {} found no room in the extraction budget and the store could "
                    + "not release it; the job is left to its lease", threadId, e);
        }
    }

    /**
     * A job's estimate: its input, the rollout's stored size at {@link TokenCounter#BYTES_PER_TOKEN}
     * bytes a token (or, when unknown, what one request to the model can hold) capped by
     * {@code max_extraction_tokens_per_rollout}, plus {@link #OUTPUT_ALLOWANCE_TOKENS}; at most the
     * daily limit.
     */
    long estimate(Stage1Claim claim) {
        OptionalLong size = deps.input().sizeBytes(claim.thread());
        long input = TokenCounter.tokensOfBytes(size.isPresent() ? size.getAsLong()
                : Phase1Request.budgetBytes(deps.model()));
        long capped = Math.min(input, deps.config().maxExtractionTokensPerRollout());
        return Math.max(1, Math.min(limit, capped + OUTPUT_ALLOWANCE_TOKENS));
    }
}
