package dev.mnemo.postgres;

import dev.mnemo.DeadJob;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Dead Phase 1 jobs of one tenant ({@link dev.mnemo.spi.Stage1Store#deadStage1Jobs}): listed,
 * counted and put back, through the tenant-scoped {@code jobs} view, so one tenant's retries never
 * touch another's rows. What "dead" means is written once, in {@code state.sql}.
 */
final class DeadJobRows {

    private DeadJobRows() {
    }

    static List<DeadJob> list(Tx tx, int limit) throws SQLException {
        return tx.query("stage1.dead", DeadJobRows::map, limit);
    }

    static Optional<DeadJob> find(Tx tx, String threadId) throws SQLException {
        return tx.first("stage1.deadOne", DeadJobRows::map, threadId);
    }

    private static DeadJob map(ResultSet row) throws SQLException {
        return new DeadJob(row.getString(1), row.getString(2), Instant.ofEpochSecond(row.getLong(3)),
                Math.max(0, JobRows.DEFAULT_RETRY_REMAINING - row.getInt(4)));
    }

    static int count(Tx tx) throws SQLException {
        return (int) tx.queryLong("stage1.deadCount");
    }

    static boolean retry(Tx tx, String threadId, Instant now) throws SQLException {
        return tx.update("stage1.retry", JobRows.DEFAULT_RETRY_REMAINING, threadId, JobRows.DEFAULT_RETRY_REMAINING,
                now.getEpochSecond()) > 0;
    }

    static int retryDead(Tx tx) throws SQLException {
        return tx.update("stage1.retryDead", JobRows.DEFAULT_RETRY_REMAINING);
    }
}
