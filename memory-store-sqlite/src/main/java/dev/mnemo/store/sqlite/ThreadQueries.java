package dev.mnemo.store.sqlite;

import dev.mnemo.MemoryMode;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.Stage1ClaimParams;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The {@code threads} table (times in epoch milliseconds). */
final class ThreadQueries {

    /** The columns an upsert writes, in this order: every column but the end mark. */
    private static final String UPSERT_COLUMNS = "id, rollout_path, created_at_ms, updated_at_ms, source, cwd,"
            + " git_branch, preview, archived, memory_mode, project";
    private static final int UPSERT_COLUMN_COUNT = UPSERT_COLUMNS.split(",").length;
    /** The columns {@link #map} reads, in this order (it reads them by position). */
    private static final String COLUMNS = UPSERT_COLUMNS + ", ended_at_ms";
    private static final int COLUMN_COUNT = COLUMNS.split(",").length;
    /** The candidate query's {@code up_to_date}, right after {@link #COLUMNS}. */
    private static final int UP_TO_DATE_COLUMN = COLUMN_COUNT + 1;

    /**
     * Inserts or replaces a row, keeping the stricter memory mode (polluted over disabled over
     * enabled) in the same statement: a rollout scan or a recorder that read the row before a
     * concurrent disable or pollution must not make its rollout extractable again. The end mark
     * ({@link #markEnded}) is not written: a row keeps its own. Every other column, the project
     * included, is the one given.
     */
    private static final String UPSERT = "INSERT INTO threads (" + UPSERT_COLUMNS + ")"
            + " VALUES (" + String.join(", ", Collections.nCopies(UPSERT_COLUMN_COUNT, "?")) + ")"
            + " ON CONFLICT(id) DO UPDATE SET rollout_path = excluded.rollout_path,"
            + " created_at_ms = excluded.created_at_ms, updated_at_ms = excluded.updated_at_ms,"
            + " source = excluded.source, cwd = excluded.cwd, git_branch = excluded.git_branch,"
            + " preview = excluded.preview, archived = excluded.archived, project = excluded.project,"
            + " memory_mode = CASE"
            + " WHEN 'polluted' IN (threads.memory_mode, excluded.memory_mode) THEN 'polluted'"
            + " WHEN 'disabled' IN (threads.memory_mode, excluded.memory_mode) THEN 'disabled'"
            + " ELSE 'enabled' END";

    private ThreadQueries() {
    }

    /** Upserts the row and returns the mode it has afterwards. */
    static MemoryMode upsert(PooledConnection connection, ThreadInfo thread) throws SQLException {
        Jdbc.update(connection, UPSERT, thread.id(), thread.rolloutPath().toString(),
                thread.createdAt().toEpochMilli(), thread.updatedAt().toEpochMilli(), thread.source(),
                thread.cwd().map(Path::toString).orElse(null), thread.gitBranch().orElse(null), thread.preview(),
                thread.archived() ? 1 : 0, thread.memoryMode().dbValue(), thread.project().orElse(null));
        return find(connection, thread.id()).orElseThrow().memoryMode();
    }

    static Optional<ThreadInfo> find(PooledConnection connection, String threadId) throws SQLException {
        return Jdbc.queryFirst(connection, "SELECT " + COLUMNS + " FROM threads WHERE id = ?", ThreadQueries::map,
                threadId);
    }

    static List<ThreadInfo> all(PooledConnection connection) throws SQLException {
        return Jdbc.query(connection, "SELECT " + COLUMNS + " FROM threads ORDER BY updated_at_ms DESC, id DESC",
                ThreadQueries::map);
    }

    /** @return rows changed (0 when there is no such thread) */
    static int setMode(PooledConnection connection, String threadId, MemoryMode mode) throws SQLException {
        return Jdbc.update(connection, "UPDATE threads SET memory_mode = ? WHERE id = ?", mode.dbValue(), threadId);
    }

    /** @return true when the thread existed and was not polluted yet */
    static boolean markPolluted(PooledConnection connection, String threadId) throws SQLException {
        return Jdbc.update(connection,
                "UPDATE threads SET memory_mode = 'polluted' WHERE id = ? AND memory_mode != 'polluted'",
                threadId) > 0;
    }

    /**
     * Marks the thread ended at {@code endedAt}; a later mark already stored is kept.
     *
     * @return false when there is no such thread
     */
    static boolean markEnded(PooledConnection connection, String threadId, Instant endedAt) throws SQLException {
        long endedMs = endedAt.toEpochMilli();
        return Jdbc.update(connection, "UPDATE threads SET ended_at_ms = MAX(COALESCE(ended_at_ms, ?), ?) WHERE id = ?",
                endedMs, endedMs, threadId) > 0;
    }

    static boolean delete(PooledConnection connection, String threadId) throws SQLException {
        return Jdbc.update(connection, "DELETE FROM threads WHERE id = ?", threadId) > 0;
    }

    /**
     * A claim candidate and whether its rollout version is already extracted. An up-to-date row
     * only uses a scan slot, so its columns are not read: {@code thread} is null then.
     */
    record Candidate(ThreadInfo thread, boolean upToDate) {
    }

    /**
     * Streams the claim candidates of write-sheet §3.5 step 2 (unarchived, previewed, allowed
     * source, enabled, not the current thread, inside the age window and past the idle gate of
     * {@link Stage1ClaimParams#passesIdleGate} (idle long enough, or finished), newest first, at
     * most {@code scanLimit} rows) to {@code visitor} until it returns false: rows
     * after that are never read, so their up-to-date probes are never evaluated. The statement is
     * compiled for this scan and not kept: it runs once a Phase 1 run, and its text varies with the
     * parameters.
     */
    static void forEachClaimCandidate(PooledConnection connection, Stage1ClaimParams params, Instant now,
            CandidateVisitor visitor) throws SQLException {
        CandidateQuery query = candidateQuery(params, now);
        try (PreparedStatement statement = connection.jdbc().prepareStatement(query.sql())) {
            Object[] args = query.args();
            for (int i = 0; i < args.length; i++) {
                statement.setObject(i + 1, args[i]);
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    boolean upToDate = rows.getBoolean(UP_TO_DATE_COLUMN);
                    if (!visitor.visit(new Candidate(upToDate ? null : map(rows), upToDate))) {
                        return;
                    }
                }
            }
        }
    }

    /** Receives one candidate; returns false to stop the scan. */
    @FunctionalInterface
    interface CandidateVisitor {
        boolean visit(Candidate candidate) throws SQLException;
    }

    /** The claim scan's text and arguments; package-private for the query-plan test. */
    record CandidateQuery(String sql, Object[] args) {
    }

    static CandidateQuery candidateQuery(Stage1ClaimParams params, Instant now) {
        String sourcePlaceholders = String.join(", ", Collections.nCopies(params.allowedSources().size(), "?"));
        // up_to_date: Codex's stage1_source_needs_update, negated, per row in the same scan (a stored
        // memory or a finished job already covers this rollout version, compared in whole seconds).
        String seconds = "(updated_at_ms - ((updated_at_ms % 1000) + 1000) % 1000) / 1000";
        String sql = "SELECT " + COLUMNS + ","
                + " (EXISTS (SELECT 1 FROM stage1_outputs so WHERE so.thread_id = threads.id"
                + " AND so.source_updated_at >= " + seconds + ")"
                + " OR EXISTS (SELECT 1 FROM jobs j WHERE j.kind = '" + JobKinds.STAGE1 + "' AND j.job_key = threads.id"
                + " AND j.last_success_watermark >= " + seconds + ")) AS up_to_date"
                + " FROM threads"
                + " WHERE archived = 0 AND preview <> '' AND source IN (" + sourcePlaceholders + ")"
                + " AND memory_mode = 'enabled' AND id != ?"
                // The age bound stays on the index (memory_mode, updated_at_ms DESC); the idle gate is
                // Stage1ClaimParams.passesIdleGate, read from the rows the index found.
                + " AND updated_at_ms >= ? AND (updated_at_ms <= ? OR ended_at_ms >= updated_at_ms)"
                + " ORDER BY updated_at_ms DESC LIMIT ?";
        List<Object> args = new ArrayList<>(params.allowedSources());
        args.add(params.currentThreadId());
        args.add(params.ageCutoff(now).toEpochMilli());
        args.add(params.idleCutoff(now).toEpochMilli());
        args.add(params.scanLimit());
        return new CandidateQuery(sql, args.toArray());
    }

    /** Thread counts for every mode, zeros included. */
    static Map<MemoryMode, Integer> countsByMode(PooledConnection connection) throws SQLException {
        Map<MemoryMode, Integer> counts = new EnumMap<>(MemoryMode.class);
        for (MemoryMode mode : MemoryMode.values()) {
            counts.put(mode, 0);
        }
        // Summed: GROUP BY compares the stored text exactly, and fromDbValue ignores case.
        for (var entry : Jdbc.query(connection, "SELECT memory_mode, COUNT(*) FROM threads GROUP BY memory_mode",
                row -> Map.entry(MemoryMode.fromDbValue(row.getString(1)), row.getInt(2)))) {
            counts.put(entry.getKey(), counts.get(entry.getKey()) + entry.getValue());
        }
        return counts;
    }

    /** A row whose first columns are {@link #COLUMNS}, read by position (no column-name lookups per row). */
    private static ThreadInfo map(ResultSet row) throws SQLException {
        String cwd = row.getString(6);
        return ThreadInfo.builder(row.getString(1))
                .rolloutPath(Path.of(row.getString(2)))
                .createdAt(Instant.ofEpochMilli(row.getLong(3)))
                .updatedAt(Instant.ofEpochMilli(row.getLong(4)))
                .source(row.getString(5))
                .cwd(cwd == null ? null : Path.of(cwd))
                .gitBranch(row.getString(7))
                .preview(row.getString(8))
                .archived(row.getInt(9) != 0)
                .memoryMode(MemoryMode.fromDbValue(row.getString(10)))
                .project(row.getString(11))
                .endedAt(endedAt(row.getLong(12), row.wasNull()))
                .build();
    }

    private static Instant endedAt(long endedMs, boolean none) {
        return none ? null : Instant.ofEpochMilli(endedMs);
    }
}
