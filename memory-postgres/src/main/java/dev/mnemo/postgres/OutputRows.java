package dev.mnemo.postgres;

import dev.mnemo.spi.FairSelection;
import dev.mnemo.spi.Phase2SelectionParams;
import dev.mnemo.spi.SelectedInput;
import dev.mnemo.spi.Stage1Output;
import dev.mnemo.spi.Stage1Result;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.Optional;

/**
 * The {@code stage1_outputs} view of one tenant (times in epoch seconds), joined with its thread's
 * rollout path, folder and branch; the project is the memory's own column, not the thread's.
 */
final class OutputRows {

    private OutputRows() {
    }

    static Optional<Stage1Output> find(Tx tx, String threadId) throws SQLException {
        return tx.first("output.find", OutputRows::map, threadId);
    }

    /** @return rows written: 0 when a newer version is stored or the thread is polluted */
    static int upsert(Tx tx, String threadId, Instant sourceUpdatedAt, Stage1Result result, boolean awaitingApproval,
            Instant now) throws SQLException {
        return tx.update("output.upsert", threadId, sourceUpdatedAt.getEpochSecond(), result.rawMemory(),
                result.rolloutSummary(), result.rolloutSlug().orElse(null), now.getEpochSecond(),
                awaitingApproval ? 1 : 0, threadId);
    }

    /** The memories awaiting approval, whatever their thread's mode, oldest {@code generated_at} first. */
    static List<Stage1Output> awaitingApproval(Tx tx) throws SQLException {
        return tx.query("output.awaitingApproval", OutputRows::map);
    }

    /** Approves the thread's memory if it is still that version and awaiting; @return whether it was. */
    static boolean approve(Tx tx, String threadId, Instant sourceUpdatedAt) throws SQLException {
        return tx.update("output.approve", threadId, sourceUpdatedAt.getEpochSecond()) > 0;
    }

    /**
     * Deletes a thread's memory.
     *
     * @return empty when there was none, else whether it was in the last consolidation
     */
    static Optional<Boolean> delete(Tx tx, String threadId) throws SQLException {
        return tx.first("output.delete", row -> row.getInt(1) != 0, threadId);
    }

    /**
     * Deletes the thread's memory; when it was in the last consolidation, Phase 2 is queued so the
     * workspace forgets it too.
     *
     * @return whether a memory was deleted
     */
    static boolean forget(Tx tx, String threadId, Instant now) throws SQLException {
        Optional<Boolean> forgotten = delete(tx, threadId);
        if (forgotten.orElse(false)) {
            JobRows.enqueuePhase2(tx, now.getEpochSecond());
        }
        return forgotten.isPresent();
    }

    static int deleteAll(Tx tx) throws SQLException {
        return tx.update("output.deleteAll");
    }

    static int count(Tx tx) throws SQLException {
        return (int) tx.queryLong("output.count");
    }

    static int countUnused(Tx tx, int maxUnusedDays, Instant now) throws SQLException {
        long cutoff = now.getEpochSecond() - Duration.ofDays(Math.max(maxUnusedDays, 0)).toSeconds();
        return (int) tx.queryLong("output.countUnused", cutoff);
    }

    static List<Stage1Output> listForGlobal(Tx tx, int limit) throws SQLException {
        return limit <= 0 ? List.of() : tx.query("output.listForGlobal", OutputRows::map, limit);
    }

    /** Write-sheet §5.3's selection in one statement, sorted by thread id. */
    static List<Stage1Output> phase2Selection(Tx tx, int limit, int maxUnusedDays, Instant now) throws SQLException {
        if (limit <= 0) {
            return List.of();
        }
        long cutoff = now.getEpochSecond() - Duration.ofDays(Math.max(maxUnusedDays, 0)).toSeconds();
        return tx.query("output.phase2Selection", OutputRows::map, cutoff, cutoff, limit).stream()
                .sorted(Comparator.comparing(Stage1Output::threadId)).toList();
    }

    /**
     * The {@code FAIR} selection: the ranking columns of every memory {@link #phase2Selection} may
     * take, {@link FairSelection}'s rule over them, then the chosen rows, in the caller's transaction;
     * sorted by thread id.
     */
    static List<Stage1Output> fairSelection(Tx tx, Phase2SelectionParams params, Instant now) throws SQLException {
        if (params.limit() == 0) {
            return List.of();
        }
        long cutoff = now.getEpochSecond() - Duration.ofDays(params.maxUnusedDays()).toSeconds();
        List<FairSelection.Candidate> candidates = tx.query("output.phase2Candidates", OutputRows::candidate, cutoff,
                cutoff);
        List<Stage1Output> chosen = new ArrayList<>();
        for (FairSelection.Candidate candidate : FairSelection.select(params, candidates, now)) {
            find(tx, candidate.threadId()).ifPresent(chosen::add);
        }
        chosen.sort(Comparator.comparing(Stage1Output::threadId));
        return chosen;
    }

    private static FairSelection.Candidate candidate(ResultSet row) throws SQLException {
        Long lastUsage = Tx.nullableLong(row, "last_usage");
        return new FairSelection.Candidate(row.getString("thread_id"), row.getInt("usage_count"),
                Optional.ofNullable(lastUsage).map(Instant::ofEpochSecond),
                Instant.ofEpochSecond(row.getLong("source_updated_at")), row.getBoolean("ever_selected"));
    }

    /** Clears every selection flag, then marks exactly the given versions. */
    static void replaceSelection(Tx tx, List<SelectedInput> selected) throws SQLException {
        tx.update("output.clearSelection");
        for (SelectedInput input : selected) {
            long version = input.sourceUpdatedAt().getEpochSecond();
            tx.update("output.select", version, input.threadId(), version);
        }
    }

    /** One citation per id; unknown ids are ignored. */
    static int recordUsage(Tx tx, List<String> threadIds, Instant now) throws SQLException {
        int updated = 0;
        for (String threadId : threadIds) {
            updated += tx.update("output.recordUsage", now.getEpochSecond(), threadId);
        }
        return updated;
    }

    static int prune(Tx tx, int maxUnusedDays, int limit, Instant now) throws SQLException {
        if (limit <= 0) {
            return 0;
        }
        long cutoff = now.getEpochSecond() - Duration.ofDays(Math.max(maxUnusedDays, 0)).toSeconds();
        return tx.update("output.prune", cutoff, limit);
    }

    /** {@link #prune}, sparing the threads in {@code keep}. */
    static int prune(Tx tx, int maxUnusedDays, int limit, Instant now, Set<String> keep)
            throws SQLException {
        if (limit <= 0) {
            return 0;
        }
        long cutoff = now.getEpochSecond() - Duration.ofDays(Math.max(maxUnusedDays, 0)).toSeconds();
        int deleted = 0;
        for (String threadId : tx.query("output.pruneCandidates", row -> row.getString(1), cutoff,
                (long) limit + keep.size())) {
            if (deleted == limit) {
                break;
            }
            if (!keep.contains(threadId)) {
                deleted += tx.update("output.pruneOne", threadId);
            }
        }
        return deleted;
    }

    /** A row holding the columns of {@code output.find}, read by name. */
    private static Stage1Output map(ResultSet row) throws SQLException {
        Long lastUsage = Tx.nullableLong(row, "last_usage");
        Long snapshot = Tx.nullableLong(row, "selected_for_phase2_source_updated_at");
        boolean selected = row.getInt("selected_for_phase2") != 0;
        String cwd = row.getString("cwd");
        Stage1Result result = new Stage1Result(row.getString("raw_memory"), row.getString("rollout_summary"),
                Optional.ofNullable(row.getString("rollout_slug")));
        return new Stage1Output(row.getString("thread_id"), Instant.ofEpochSecond(row.getLong("source_updated_at")),
                result, Instant.ofEpochSecond(row.getLong("generated_at")), row.getInt("usage_count"),
                Optional.ofNullable(lastUsage).map(Instant::ofEpochSecond),
                selected ? Optional.ofNullable(snapshot).map(Instant::ofEpochSecond) : Optional.empty(),
                Path.of(row.getString("rollout_path")), Optional.ofNullable(cwd).map(Path::of),
                Optional.ofNullable(row.getString("git_branch")), Optional.ofNullable(row.getString("project")));
    }
}
