package dev.mnemo.store.sqlite;

import static dev.mnemo.store.sqlite.JobKinds.STAGE1;

import dev.mnemo.Phase1Preview.Candidate;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.Stage1ClaimParams;
import dev.mnemo.spi.Stage1ClaimPreviews;
import dev.mnemo.spi.Stage1ClaimPreviews.JobRow;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Explains {@link SqliteMemoryStore#claimStage1Jobs} without claiming: the rows of one read
 * snapshot handed to {@link Stage1ClaimPreviews}, which applies the claim's rules in Java.
 */
final class Stage1ClaimPreview {

    private Stage1ClaimPreview() {
    }

    static List<Candidate> preview(PooledConnection connection, Stage1ClaimParams params, Instant now) throws SQLException {
        List<ThreadInfo> threads = ThreadQueries.all(connection);
        Set<String> upToDate = new HashSet<>();
        for (ThreadInfo thread : threads) {
            if (Stage1JobQueries.isUpToDate(connection, thread.id(),
                    Instant.ofEpochSecond(thread.updatedAt().getEpochSecond()))) {
                upToDate.add(thread.id());
            }
        }
        return Stage1ClaimPreviews.preview(threads, jobRows(connection), upToDate, params, now);
    }

    private static Map<String, JobRow> jobRows(PooledConnection connection) throws SQLException {
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
