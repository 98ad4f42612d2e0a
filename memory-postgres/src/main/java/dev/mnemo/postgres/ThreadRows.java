package dev.mnemo.postgres;

import dev.mnemo.MemoryMode;
import dev.mnemo.ThreadInfo;
import dev.mnemo.spi.Stage1ClaimParams;
import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The {@code threads} view of one tenant (times in epoch milliseconds). */
final class ThreadRows {

    /** A claim candidate and whether its rollout version is already extracted. */
    record Candidate(ThreadInfo thread, boolean upToDate) {
    }

    private ThreadRows() {
    }

    /** Upserts the row and returns the mode it has afterwards (polluted stays polluted). */
    static MemoryMode upsert(Tx tx, ThreadInfo thread) throws SQLException {
        return tx.first("thread.upsert", row -> MemoryMode.fromDbValue(row.getString(1)), thread.id(),
                thread.rolloutPath().toString(), thread.createdAt().toEpochMilli(), thread.updatedAt().toEpochMilli(),
                thread.source(), thread.cwd().map(Path::toString).orElse(null), thread.gitBranch().orElse(null),
                thread.preview(), thread.archived() ? 1 : 0, thread.memoryMode().dbValue(),
                thread.project().orElse(null)).orElseThrow();
    }

    static Optional<ThreadInfo> find(Tx tx, String threadId) throws SQLException {
        return tx.first("thread.find", ThreadRows::map, threadId);
    }

    static List<ThreadInfo> all(Tx tx) throws SQLException {
        return tx.query("thread.all", ThreadRows::map);
    }

    static int setMode(Tx tx, String threadId, MemoryMode mode) throws SQLException {
        return tx.update("thread.setMode", mode.dbValue(), threadId);
    }

    /** @return true when the thread existed and was not polluted yet */
    static boolean markPolluted(Tx tx, String threadId) throws SQLException {
        return tx.update("thread.markPolluted", threadId) > 0;
    }

    /** @return false when the tenant has no such thread */
    static boolean markEnded(Tx tx, String threadId, Instant endedAt) throws SQLException {
        return tx.update("thread.markEnded", endedAt.toEpochMilli(), threadId) > 0;
    }

    static boolean delete(Tx tx, String threadId) throws SQLException {
        return tx.update("thread.delete", threadId) > 0;
    }

    /**
     * The Phase 1 candidates of write-sheet §3.5 step 2 (the idle gate of
     * {@link Stage1ClaimParams#passesIdleGate}: idle long enough, or finished), newest first, each with its up-to-date
     * flag, fetched in pages so a claim that stops early does not read the whole scan.
     */
    static Candidates claimCandidates(Tx tx, Stage1ClaimParams params, Instant now) throws SQLException {
        PreparedStatement statement = tx.connection().prepareStatement(
                PostgresMemoryStore.SQL.get("thread.claimCandidates"));
        statement.setFetchSize(Math.min(params.scanLimit(), 256));
        statement.setArray(1, tx.textArray(params.allowedSources()));
        statement.setString(2, params.currentThreadId());
        statement.setLong(3, params.ageCutoff(now).toEpochMilli());
        statement.setLong(4, params.idleCutoff(now).toEpochMilli());
        statement.setInt(5, params.scanLimit());
        return new Candidates(statement, statement.executeQuery());
    }

    /** An open cursor over claim candidates. */
    static final class Candidates implements AutoCloseable {
        private final PreparedStatement statement;
        private final ResultSet rows;

        private Candidates(PreparedStatement statement, ResultSet rows) {
            this.statement = statement;
            this.rows = rows;
        }

        Optional<Candidate> next() throws SQLException {
            return rows.next() ? Optional.of(new Candidate(map(rows), rows.getBoolean("up_to_date"))) : Optional.empty();
        }

        @Override
        public void close() throws SQLException {
            try (statement) {
                rows.close();
            }
        }
    }

    /** Thread counts for every mode, zeros included. */
    static Map<MemoryMode, Integer> countsByMode(Tx tx) throws SQLException {
        Map<MemoryMode, Integer> counts = new EnumMap<>(MemoryMode.class);
        for (MemoryMode mode : MemoryMode.values()) {
            counts.put(mode, 0);
        }
        for (var entry : tx.query("thread.countsByMode",
                row -> Map.entry(MemoryMode.fromDbValue(row.getString(1)), row.getInt(2)))) {
            counts.merge(entry.getKey(), entry.getValue(), Integer::sum);
        }
        return counts;
    }

    /** A row holding the columns of {@code thread.find}, read by name. */
    static ThreadInfo map(ResultSet row) throws SQLException {
        String cwd = row.getString("cwd");
        Long endedMs = Tx.nullableLong(row, "ended_at_ms");
        return ThreadInfo.builder(row.getString("id"))
                .rolloutPath(Path.of(row.getString("rollout_path")))
                .createdAt(Instant.ofEpochMilli(row.getLong("created_at_ms")))
                .updatedAt(Instant.ofEpochMilli(row.getLong("updated_at_ms")))
                .source(row.getString("source"))
                .cwd(cwd == null ? null : Path.of(cwd))
                .gitBranch(row.getString("git_branch"))
                .preview(row.getString("preview"))
                .archived(row.getInt("archived") != 0)
                .memoryMode(MemoryMode.fromDbValue(row.getString("memory_mode")))
                .project(row.getString("project"))
                .endedAt(endedMs == null ? null : Instant.ofEpochMilli(endedMs))
                .build();
    }
}
