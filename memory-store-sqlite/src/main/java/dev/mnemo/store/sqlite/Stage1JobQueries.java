package dev.mnemo.store.sqlite;

import static dev.mnemo.store.sqlite.JobKinds.DEFAULT_RETRY_REMAINING;
import static dev.mnemo.store.sqlite.JobKinds.STAGE1;
import static dev.mnemo.store.sqlite.JobKinds.seconds;

import dev.mnemo.ModelFailure;
import dev.mnemo.ThreadInfo;
import dev.mnemo.llm.ModelException;
import dev.mnemo.spi.ClaimOutcome;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.Stage1Claim;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;

/** Phase 1 job rows: claim and completions (write-sheet §3.5–3.6), called inside write transactions. */
final class Stage1JobQueries {

    /** A new running job; {@link #TAKE_OVER} for a row that exists. */
    private static final String INSERT_RUNNING = "INSERT INTO jobs (kind, job_key, status, worker_id, ownership_token,"
            + " started_at, finished_at, lease_until, retry_at, retry_remaining, last_error, input_watermark,"
            + " last_success_watermark)"
            + " SELECT ?, ?, 'running', ?, ?, ?, NULL, ?, NULL, ?, NULL, ?, NULL";
    private static final String TAKE_OVER = " ON CONFLICT(kind, job_key) DO UPDATE SET status = 'running',"
            + " worker_id = excluded.worker_id,"
            + " ownership_token = excluded.ownership_token, started_at = excluded.started_at, finished_at = NULL,"
            + " lease_until = excluded.lease_until, retry_at = NULL,"
            + " retry_remaining = CASE WHEN excluded.input_watermark > COALESCE(jobs.input_watermark, -1)"
            + " THEN excluded.retry_remaining ELSE jobs.retry_remaining END,"
            + " last_error = NULL, input_watermark = excluded.input_watermark"
            + " WHERE (jobs.status != 'running' OR jobs.lease_until IS NULL OR jobs.lease_until <= excluded.started_at)"
            + " AND (jobs.retry_at IS NULL OR jobs.retry_at <= excluded.started_at"
            + " OR excluded.input_watermark > COALESCE(jobs.input_watermark, -1))"
            + " AND (jobs.retry_remaining > 0 OR excluded.input_watermark > COALESCE(jobs.input_watermark, -1))";
    /** Live leases of a kind at a time: what {@code max_running} caps. */
    private static final String LIVE_LEASES = "SELECT COUNT(*) FROM jobs WHERE kind = ? AND status = 'running'"
            + " AND lease_until IS NOT NULL AND lease_until > ?";

    /**
     * Claims the job when fewer than {@code max_running} live leases exist; an existing row is
     * taken over only when (a) no live lease holds it, (b) its backoff is over or the rollout is
     * newer, (c) it has retries left or the rollout is newer, and (d) the cap still allows it.
     * A newer rollout restores the retry budget.
     */
    private static final String CLAIM = INSERT_RUNNING + " WHERE (" + LIVE_LEASES + ") < ?" + TAKE_OVER
            + " AND (SELECT COUNT(*) FROM jobs AS other WHERE other.kind = excluded.kind"
            + " AND other.status = 'running' AND other.lease_until IS NOT NULL"
            + " AND other.lease_until > excluded.started_at AND other.job_key != excluded.job_key) < ?";

    /**
     * {@link #CLAIM} for a caller that counted the live leases in its transaction and is under the
     * cap. (Both of CLAIM's counts are that count for a row it can claim: a row it takes over holds
     * no live lease of its own.) {@code WHERE true} keeps SQLite from reading {@code ON} as a join.
     */
    private static final String CLAIM_UNDER_CAP = INSERT_RUNNING + " WHERE true" + TAKE_OVER;

    private static final String OWNED = " WHERE kind = '" + STAGE1 + "' AND job_key = ? AND status = 'running'"
            + " AND ownership_token = ?";

    private Stage1JobQueries() {
    }

    /** Up to date when the stored memory or the last success already covers this rollout version. */
    static boolean isUpToDate(PooledConnection connection, String threadId, Instant sourceUpdatedAt) throws SQLException {
        long source = seconds(sourceUpdatedAt);
        return Jdbc.queryFirst(connection, "SELECT 1 FROM stage1_outputs WHERE thread_id = ? AND source_updated_at >= ?"
                + " UNION ALL SELECT 1 FROM jobs WHERE kind = ? AND job_key = ? AND last_success_watermark >= ?",
                row -> true, threadId, source, STAGE1, threadId, source).isPresent();
    }

    static JobClaim tryClaim(PooledConnection connection, String threadId, String workerId, Instant sourceUpdatedAt,
            Duration lease, int maxRunning, Instant now) throws SQLException {
        if (isUpToDate(connection, threadId, sourceUpdatedAt)) {
            return JobClaim.skipped(ClaimOutcome.SKIPPED_UP_TO_DATE);
        }
        String token = UUID.randomUUID().toString();
        long nowSeconds = seconds(now);
        int claimed = Jdbc.update(connection, CLAIM, STAGE1, threadId, workerId, token, nowSeconds,
                nowSeconds + lease.toSeconds(), DEFAULT_RETRY_REMAINING, seconds(sourceUpdatedAt),
                STAGE1, nowSeconds, maxRunning, maxRunning);
        if (claimed > 0) {
            return JobClaim.claimed(token, 0);
        }
        return JobClaim.skipped(whyNotClaimed(connection, threadId, nowSeconds));
    }

    /**
     * Claims, in their order, the candidates that {@link #tryClaim} would claim one after another
     * in the caller's write transaction: the live leases are counted once and then kept count of,
     * where each {@link #CLAIM} counts them again.
     */
    static List<Stage1Claim> tryClaimAll(PooledConnection connection, List<ThreadInfo> candidates, String workerId,
            Duration lease, int maxRunning, Instant now) throws SQLException {
        long nowSeconds = seconds(now);
        long running = Jdbc.queryLong(connection, LIVE_LEASES, STAGE1, nowSeconds);
        List<Stage1Claim> claims = new ArrayList<>();
        for (ThreadInfo thread : candidates) {
            if (running >= maxRunning) {
                break;
            }
            Instant source = Instant.ofEpochSecond(thread.updatedAt().getEpochSecond());
            if (isUpToDate(connection, thread.id(), source)) {
                continue;
            }
            String token = UUID.randomUUID().toString();
            if (Jdbc.update(connection, CLAIM_UNDER_CAP, STAGE1, thread.id(), workerId, token, nowSeconds,
                    nowSeconds + lease.toSeconds(), DEFAULT_RETRY_REMAINING, seconds(source)) > 0) {
                claims.add(new Stage1Claim(thread, token, source));
                running++;
            }
        }
        return claims;
    }

    /**
     * Completes an owned job; a success also means the model works again, so the last model
     * failure is forgotten.
     *
     * @return false when the caller no longer owns the job
     */
    static boolean markDone(PooledConnection connection, String threadId, String token, Instant now) throws SQLException {
        boolean owned = Jdbc.update(connection, "UPDATE jobs SET status = 'done', finished_at = ?, lease_until = NULL,"
                + " last_error = NULL, last_success_watermark = input_watermark" + OWNED,
                seconds(now), threadId, token) > 0;
        if (owned) {
            clearModelFailure(connection);
        }
        return owned;
    }

    /**
     * Releases an owned job after a model failure: an error with a backoff, retries untouched, and
     * the failure kept as the last model failure.
     *
     * @return false when the caller no longer owns the job (nothing is written)
     */
    static boolean releaseAfterModelFailure(PooledConnection connection, String threadId, String token,
            ModelFailure failure, Duration retryDelay, Instant now) throws SQLException {
        long nowSeconds = seconds(now);
        boolean owned = Jdbc.update(connection, "UPDATE jobs SET status = 'error', finished_at = ?, lease_until = NULL,"
                + " retry_at = ?, last_error = ?" + OWNED,
                nowSeconds, nowSeconds + retryDelay.toSeconds(), failure.describe(), threadId, token) > 0;
        if (owned) {
            Jdbc.update(connection, "INSERT INTO model_failures (id, reason, message, failed_at) VALUES (1, ?, ?, ?)"
                    + " ON CONFLICT(id) DO UPDATE SET reason = excluded.reason, message = excluded.message,"
                    + " failed_at = excluded.failed_at",
                    failure.reason().name(), failure.message(), seconds(failure.at()));
        }
        return owned;
    }

    /**
     * Releases an owned job that was not run: pending again, claimable from {@code retryAt},
     * retries untouched, no model failure recorded.
     *
     * @return false when the caller no longer owns the job (nothing is written)
     */
    static boolean defer(PooledConnection connection, String threadId, String token, String reason, Instant retryAt,
            Instant now) throws SQLException {
        return Jdbc.update(connection, "UPDATE jobs SET status = 'pending', finished_at = ?, lease_until = NULL,"
                + " retry_at = ?, last_error = ?" + OWNED, seconds(now), seconds(retryAt), reason, threadId, token) > 0;
    }

    /**
     * Forgets the last model failure. The row is named: an unqualified {@code DELETE} is SQLite's
     * table truncation, which rewrites the table's root page even when it is empty, and this runs
     * in every Phase 1 success.
     */
    static void clearModelFailure(PooledConnection connection) throws SQLException {
        Jdbc.update(connection, "DELETE FROM model_failures WHERE id = 1");
    }

    /** The last model failure, while no Phase 1 job has succeeded since. */
    static Optional<ModelFailure> lastModelFailure(PooledConnection connection) throws SQLException {
        return Jdbc.queryFirst(connection, "SELECT reason, message, failed_at FROM model_failures WHERE id = 1",
                row -> new ModelFailure(reason(row.getString("reason")), row.getString("message"),
                        JobKinds.fromSeconds(row.getLong("failed_at"))));
    }

    /** A stored reason; one this version does not know (written by a newer one) reads as UNKNOWN. */
    private static ModelException.Reason reason(String name) {
        try {
            return ModelException.Reason.valueOf(name);
        } catch (IllegalArgumentException e) {
            return ModelException.Reason.UNKNOWN;
        }
    }

    static OptionalLong inputWatermark(PooledConnection connection, String threadId) throws SQLException {
        return Jdbc.queryFirst(connection, "SELECT input_watermark FROM jobs WHERE kind = ? AND job_key = ?",
                row -> Jdbc.nullableLong(row, "input_watermark"), STAGE1, threadId)
                .map(OptionalLong::of)
                .orElse(OptionalLong.empty());
    }

    static boolean markFailed(PooledConnection connection, String threadId, String token, String reason,
            Duration retryDelay, Instant now) throws SQLException {
        long nowSeconds = seconds(now);
        return Jdbc.update(connection, "UPDATE jobs SET status = 'error', finished_at = ?, lease_until = NULL,"
                + " retry_at = ?, retry_remaining = retry_remaining - 1, last_error = ?" + OWNED,
                nowSeconds, nowSeconds + retryDelay.toSeconds(), reason, threadId, token) > 0;
    }

    static void delete(PooledConnection connection, String threadId) throws SQLException {
        Jdbc.update(connection, "DELETE FROM jobs WHERE kind = ? AND job_key = ?", STAGE1, threadId);
    }

    /** Codex's order: exhausted, backing off, otherwise running (a live lease or the global cap). */
    private static ClaimOutcome whyNotClaimed(PooledConnection connection, String threadId, long nowSeconds)
            throws SQLException {
        return Jdbc.queryFirst(connection, "SELECT retry_remaining, retry_at FROM jobs WHERE kind = ? AND job_key = ?",
                row -> {
                    Long retryAt = Jdbc.nullableLong(row, "retry_at");
                    if (row.getInt("retry_remaining") <= 0) {
                        return ClaimOutcome.SKIPPED_RETRY_EXHAUSTED;
                    }
                    if (retryAt != null && retryAt > nowSeconds) {
                        return ClaimOutcome.SKIPPED_RETRY_BACKOFF;
                    }
                    return ClaimOutcome.SKIPPED_RUNNING;
                }, STAGE1, threadId).orElse(ClaimOutcome.SKIPPED_RUNNING);
    }
}
