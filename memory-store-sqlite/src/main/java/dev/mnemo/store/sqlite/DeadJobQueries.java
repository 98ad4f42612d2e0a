package dev.mnemo.store.sqlite;

import static dev.mnemo.store.sqlite.JobKinds.DEFAULT_RETRY_REMAINING;
import static dev.mnemo.store.sqlite.JobKinds.STAGE1;
import static dev.mnemo.store.sqlite.JobKinds.fromSeconds;
import static dev.mnemo.store.sqlite.JobKinds.seconds;

import dev.mnemo.DeadJob;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Dead Phase 1 jobs ({@link dev.mnemo.spi.Stage1Store#deadStage1Jobs}): listed, counted and put
 * back. {@link #DEAD} is the claim's retry rule turned round: the claim refuses a row with no retry
 * left unless the rollout is newer ({@link Stage1JobQueries}), so a failed row with none left whose
 * enabled thread has no newer version is one no claim will ever take.
 */
final class DeadJobQueries {

    /** A thread's rollout version in whole seconds, as the claim compares it (floor division of the millis). */
    private static final String THREAD_VERSION = "(t.updated_at_ms - ((t.updated_at_ms % 1000) + 1000) % 1000) / 1000";

    /** The rows of {@code jobs} that are dead Phase 1 jobs. */
    private static final String DEAD = "jobs.kind = '" + STAGE1 + "' AND jobs.status = 'error'"
            + " AND jobs.retry_remaining <= 0 AND jobs.input_watermark IS NOT NULL"
            + " AND EXISTS (SELECT 1 FROM threads t WHERE t.id = jobs.job_key AND t.memory_mode = 'enabled'"
            + " AND " + THREAD_VERSION + " <= jobs.input_watermark)";

    /** Back to pending, claimable at once with a full retry budget; the last error stays for the record. */
    private static final String PUT_BACK = "UPDATE jobs SET status = 'pending', retry_at = NULL, retry_remaining = ?";

    private DeadJobQueries() {
    }

    private static final String COLUMNS = "SELECT job_key, COALESCE(last_error, ''), COALESCE(finished_at, 0),"
            + " retry_remaining FROM jobs WHERE " + DEAD;

    static List<DeadJob> list(PooledConnection connection, int limit) throws SQLException {
        return Jdbc.query(connection, COLUMNS + " ORDER BY finished_at DESC, job_key LIMIT ?", DeadJobQueries::map,
                limit);
    }

    static Optional<DeadJob> find(PooledConnection connection, String threadId) throws SQLException {
        return Jdbc.queryFirst(connection, COLUMNS + " AND jobs.job_key = ?", DeadJobQueries::map, threadId);
    }

    private static DeadJob map(ResultSet row) throws SQLException {
        return new DeadJob(row.getString(1), row.getString(2), fromSeconds(row.getLong(3)),
                Math.max(0, DEFAULT_RETRY_REMAINING - row.getInt(4)));
    }

    static int count(PooledConnection connection) throws SQLException {
        return (int) Jdbc.queryLong(connection, "SELECT COUNT(*) FROM jobs WHERE " + DEAD);
    }

    /** Puts back the thread's job if its last attempt failed and it spent a retry or still waits out a delay. */
    static boolean retry(PooledConnection connection, String threadId, Instant now) throws SQLException {
        return Jdbc.update(connection, PUT_BACK + " WHERE kind = ? AND job_key = ? AND status = 'error'"
                + " AND (retry_remaining < ? OR (retry_at IS NOT NULL AND retry_at > ?))",
                DEFAULT_RETRY_REMAINING, STAGE1, threadId, DEFAULT_RETRY_REMAINING, seconds(now)) > 0;
    }

    static int retryDead(PooledConnection connection) throws SQLException {
        return Jdbc.update(connection, PUT_BACK + " WHERE " + DEAD, DEFAULT_RETRY_REMAINING);
    }
}
