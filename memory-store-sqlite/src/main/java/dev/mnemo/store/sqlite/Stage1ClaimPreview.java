package dev.mnemo.store.sqlite;

import static dev.mnemo.store.sqlite.JobKinds.STAGE1;
import static dev.mnemo.store.sqlite.JobKinds.seconds;

import dev.mnemo.MemoryMode;
import dev.mnemo.Phase1Preview;
import dev.mnemo.Phase1Preview.Candidate;
import dev.mnemo.Phase1Preview.Verdict;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.Stage1ClaimParams;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Explains {@link SqliteMemoryStore#claimStage1Jobs} without claiming: the same filters as
 * {@link ThreadQueries#claimCandidates} and the same job-row rules as {@link Stage1JobQueries},
 * evaluated in Java over one read snapshot, with a verdict and a reason for every thread.
 */
final class Stage1ClaimPreview {

    /** The Phase 1 job row of one thread, as far as a claim cares. */
    private record JobRow(String status, Long leaseUntil, Long retryAt, int retryRemaining, Long inputWatermark) {
        boolean liveLease(long nowSeconds) {
            return "running".equals(status) && leaseUntil != null && leaseUntil > nowSeconds;
        }
    }

    private Stage1ClaimPreview() {
    }

    static List<Candidate> preview(Connection connection, Stage1ClaimParams params, Instant now) throws SQLException {
        long nowSeconds = seconds(now);
        long nowMs = now.toEpochMilli();
        long ageCutoffMs = nowMs - Duration.ofDays(Math.max(params.maxAgeDays(), 0)).toMillis();
        long idleCutoffMs = nowMs - Duration.ofHours(Math.max(params.minIdleHours(), 0)).toMillis();
        Map<String, JobRow> jobs = jobRows(connection);
        int liveRunning = (int) jobs.values().stream().filter(j -> j.liveLease(nowSeconds)).count();
        List<Candidate> out = new ArrayList<>();
        int scanned = 0;
        int wouldClaim = 0;
        for (ThreadInfo thread : ThreadQueries.all(connection)) {
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
            } else if (updatedMs > idleCutoffMs) {
                verdict = Verdict.NOT_IDLE;
                detail = "updated " + thread.updatedAt() + ", idle for min_rollout_idle_hours=" + params.minIdleHours()
                        + " only from " + Instant.ofEpochMilli(updatedMs).plus(Duration.ofHours(params.minIdleHours()));
            } else if (++scanned > params.scanLimit()) {
                verdict = Verdict.BEYOND_SCAN_LIMIT;
                detail = "past the scan limit of " + params.scanLimit() + " candidates";
            } else {
                long source = thread.updatedAt().getEpochSecond();
                JobRow job = jobs.get(thread.id());
                boolean newer = job == null || job.inputWatermark() == null || source > job.inputWatermark();
                if (Stage1JobQueries.isUpToDate(connection, thread.id(), Instant.ofEpochSecond(source))) {
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
                    detail = job == null ? "new rollout" : "rollout changed since its last extraction";
                }
            }
            out.add(new Candidate(thread, verdict, detail));
        }
        return out;
    }

    private static Map<String, JobRow> jobRows(Connection connection) throws SQLException {
        Map<String, JobRow> rows = new HashMap<>();
        for (var entry : Jdbc.query(connection, "SELECT job_key, status, lease_until, retry_at, retry_remaining,"
                + " input_watermark FROM jobs WHERE kind = ?", row -> Map.entry(row.getString("job_key"),
                new JobRow(row.getString("status"), Jdbc.nullableLong(row, "lease_until"),
                        Jdbc.nullableLong(row, "retry_at"), row.getInt("retry_remaining"),
                        Jdbc.nullableLong(row, "input_watermark"))), STAGE1)) {
            rows.put(entry.getKey(), entry.getValue());
        }
        return rows;
    }
}
