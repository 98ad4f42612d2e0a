package dev.mnemo.store.sqlite;

import static dev.mnemo.store.sqlite.JobKinds.DEFAULT_RETRY_REMAINING;
import static dev.mnemo.store.sqlite.JobKinds.GLOBAL_KEY;
import static dev.mnemo.store.sqlite.JobKinds.PHASE2;
import static dev.mnemo.store.sqlite.JobKinds.PHASE2_SUCCESS_COOLDOWN_SECONDS;
import static dev.mnemo.store.sqlite.JobKinds.seconds;

import dev.mnemo.spi.ClaimOutcome;
import dev.mnemo.spi.JobClaim;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/** The Phase 2 singleton row: global lock, heartbeat, completions, enqueue (write-sheet §3.4, §5.1). */
final class Phase2JobQueries {

    private static final String GLOBAL_ROW = " WHERE kind = '" + PHASE2 + "' AND job_key = '" + GLOBAL_KEY + "'";
    private static final String OWNED = GLOBAL_ROW + " AND status = 'running' AND ownership_token = ?";
    private static final String OWNED_OR_UNOWNED = GLOBAL_ROW
            + " AND status = 'running' AND (ownership_token = ? OR ownership_token IS NULL)";

    private static final String ENQUEUE = "INSERT INTO jobs (kind, job_key, status, worker_id, ownership_token,"
            + " started_at, finished_at, lease_until, retry_at, retry_remaining, last_error, input_watermark,"
            + " last_success_watermark)"
            + " VALUES ('" + PHASE2 + "', '" + GLOBAL_KEY + "', 'pending', NULL, NULL, NULL, NULL, NULL, NULL, ?, NULL, ?, 0)"
            + " ON CONFLICT(kind, job_key) DO UPDATE SET"
            + " status = CASE WHEN jobs.status = 'running' THEN 'running' ELSE 'pending' END,"
            + " retry_at = CASE WHEN jobs.status = 'running' THEN jobs.retry_at ELSE NULL END,"
            + " retry_remaining = max(jobs.retry_remaining, excluded.retry_remaining),"
            + " input_watermark = CASE WHEN excluded.input_watermark > COALESCE(jobs.input_watermark, 0)"
            + " THEN excluded.input_watermark ELSE COALESCE(jobs.input_watermark, 0) + 1 END";

    /** The columns the claim decision reads. */
    private record GlobalRow(String status, Long leaseUntil, Long retryAt, Long finishedAt, String lastError,
            long inputWatermark) {
    }

    private Phase2JobQueries() {
    }

    /** Queues a consolidation; the input watermark only moves forward. */
    static void enqueue(PooledConnection connection, long inputWatermark) throws SQLException {
        Jdbc.update(connection, ENQUEUE, DEFAULT_RETRY_REMAINING, inputWatermark);
    }

    /** The global lock, checked in Codex's order: backoff, live lease, success cooldown, then a guarded take-over. */
    static JobClaim tryClaim(PooledConnection connection, String workerId, Duration lease, Instant now)
            throws SQLException {
        long nowSeconds = seconds(now);
        long leaseUntil = nowSeconds + lease.toSeconds();
        String token = UUID.randomUUID().toString();
        Optional<GlobalRow> existing = Jdbc.queryFirst(connection, "SELECT status, lease_until, retry_at,"
                + " finished_at, last_error, input_watermark FROM jobs" + GLOBAL_ROW,
                row -> new GlobalRow(row.getString("status"), Jdbc.nullableLong(row, "lease_until"),
                        Jdbc.nullableLong(row, "retry_at"), Jdbc.nullableLong(row, "finished_at"),
                        row.getString("last_error"), row.getLong("input_watermark")));
        if (existing.isEmpty()) {
            Jdbc.update(connection, "INSERT INTO jobs (kind, job_key, status, worker_id, ownership_token, started_at,"
                    + " finished_at, lease_until, retry_at, retry_remaining, last_error, input_watermark,"
                    + " last_success_watermark) VALUES (?, ?, 'running', ?, ?, ?, NULL, ?, NULL, ?, NULL, 0, 0)",
                    PHASE2, GLOBAL_KEY, workerId, token, nowSeconds, leaseUntil, DEFAULT_RETRY_REMAINING);
            return JobClaim.claimed(token, 0);
        }
        GlobalRow row = existing.get();
        if (row.retryAt() != null && row.retryAt() > nowSeconds) {
            return JobClaim.skipped(ClaimOutcome.SKIPPED_RETRY_UNAVAILABLE);
        }
        if (JobKinds.RUNNING.equals(row.status()) && row.leaseUntil() != null && row.leaseUntil() > nowSeconds) {
            return JobClaim.skipped(ClaimOutcome.SKIPPED_RUNNING);
        }
        if (row.lastError() == null && row.finishedAt() != null
                && row.finishedAt() > nowSeconds - PHASE2_SUCCESS_COOLDOWN_SECONDS) {
            return JobClaim.skipped(ClaimOutcome.SKIPPED_COOLDOWN);
        }
        int updated = Jdbc.update(connection, "UPDATE jobs SET status = 'running', worker_id = ?,"
                + " ownership_token = ?, started_at = ?, finished_at = NULL, lease_until = ?, retry_at = NULL,"
                + " last_error = NULL" + GLOBAL_ROW
                + " AND (status != 'running' OR lease_until IS NULL OR lease_until <= ?)"
                + " AND (retry_at IS NULL OR retry_at <= ?)",
                workerId, token, nowSeconds, leaseUntil, nowSeconds, nowSeconds);
        return updated > 0 ? JobClaim.claimed(token, row.inputWatermark())
                : JobClaim.skipped(ClaimOutcome.SKIPPED_RUNNING);
    }

    static boolean heartbeat(PooledConnection connection, String token, Duration lease, Instant now) throws SQLException {
        return Jdbc.update(connection, "UPDATE jobs SET lease_until = ?" + OWNED,
                seconds(now) + lease.toSeconds(), token) > 0;
    }

    static boolean markSucceeded(PooledConnection connection, String token, long completedWatermark, Instant now)
            throws SQLException {
        return Jdbc.update(connection, "UPDATE jobs SET status = 'done', finished_at = ?, lease_until = NULL,"
                + " last_error = NULL,"
                + " last_success_watermark = max(COALESCE(last_success_watermark, 0), ?)" + OWNED,
                seconds(now), completedWatermark, token) > 0;
    }

    /** Fails the owned job ({@code unownedToo}: or a running one whose token was lost). */
    static boolean markFailed(PooledConnection connection, String token, String reason, Duration retryDelay, Instant now,
            boolean unownedToo) throws SQLException {
        long nowSeconds = seconds(now);
        return Jdbc.update(connection, "UPDATE jobs SET status = 'error', finished_at = ?, lease_until = NULL,"
                + " retry_at = ?, retry_remaining = max(retry_remaining - 1, 0), last_error = ?"
                + (unownedToo ? OWNED_OR_UNOWNED : OWNED),
                nowSeconds, nowSeconds + retryDelay.toSeconds(), reason, token) > 0;
    }
}
