package dev.mnemo.postgres;

import dev.mnemo.Phase1Preview.Candidate;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.Stage1ClaimParams;
import dev.mnemo.spi.Stage1ClaimPreviews;
import dev.mnemo.spi.Stage1ClaimPreviews.JobRow;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Explains {@link PostgresStage1Store#claimStage1Jobs} without claiming: one tenant's rows of one
 * read snapshot handed to {@link Stage1ClaimPreviews}.
 */
final class Stage1ClaimPreview {

    private Stage1ClaimPreview() {
    }

    static List<Candidate> preview(Tx tx, Stage1ClaimParams params, Instant now) throws SQLException {
        List<ThreadInfo> threads = ThreadRows.all(tx);
        Set<String> upToDate = Set.copyOf(tx.query("thread.upToDateIds", row -> row.getString(1)));
        Map<String, JobRow> jobs = new HashMap<>();
        tx.query("stage1.jobRows", row -> jobs.put(row.getString("job_key"), new JobRow(row.getString("status"),
                Tx.nullableLong(row, "lease_until"), Tx.nullableLong(row, "retry_at"), row.getInt("retry_remaining"),
                Tx.nullableLong(row, "input_watermark"))));
        return Stage1ClaimPreviews.preview(threads, jobs, upToDate, params, now);
    }
}
