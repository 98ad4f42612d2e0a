package dev.mnemo.spi;

import dev.mnemo.MemoryMode;
import dev.mnemo.Phase1Preview.Candidate;
import dev.mnemo.Phase1Preview.Verdict;
import dev.mnemo.ThreadInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * For store authors: {@link MemoryStore#previewStage1Claims} from rows read in one snapshot. The
 * rules are the claim's (write-sheet §3.5–3.6) evaluated in Java, in Phase 1's order, with a verdict
 * and a reason for every thread, so every store explains its claims the same way.
 */
public final class Stage1ClaimPreviews {

    /**
     * The Phase 1 job row of one thread, as far as a claim cares; times in epoch seconds.
     *
     * @param status {@code running}, {@code done}, {@code error} or {@code pending}
     * @param leaseUntil the lease expiry, or null
     * @param retryAt no new attempt before this, or null
     * @param retryRemaining attempts left for this rollout version
     * @param inputWatermark the rollout version last claimed, or null
     */
    public record JobRow(String status, Long leaseUntil, Long retryAt, int retryRemaining, Long inputWatermark) {
        /**
         * Checks the row.
         *
         * @param status {@code running}, {@code done}, {@code error} or {@code pending}; not null
         * @param leaseUntil the lease expiry, or null
         * @param retryAt no new attempt before this, or null
         * @param retryRemaining attempts left for this rollout version
         * @param inputWatermark the rollout version last claimed, or null
         * @throws NullPointerException when {@code status} is null
         */
        public JobRow {
            Objects.requireNonNull(status, "status");
        }

        boolean liveLease(long nowSeconds) {
            return "running".equals(status) && leaseUntil != null && leaseUntil > nowSeconds;
        }
    }

    private Stage1ClaimPreviews() {
    }

    /**
     * Explains the claim.
     *
     * @param threads every registered thread, most recently updated first
     * @param jobs the Phase 1 job rows by thread id
     * @param upToDate the ids of threads whose stored memory (or last success) already covers
     *     their current rollout version in whole seconds
     * @param params the claim's parameters, as the claim would get them
     * @param now the current time on the engine's clock
     * @return one candidate per thread, in the order of {@code threads}, with its verdict and reason
     */
    public static List<Candidate> preview(List<ThreadInfo> threads, Map<String, JobRow> jobs,
            Set<String> upToDate, Stage1ClaimParams params, Instant now) {
        long nowSeconds = now.getEpochSecond();
        long ageCutoffMs = params.ageCutoff(now).toEpochMilli();
        int liveRunning = (int) jobs.values().stream().filter(j -> j.liveLease(nowSeconds)).count();
        List<Candidate> out = new ArrayList<>();
        int scanned = 0;
        int wouldClaim = 0;
        for (ThreadInfo thread : threads) {
            long updatedMs = thread.updatedAt().toEpochMilli();
            Verdict verdict;
            String detail;
            if (thread.archived()) {
                verdict = Verdict.ARCHIVED;
                detail = "archived";
            } else if (thread.preview().isEmpty()) {
                verdict = Verdict.NO_PREVIEW;
                detail = "no user message";
            } else if (!params.allowedSources().contains(thread.source())) {
                verdict = Verdict.SOURCE_NOT_ALLOWED;
                detail = "source '" + thread.source() + "' is not in memory_sources " + params.allowedSources();
            } else if (thread.memoryMode() != MemoryMode.ENABLED) {
                verdict = Verdict.MEMORY_MODE;
                detail = "memory mode is " + thread.memoryMode().dbValue();
            } else if (thread.id().equals(params.currentThreadId())) {
                verdict = Verdict.CURRENT_THREAD;
                detail = "the current thread is never extracted";
            } else if (updatedMs < ageCutoffMs) {
                verdict = Verdict.TOO_OLD;
                detail = "updated " + thread.updatedAt() + ", older than max_rollout_age_days=" + params.maxAgeDays();
            } else if (!params.passesIdleGate(thread, now)) {
                verdict = Verdict.NOT_IDLE;
                detail = "updated " + thread.updatedAt()
                        + thread.endedAt().map(ended -> " after it was ended at " + ended).orElse("")
                        + ", idle for min_rollout_idle_hours=" + params.minIdleHours()
                        + " only from " + Instant.ofEpochMilli(updatedMs).plus(Duration.ofHours(params.minIdleHours()));
            } else if (++scanned > params.scanLimit()) {
                verdict = Verdict.BEYOND_SCAN_LIMIT;
                detail = "past the scan limit of " + params.scanLimit() + " candidates";
            } else {
                long source = thread.updatedAt().getEpochSecond();
                JobRow job = jobs.get(thread.id());
                boolean newer = job == null || job.inputWatermark() == null || source > job.inputWatermark();
                if (upToDate.contains(thread.id())) {
                    verdict = Verdict.UP_TO_DATE;
                    detail = "its memory already covers the rollout as of " + Instant.ofEpochSecond(source);
                } else if (job != null && job.liveLease(nowSeconds)) {
                    verdict = Verdict.RUNNING;
                    detail = "running, leased until " + Instant.ofEpochSecond(job.leaseUntil());
                } else if (job != null && !newer && job.retryRemaining() <= 0) {
                    verdict = Verdict.RETRY_EXHAUSTED;
                    detail = "every retry failed for this version of the rollout";
                } else if (job != null && !newer && job.retryAt() != null && job.retryAt() > nowSeconds) {
                    verdict = Verdict.RETRY_BACKOFF;
                    detail = "last attempt failed; retry from " + Instant.ofEpochSecond(job.retryAt());
                } else if (wouldClaim >= params.maxClaimed() || liveRunning + wouldClaim >= params.maxClaimed()) {
                    verdict = Verdict.OVER_CLAIM_LIMIT;
                    detail = "max_rollouts_per_startup=" + params.maxClaimed() + " reached (" + liveRunning
                            + " running elsewhere)";
                } else {
                    wouldClaim++;
                    verdict = Verdict.WOULD_CLAIM;
                    detail = (job == null ? "new rollout" : "rollout changed since its last extraction")
                            + endedEarly(thread, params, now);
                }
            }
            out.add(new Candidate(thread, verdict, detail));
        }
        return out;
    }

    /**
     * The reason a thread inside its idle window is claimed anyway: the application ended it; empty
     * for a thread past the window, which needs no reason.
     */
    private static String endedEarly(ThreadInfo thread, Stage1ClaimParams params, Instant now) {
        if (thread.updatedAt().toEpochMilli() <= params.idleCutoff(now).toEpochMilli()) {
            return "";
        }
        return "; ended at " + thread.endedAt().orElseThrow()
                + ", so it does not wait for min_rollout_idle_hours=" + params.minIdleHours();
    }
}
