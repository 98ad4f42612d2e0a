package dev.mnemo.store.sqlite;

import static dev.mnemo.store.sqlite.JobKinds.fromSeconds;
import static dev.mnemo.store.sqlite.JobKinds.seconds;

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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code stage1_outputs} table (times in epoch seconds), hydrated with its thread's rollout
 * path, folder and branch; the project is the memory's own column, not the thread's.
 */
final class Stage1OutputQueries {

    private static final Logger LOG = LoggerFactory.getLogger(Stage1OutputQueries.class);

    /** The columns {@link #map} reads, in this order (it reads them by position). */
    private static final String SELECT = "SELECT so.thread_id, so.source_updated_at, so.raw_memory,"
            + " so.rollout_summary, so.rollout_slug, so.generated_at, so.usage_count, so.last_usage,"
            + " so.selected_for_phase2, so.selected_for_phase2_source_updated_at,"
            + " t.rollout_path, t.cwd, t.git_branch, so.project"
            + " FROM stage1_outputs so JOIN threads t ON t.id = so.thread_id";

    /**
     * The memories consolidation may use ({@code so} and {@code t} joined): of an enabled thread,
     * approved, and not empty. Phase 2's selection, the list for global and the unused count share it.
     */
    private static final String USABLE = "t.memory_mode = 'enabled' AND so.awaiting_approval = 0"
            + " AND (length(trim(so.raw_memory)) > 0 OR length(trim(so.rollout_summary)) > 0)";

    /**
     * {@link #USABLE} memories still inside the {@code max_unused_days} window (binds: the cutoff,
     * twice): the memories Phase 2 may select, under either policy.
     */
    private static final String ELIGIBLE = USABLE
            + " AND ((so.last_usage IS NOT NULL AND so.last_usage >= ?)"
            + " OR (so.last_usage IS NULL AND so.source_updated_at >= ?))";

    /**
     * Writes a memory unless a newer version is stored or the thread is polluted (it may have been
     * polluted while the job ran), with the project the thread row has now: the project the memory
     * was extracted under, kept when the thread moves later, and awaiting approval or not as given
     * (a new version of an approved memory may wait again). Usage and selection columns are left as
     * they are.
     */
    private static final String UPSERT = "INSERT INTO stage1_outputs (thread_id, source_updated_at, raw_memory,"
            + " rollout_summary, rollout_slug, generated_at, awaiting_approval, project)"
            + " SELECT ?, ?, ?, ?, ?, ?, ?, t.project FROM threads t WHERE t.id = ? AND t.memory_mode != 'polluted'"
            + " ON CONFLICT(thread_id) DO UPDATE SET source_updated_at = excluded.source_updated_at,"
            + " raw_memory = excluded.raw_memory, rollout_summary = excluded.rollout_summary,"
            + " rollout_slug = excluded.rollout_slug, generated_at = excluded.generated_at,"
            + " awaiting_approval = excluded.awaiting_approval, project = excluded.project"
            + " WHERE excluded.source_updated_at >= stage1_outputs.source_updated_at";

    /** What deleting a thread's memory found. */
    record Forgotten(boolean deleted, boolean wasSelected) {
    }

    private Stage1OutputQueries() {
    }

    static Optional<Stage1Output> find(PooledConnection connection, String threadId) throws SQLException {
        return Jdbc.queryFirst(connection, SELECT + " WHERE so.thread_id = ?", Stage1OutputQueries::map, threadId);
    }

    /** @return rows written: 0 when a newer version is stored or the thread is polluted */
    static int upsert(PooledConnection connection, String threadId, Instant sourceUpdatedAt, Stage1Result result,
            boolean awaitingApproval, Instant now) throws SQLException {
        return Jdbc.update(connection, UPSERT, threadId, seconds(sourceUpdatedAt), result.rawMemory(),
                result.rolloutSummary(), result.rolloutSlug().orElse(null), seconds(now), awaitingApproval ? 1 : 0,
                threadId);
    }

    /** The memories awaiting approval, whatever their thread's mode, oldest {@code generated_at} first. */
    static List<Stage1Output> awaitingApproval(PooledConnection connection) throws SQLException {
        return Jdbc.query(connection, SELECT + " WHERE so.awaiting_approval != 0"
                + " ORDER BY so.generated_at ASC, so.thread_id ASC", Stage1OutputQueries::map);
    }

    /** Approves the thread's memory if it is still that version and awaiting; @return whether it was. */
    static boolean approve(PooledConnection connection, String threadId, Instant sourceUpdatedAt) throws SQLException {
        return Jdbc.update(connection, "UPDATE stage1_outputs SET awaiting_approval = 0"
                + " WHERE thread_id = ? AND source_updated_at = ? AND awaiting_approval != 0",
                threadId, seconds(sourceUpdatedAt)) > 0;
    }

    /** Deletes a thread's memory, reporting whether it was part of the last consolidation. */
    static Forgotten delete(PooledConnection connection, String threadId) throws SQLException {
        boolean selected = Jdbc.queryLong(connection,
                "SELECT selected_for_phase2 FROM stage1_outputs WHERE thread_id = ?", threadId) != 0;
        boolean deleted = Jdbc.update(connection, "DELETE FROM stage1_outputs WHERE thread_id = ?", threadId) > 0;
        return new Forgotten(deleted, deleted && selected);
    }

    /**
     * Deletes the thread's memory; when it was in the last consolidation, Phase 2 is queued so the
     * workspace forgets it too.
     *
     * @return whether a memory was deleted
     */
    static boolean forget(PooledConnection connection, String threadId, Instant now) throws SQLException {
        Forgotten forgotten = delete(connection, threadId);
        if (forgotten.wasSelected()) {
            Phase2JobQueries.enqueue(connection, seconds(now));
            LOG.info("thread {} was in the last consolidation; Phase 2 is queued to forget it", threadId);
        }
        return forgotten.deleted();
    }

    static void deleteAll(PooledConnection connection) throws SQLException {
        Jdbc.update(connection, "DELETE FROM stage1_outputs");
    }

    static int count(PooledConnection connection) throws SQLException {
        return (int) Jdbc.queryLong(connection, "SELECT COUNT(*) FROM stage1_outputs");
    }

    /**
     * The {@link #USABLE} memories that {@link #phase2Selection} leaves out because their last use
     * (or, never used, their rollout update) is older than {@code maxUnusedDays}. A memory awaiting
     * approval is not counted: it is left out for that, not for being unused.
     */
    static int countUnused(PooledConnection connection, int maxUnusedDays, Instant now) throws SQLException {
        long cutoff = seconds(now) - Duration.ofDays(Math.max(maxUnusedDays, 0)).toSeconds();
        return (int) Jdbc.queryLong(connection, "SELECT COUNT(*) FROM stage1_outputs so JOIN threads t"
                + " ON t.id = so.thread_id WHERE " + USABLE
                + " AND COALESCE(so.last_usage, so.source_updated_at) < ?", cutoff);
    }

    /** Codex's {@code list_stage1_outputs_for_global} over {@link #USABLE} memories, newest first. */
    static List<Stage1Output> listForGlobal(PooledConnection connection, int limit) throws SQLException {
        if (limit <= 0) {
            return List.of();
        }
        return Jdbc.query(connection, SELECT + " WHERE " + USABLE
                + " ORDER BY so.source_updated_at DESC, so.thread_id DESC LIMIT ?", Stage1OutputQueries::map, limit);
    }

    /**
     * Codex's Phase 2 selection (write-sheet §5.3) as one statement, hence one snapshot: the top
     * {@code limit} by usage, recency of use and of the rollout, among {@link #USABLE} memories
     * still inside the {@code maxUnusedDays} window; sorted by thread id.
     */
    static List<Stage1Output> phase2Selection(PooledConnection connection, int limit, int maxUnusedDays, Instant now)
            throws SQLException {
        if (limit <= 0) {
            return List.of();
        }
        long cutoff = seconds(now) - Duration.ofDays(Math.max(maxUnusedDays, 0)).toSeconds();
        // CROSS JOIN keeps stage1_outputs the outer loop, so the rank index (V2) serves the ORDER BY
        // and the scan stops after `limit` rows instead of sorting every memory.
        List<Stage1Output> ranked = Jdbc.query(connection, SELECT.replace(" JOIN threads t", " CROSS JOIN threads t")
                + " WHERE " + ELIGIBLE
                + " ORDER BY COALESCE(so.usage_count, 0) DESC, COALESCE(so.last_usage, so.source_updated_at) DESC,"
                + " so.source_updated_at DESC, so.thread_id DESC LIMIT ?",
                Stage1OutputQueries::map, cutoff, cutoff, limit);
        return ranked.stream().sorted(Comparator.comparing(Stage1Output::threadId)).toList();
    }

    /**
     * The {@code FAIR} selection: the ranking columns of every {@link #ELIGIBLE} memory, the rule of
     * {@link FairSelection} over them, then the chosen rows; all on one connection, inside the
     * caller's read transaction. Sorted by thread id. Unlike Codex's selection it reads every eligible
     * memory's ranking columns (a decayed count has no index to walk).
     */
    static List<Stage1Output> fairSelection(PooledConnection connection, Phase2SelectionParams params, Instant now)
            throws SQLException {
        if (params.limit() == 0) {
            return List.of();
        }
        long cutoff = seconds(now) - Duration.ofDays(params.maxUnusedDays()).toSeconds();
        List<FairSelection.Candidate> candidates = Jdbc.query(connection, "SELECT so.thread_id,"
                + " COALESCE(so.usage_count, 0), so.last_usage, so.source_updated_at,"
                + " so.selected_for_phase2 != 0 OR EXISTS (SELECT 1 FROM consolidated_threads c"
                + " WHERE c.thread_id = so.thread_id)"
                + " FROM stage1_outputs so JOIN threads t ON t.id = so.thread_id WHERE " + ELIGIBLE,
                Stage1OutputQueries::candidate, cutoff, cutoff);
        List<Stage1Output> chosen = new ArrayList<>();
        for (FairSelection.Candidate candidate : FairSelection.select(params, candidates, now)) {
            find(connection, candidate.threadId()).ifPresent(chosen::add);
        }
        chosen.sort(Comparator.comparing(Stage1Output::threadId));
        return chosen;
    }

    private static FairSelection.Candidate candidate(ResultSet row) throws SQLException {
        long lastUsage = row.getLong(3);
        boolean hasLastUsage = !row.wasNull();
        return new FairSelection.Candidate(row.getString(1), row.getInt(2),
                hasLastUsage ? Optional.of(fromSeconds(lastUsage)) : Optional.empty(), fromSeconds(row.getLong(4)),
                row.getInt(5) != 0);
    }

    /** Clears every selection flag, then marks exactly the given versions (a refreshed row stays unmarked). */
    static void replaceSelection(PooledConnection connection, List<SelectedInput> selected) throws SQLException {
        Jdbc.update(connection, "UPDATE stage1_outputs SET selected_for_phase2 = 0,"
                + " selected_for_phase2_source_updated_at = NULL"
                + " WHERE selected_for_phase2 != 0 OR selected_for_phase2_source_updated_at IS NOT NULL");
        for (SelectedInput input : selected) {
            long version = seconds(input.sourceUpdatedAt());
            Jdbc.update(connection, "UPDATE stage1_outputs SET selected_for_phase2 = 1,"
                    + " selected_for_phase2_source_updated_at = ? WHERE thread_id = ? AND source_updated_at = ?",
                    version, input.threadId(), version);
        }
    }

    /** One citation per id; unknown ids are ignored. */
    static int recordUsage(PooledConnection connection, List<String> threadIds, Instant now) throws SQLException {
        int updated = 0;
        for (String threadId : threadIds) {
            updated += Jdbc.update(connection, "UPDATE stage1_outputs SET usage_count = COALESCE(usage_count, 0) + 1,"
                    + " last_usage = ? WHERE thread_id = ?", seconds(now), threadId);
        }
        return updated;
    }

    /**
     * Codex's retention prune (write-sheet §6): stale, unselected rows, oldest first. A memory
     * awaiting approval is never pruned: it waits for a person's decision, not for a citation.
     */
    static int prune(PooledConnection connection, int maxUnusedDays, int limit, Instant now) throws SQLException {
        if (limit <= 0) {
            return 0;
        }
        long cutoff = seconds(now) - Duration.ofDays(Math.max(maxUnusedDays, 0)).toSeconds();
        return Jdbc.update(connection, "DELETE FROM stage1_outputs WHERE thread_id IN ("
                + " SELECT thread_id FROM stage1_outputs WHERE selected_for_phase2 = 0 AND awaiting_approval = 0"
                + " AND COALESCE(last_usage, source_updated_at) < ?"
                + " ORDER BY COALESCE(last_usage, source_updated_at) ASC, source_updated_at ASC, thread_id ASC"
                + " LIMIT ?)", cutoff, limit);
    }

    /**
     * {@link #prune}, sparing the threads in {@code keep}: the candidates in prune order, those in
     * {@code keep} skipped, the first {@code limit} of the rest deleted.
     */
    static int prune(PooledConnection connection, int maxUnusedDays, int limit, Instant now,
            Set<String> keep) throws SQLException {
        if (limit <= 0) {
            return 0;
        }
        long cutoff = seconds(now) - Duration.ofDays(Math.max(maxUnusedDays, 0)).toSeconds();
        List<String> candidates = Jdbc.query(connection, "SELECT thread_id FROM stage1_outputs"
                + " WHERE selected_for_phase2 = 0 AND awaiting_approval = 0"
                + " AND COALESCE(last_usage, source_updated_at) < ?"
                + " ORDER BY COALESCE(last_usage, source_updated_at) ASC, source_updated_at ASC, thread_id ASC"
                + " LIMIT ?", row -> row.getString(1), cutoff, (long) limit + keep.size());
        int deleted = 0;
        for (String threadId : candidates) {
            if (deleted == limit) {
                break;
            }
            if (!keep.contains(threadId)) {
                deleted += Jdbc.update(connection, "DELETE FROM stage1_outputs WHERE thread_id = ?", threadId);
            }
        }
        return deleted;
    }

    /** A row of {@link #SELECT}, read by position (no column-name lookups per row). */
    private static Stage1Output map(ResultSet row) throws SQLException {
        long lastUsage = row.getLong(8);
        boolean hasLastUsage = !row.wasNull();
        boolean selected = row.getInt(9) != 0;
        long snapshot = row.getLong(10);
        boolean hasSnapshot = !row.wasNull();
        String cwd = row.getString(12);
        Stage1Result result = new Stage1Result(row.getString(3), row.getString(4),
                Optional.ofNullable(row.getString(5)));
        return new Stage1Output(row.getString(1), fromSeconds(row.getLong(2)), result,
                fromSeconds(row.getLong(6)), row.getInt(7),
                hasLastUsage ? Optional.of(fromSeconds(lastUsage)) : Optional.empty(),
                selected && hasSnapshot ? Optional.of(fromSeconds(snapshot)) : Optional.empty(),
                Path.of(row.getString(11)), Optional.ofNullable(cwd).map(Path::of),
                Optional.ofNullable(row.getString(13)), Optional.ofNullable(row.getString(14)));
    }
}
