package dev.mnemo.benchmarks;

import dev.mnemo.spi.Stage1Claim;
import dev.mnemo.spi.Stage1ClaimParams;
import dev.mnemo.spi.Stage1Output;
import dev.mnemo.store.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The store over 100,000 threads: the Phase 1 claim against its candidate query alone, and the
 * Phase 2 selection of 256 against its query alone, each query run over plain JDBC.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class StoreBenchmarks {

    static final String WORKER = "bench-worker";
    static final int SELECTION = 256;
    static final int MAX_UNUSED_DAYS = 30;

    /** Codex's candidate scan, as the store runs it (ThreadQueries.claimCandidates). */
    static final String CANDIDATES = "SELECT id, rollout_path, created_at_ms, updated_at_ms, source, cwd, git_branch,"
            + " preview, archived, memory_mode, project"
            + " FROM threads WHERE archived = 0 AND preview <> '' AND source IN (?, ?, ?)"
            + " AND memory_mode = 'enabled' AND id != ? AND updated_at_ms >= ? AND updated_at_ms <= ?"
            + " ORDER BY updated_at_ms DESC LIMIT ?";

    /** Codex's Phase 2 selection, exactly as the store runs it (Stage1OutputQueries.phase2Selection, rank index). */
    static final String SELECT = "SELECT so.thread_id, so.source_updated_at, so.raw_memory, so.rollout_summary,"
            + " so.rollout_slug, so.generated_at, so.usage_count, so.last_usage, so.selected_for_phase2,"
            + " so.selected_for_phase2_source_updated_at, t.rollout_path, t.cwd, t.git_branch, so.project"
            + " FROM stage1_outputs so CROSS JOIN threads t ON t.id = so.thread_id"
            + " WHERE t.memory_mode = 'enabled'"
            + " AND (length(trim(so.raw_memory)) > 0 OR length(trim(so.rollout_summary)) > 0)"
            + " AND ((so.last_usage IS NOT NULL AND so.last_usage >= ?) OR (so.last_usage IS NULL AND so.source_updated_at >= ?))"
            + " ORDER BY COALESCE(so.usage_count, 0) DESC, COALESCE(so.last_usage, so.source_updated_at) DESC,"
            + " so.source_updated_at DESC, so.thread_id DESC LIMIT ?";

    /** The claim database and a store and a plain connection on it. */
    @State(Scope.Benchmark)
    public static class ClaimState {
        Path dir;
        SqliteMemoryStore store;
        Connection jdbc;
        Stage1ClaimParams params;

        @Setup(Level.Trial)
        public void setUp() throws SQLException {
            dir = BenchSupport.scratch("claim");
            Path db = dir.resolve("mnemo.sqlite");
            BenchDatabases.createClaimDatabase(db);
            store = SqliteMemoryStore.open(db);
            jdbc = DriverManager.getConnection("jdbc:sqlite:" + db);
            params = new Stage1ClaimParams("current-thread", WORKER, 5_000, 2, 10, 6, List.of("cli", "vscode", "app"),
                    Duration.ofHours(1));
            List<Stage1Claim> probe = store.claimStage1Jobs(params, BenchDatabases.NOW);
            if (probe.size() != 2) {
                throw new IllegalStateException("the claim database should give 2 claims, gave " + probe.size());
            }
            store.releaseJobs(WORKER, "benchmark reset", BenchDatabases.NOW);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws SQLException {
            jdbc.close();
            store.close();
            BenchSupport.deleteRecursively(dir);
        }
    }

    /** The selection database and a store and a plain connection on it. */
    @State(Scope.Benchmark)
    public static class SelectionState {
        Path dir;
        SqliteMemoryStore store;
        Connection jdbc;

        @Setup(Level.Trial)
        public void setUp() throws SQLException {
            dir = BenchSupport.scratch("selection");
            Path db = dir.resolve("mnemo.sqlite");
            BenchDatabases.createSelectionDatabase(db);
            store = SqliteMemoryStore.open(db);
            jdbc = DriverManager.getConnection("jdbc:sqlite:" + db);
        }

        @TearDown(Level.Trial)
        public void tearDown() throws SQLException {
            jdbc.close();
            store.close();
            BenchSupport.deleteRecursively(dir);
        }
    }

    /** Puts the claimed jobs back after each claim, outside the timed region. */
    @State(Scope.Benchmark)
    public static class Release {
        @TearDown(Level.Invocation)
        public void release(ClaimState state) {
            state.store.releaseJobs(WORKER, "benchmark reset", BenchDatabases.NOW);
        }
    }

    @Benchmark
    public List<Stage1Claim> claim(ClaimState state, Release release) {
        return state.store.claimStage1Jobs(state.params, BenchDatabases.NOW);
    }

    @Benchmark
    public List<String> claimReference(ClaimState state) throws SQLException {
        long now = BenchDatabases.NOW.toEpochMilli();
        try (PreparedStatement query = state.jdbc.prepareStatement(CANDIDATES)) {
            query.setString(1, "cli");
            query.setString(2, "vscode");
            query.setString(3, "app");
            query.setString(4, "current-thread");
            query.setLong(5, now - Duration.ofDays(10).toMillis());
            query.setLong(6, now - Duration.ofHours(6).toMillis());
            query.setInt(7, 5_000);
            List<String> rows = new ArrayList<>(5_000);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    rows.add(rs.getString(1) + rs.getString(2) + rs.getLong(3) + rs.getLong(4) + rs.getString(5)
                            + rs.getString(6) + rs.getString(7) + rs.getString(8) + rs.getInt(9) + rs.getString(10));
                }
            }
            return rows;
        }
    }

    @Benchmark
    public List<Stage1Output> selection(SelectionState state) {
        return state.store.phase2InputSelection(SELECTION, MAX_UNUSED_DAYS, BenchDatabases.NOW);
    }

    @Benchmark
    public List<String> selectionReference(SelectionState state) throws SQLException {
        long cutoff = BenchDatabases.NOW.getEpochSecond() - Duration.ofDays(MAX_UNUSED_DAYS).toSeconds();
        try (PreparedStatement query = state.jdbc.prepareStatement(SELECT)) {
            query.setLong(1, cutoff);
            query.setLong(2, cutoff);
            query.setInt(3, SELECTION);
            List<String> rows = new ArrayList<>(SELECTION);
            try (ResultSet rs = query.executeQuery()) {
                while (rs.next()) {
                    rows.add(rs.getString(1) + rs.getLong(2) + rs.getString(3) + rs.getString(4) + rs.getString(5)
                            + rs.getLong(6) + rs.getLong(7) + rs.getLong(8) + rs.getInt(9) + rs.getLong(10)
                            + rs.getString(11) + rs.getString(12) + rs.getString(13));
                }
            }
            return rows;
        }
    }
}
