package dev.mnemo;

import dev.mnemo.llm.ModelRequest;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What Phase 1 would do now, computed without calling a model or writing anything: every
 * registered thread with the reason it would or would not be claimed, and the exact extraction
 * request for the first thread that would be. See {@link MemoryAdmin#previewPhase1}.
 *
 * @param asOf the time the windows, leases and backoffs were evaluated at
 * @param candidates every registered thread, most recently updated first
 * @param firstRequest the request Phase 1 would send for the first claimable thread, if any
 */
public record Phase1Preview(Instant asOf, List<Candidate> candidates, Optional<FirstRequest> firstRequest) {

    /**
     * Checks the components and copies the candidates, unmodifiable.
     *
     * @param asOf the time the windows, leases and backoffs were evaluated at
     * @param candidates every registered thread, most recently updated first
     * @param firstRequest the request for the first claimable thread, if any
     * @throws NullPointerException when a component is null
     */
    public Phase1Preview {
        Objects.requireNonNull(asOf, "asOf");
        candidates = List.copyOf(Objects.requireNonNull(candidates, "candidates"));
        Objects.requireNonNull(firstRequest, "firstRequest");
    }

    /**
     * The candidates that would be claimed, in claim order.
     *
     * @return the candidates whose verdict is {@link Verdict#WOULD_CLAIM}; empty when none
     */
    public List<Candidate> wouldClaim() {
        return candidates.stream().filter(c -> c.verdict() == Verdict.WOULD_CLAIM).toList();
    }

    /** Why a thread would or would not be claimed, in the order Phase 1 checks. */
    public enum Verdict {
        /** Phase 1 would claim it. */
        WOULD_CLAIM,
        /** The thread is archived. */
        ARCHIVED,
        /** The thread has no real user message, so nothing to learn from. */
        NO_PREVIEW,
        /** Its source is not listed in {@code memory_sources}. */
        SOURCE_NOT_ALLOWED,
        /** Its memory mode is {@code disabled} or {@code polluted}. */
        MEMORY_MODE,
        /** It is the thread running the pipeline. */
        CURRENT_THREAD,
        /** Last updated longer ago than {@code max_rollout_age_days}. */
        TOO_OLD,
        /** Updated less than {@code min_rollout_idle_hours} ago: the session may still be going on. */
        NOT_IDLE,
        /** Past the scan limit of candidates looked at per run. */
        BEYOND_SCAN_LIMIT,
        /** Its stored memory already covers this version of the rollout. */
        UP_TO_DATE,
        /** Another worker holds a live lease on its job. */
        RUNNING,
        /** Its last attempt failed and the retry backoff has not passed. */
        RETRY_BACKOFF,
        /** Every retry for this version of the rollout failed. */
        RETRY_EXHAUSTED,
        /** Eligible, but {@code max_rollouts_per_startup} jobs are already claimed or running. */
        OVER_CLAIM_LIMIT
    }

    /**
     * One thread and its verdict.
     *
     * @param thread the registry row
     * @param verdict would it be claimed, and if not, why
     * @param detail a short human explanation with the numbers (e.g. when the idle window ends)
     */
    public record Candidate(ThreadInfo thread, Verdict verdict, String detail) {
        /**
         * Checks the components.
         *
         * @param thread the registry row
         * @param verdict would it be claimed, and if not, why
         * @param detail a short human explanation with the numbers
         * @throws NullPointerException when a component is null
         */
        public Candidate {
            Objects.requireNonNull(thread, "thread");
            Objects.requireNonNull(verdict, "verdict");
            Objects.requireNonNull(detail, "detail");
        }
    }

    /**
     * The first extraction request, exactly as Phase 1 would send it.
     *
     * @param threadId the thread it is for
     * @param request the request: instructions, the filtered, redacted and budgeted rollout, the schema
     * @param budgetBytes the input budget the rollout was fitted to
     * @param renderedBytes the size of the filtered, redacted rollout before fitting
     * @param truncated whether the rollout was shortened to fit the budget
     * @param itemsKept rollout items in the request
     * @param itemsDropped rollout items filtered out or dropped to fit
     */
    public record FirstRequest(String threadId, ModelRequest request, long budgetBytes, long renderedBytes,
            boolean truncated, int itemsKept, int itemsDropped) {
        /**
         * Checks the thread id and the request.
         *
         * @param threadId the thread it is for
         * @param request the request as Phase 1 would send it
         * @param budgetBytes the input budget the rollout was fitted to
         * @param renderedBytes the size of the filtered, redacted rollout before fitting
         * @param truncated whether the rollout was shortened to fit the budget
         * @param itemsKept rollout items in the request
         * @param itemsDropped rollout items filtered out or dropped to fit
         * @throws NullPointerException when the thread id or the request is null
         */
        public FirstRequest {
            Objects.requireNonNull(threadId, "threadId");
            Objects.requireNonNull(request, "request");
        }
    }
}
