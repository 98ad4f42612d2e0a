package dev.mnemo.store.sqlite;

import static dev.mnemo.store.sqlite.JobKinds.DEFAULT_RETRY_REMAINING;
import static dev.mnemo.store.sqlite.JobKinds.GLOBAL_KEY;
import static dev.mnemo.store.sqlite.JobKinds.PHASE2;
import static dev.mnemo.store.sqlite.JobKinds.seconds;

import dev.mnemo.spi.ClaimOutcome;
import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.Phase2ClaimPolicy;
import java.sql.ResultSet;
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

    private static final String SELECT_ROW = "SELECT status, lease_until, retry_at, finished_at, last_error,"
            + " input_watermark FROM jobs" + GLOBAL_ROW;

    /** The row a first claim inserts before deciding: pending, nothing run yet. */
    private static final String ENSURE_ROW = "INSERT INTO jobs (kind, job_key, status, worker_id, ownership_token,"
            + " started_at, finished_at, lease_until, retry_at, retry_remaining, last_error, input_watermark,"
            + " last_success_watermark)"
            + " VALUES ('" + PHASE2 + "', '" + GLOBAL_KEY + "', 'pending', NULL, NULL, NULL, NULL, NULL, NULL, ?, NULL, 0, 0)"
            + " ON CONFLICT(kind, job_key) DO NOTHING";

    /** The global row as read for a claim: what the policy decides on, and the watermark a claim hands out. */
    private record ReadRow(Phase2ClaimPolicy.JobRow row, long inputWatermark) {
    }

    private Phase2JobQueries() {
    }

    /** Queues a consolidation; the input watermark only moves forward. */
    static void enqueue(PooledConnection connection, long inputWatermark) throws SQLException {
        Jdbc.update(connection, ENQUEUE, DEFAULT_RETRY_REMAINING, inputWatermark);
    }

    /**
     * The global lock: the row made to exist, read, decided on by {@link Phase2ClaimPolicy}, and
     * taken over only while it is still the row decided on. The caller holds the write lock.
     * {@code pastCooldown}: {@link Phase2ClaimPolicy#decidePastCooldown}, for work that must not wait.
     */
    static JobClaim tryClaim(PooledConnection connection, String workerId, Duration lease, Instant now,
            boolean pastCooldown) throws SQLException {
        Jdbc.update(connection, ENSURE_ROW, DEFAULT_RETRY_REMAINING);
        ReadRow read = Jdbc.queryFirst(connection, SELECT_ROW, Phase2JobQueries::readRow).orElseThrow();
        ClaimOutcome decision = pastCooldown ? Phase2ClaimPolicy.decidePastCooldown(read.row(), now)
                : Phase2ClaimPolicy.decide(read.row(), now);
        if (decision != ClaimOutcome.CLAIMED) {
            return JobClaim.skipped(decision);
        }
        Phase2ClaimPolicy.JobRow row = read.row();
        long nowSeconds = seconds(now);
        String token = UUID.randomUUID().toString();
        int updated = Jdbc.update(connection, "UPDATE jobs SET status = 'running', worker_id = ?,"
                + " ownership_token = ?, started_at = ?, finished_at = NULL, lease_until = ?, retry_at = NULL,"
                + " last_error = NULL" + GLOBAL_ROW
                + " AND status = ? AND lease_until IS ? AND retry_at IS ? AND finished_at IS ? AND last_error IS ?",
                workerId, token, nowSeconds, nowSeconds + lease.toSeconds(), row.status(), row.leaseUntil(),
                row.retryAt(), row.finishedAt(), row.lastError());
        return updated > 0 ? JobClaim.claimed(token, read.inputWatermark())
                : JobClaim.skipped(ClaimOutcome.SKIPPED_RUNNING);
    }

    /** The global row as {@link Phase2ClaimPolicy} reads it (for the status report too). */
    static Optional<Phase2ClaimPolicy.JobRow> row(PooledConnection connection) throws SQLException {
        return Jdbc.queryFirst(connection, SELECT_ROW, Phase2JobQueries::readRow).map(ReadRow::row);
    }

    private static ReadRow readRow(ResultSet row) throws SQLException {
        return new ReadRow(new Phase2ClaimPolicy.JobRow(row.getString("status"), Jdbc.nullableLong(row, "lease_until"),
                Jdbc.nullableLong(row, "retry_at"), Jdbc.nullableLong(row, "finished_at"), row.getString("last_error")),
                row.getLong("input_watermark"));
    }

    /** When the last consolidation succeeded, kept through later failures (V7's column). */
    static Optional<Instant> lastSuccessAt(PooledConnection connection) throws SQLException {
        return Jdbc.queryFirst(connection, "SELECT last_success_at FROM jobs" + GLOBAL_ROW,
                row -> Optional.ofNullable(Jdbc.nullableLong(row, "last_success_at")).map(Instant::ofEpochSecond)
                        .orElse(null));
    }

    static boolean heartbeat(PooledConnection connection, String token, Duration lease, Instant now) throws SQLException {
        return Jdbc.update(connection, "UPDATE jobs SET lease_until = ?" + OWNED,
                seconds(now) + lease.toSeconds(), token) > 0;
    }

    static boolean markSucceeded(PooledConnection connection, String token, long completedWatermark, Instant now)
            throws SQLException {
        return Jdbc.update(connection, "UPDATE jobs SET status = 'done', finished_at = ?, last_success_at = ?,"
                + " lease_until = NULL, last_error = NULL,"
                + " last_success_watermark = max(COALESCE(last_success_watermark, 0), ?)" + OWNED,
                seconds(now), seconds(now), completedWatermark, token) > 0;
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
