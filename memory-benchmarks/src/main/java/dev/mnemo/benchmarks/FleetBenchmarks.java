package dev.mnemo.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.Phase1Report;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.postgres.PostgresBackend;
import dev.mnemo.postgres.TestCluster;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.Stage1Claim;
import dev.mnemo.spi.Stage1ClaimParams;
import dev.mnemo.spi.Stage1Output;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
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
 * Fleet mode on a throwaway PostgreSQL server (memory-postgres's TestCluster, loopback, fsync off):
 * the Phase 1 claim and the Phase 2 selection over 100,000 threads of one tenant among 100 tenants
 * (99 others with {@value #OTHER_THREADS} threads each), the instructions of an engine whose summary
 * lives in the database (p50/p99 per call, a version check each), opening an engine on an existing
 * tenant whose files are already cached locally, and Phase 1 jobs per second with a zero-latency
 * model and {@value #PHASE1_WORKERS} workers.
 */
public class FleetBenchmarks {

    static final int OTHER_TENANTS = 99;
    static final int OTHER_THREADS = 10_000;
    static final int PHASE1_ROLLOUTS = 200;
    static final int PHASE1_WORKERS = 4;
    private static final AtomicInteger DATABASES = new AtomicInteger();

    /** A database with Mnemo's schema on this JVM's cluster. */
    abstract static class DatabaseState {
        HikariDataSource pool;
        PostgresBackend backend;

        void open() throws SQLException {
            String url = TestCluster.get().createDatabase("bench_" + ProcessHandle.current().pid() + "_"
                    + DATABASES.incrementAndGet());
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(url);
            config.setMaximumPoolSize(8);
            pool = new HikariDataSource(config);
            backend = PostgresBackend.builder().dataSource(pool).build();
        }

        void sql(String... statements) throws SQLException {
            try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
                for (String statement : statements) {
                    s.execute(statement);
                }
            }
        }

        /** {@code count} threads of {@code tenant}, thread i updated 7 h + i s before NOW, as BenchDatabases. */
        void threads(String tenant, int count) throws SQLException {
            sql("INSERT INTO mnemo.tenant_threads (tenant_id, id, rollout_path, created_at_ms, updated_at_ms, source,"
                    + " cwd, git_branch, preview, archived, memory_mode) SELECT '" + tenant + "', 'bench-thread-' || i,"
                    + " '/sessions/rollout-' || i || '.jsonl', u - 600000, u, 'cli', '/work/app', 'main',"
                    + " 'fix the flaky build', 0, 'enabled' FROM generate_series(0, " + (count - 1) + ") i,"
                    + " LATERAL (SELECT " + newestMs() + " - i * 1000::bigint AS u) x");
        }

        /** Memories for threads of {@code tenant} matching {@code where} (over i), usage from {@code usage}. */
        void outputs(String tenant, int count, String where, String usageCount, String lastUsage) throws SQLException {
            sql("INSERT INTO mnemo.tenant_stage1_outputs (tenant_id, thread_id, source_updated_at, raw_memory,"
                    + " rollout_summary, rollout_slug, generated_at, usage_count, last_usage) SELECT '" + tenant
                    + "', 'bench-thread-' || i, s, '- raw memory ' || i || ': the build is flaky because of a shared"
                    + " temp folder', 'Thread ' || i || ' fixed a flaky build.', 'flaky-build-' || i, s + 60, "
                    + usageCount + ", " + lastUsage + " FROM generate_series(0, " + (count - 1) + ") i,"
                    + " LATERAL (SELECT (" + newestMs() + " - i * 1000::bigint) / 1000 AS s) x WHERE " + where);
        }

        void otherTenants() throws SQLException {
            for (int t = 0; t < OTHER_TENANTS; t++) {
                threads("other-" + t, OTHER_THREADS);
                outputs("other-" + t, OTHER_THREADS, "true", "NULL", "NULL");
            }
        }

        static long newestMs() {
            return BenchDatabases.NOW.minus(Duration.ofHours(7)).toEpochMilli();
        }

        /** Tenant {@code reader}'s files as another server committed them: a 10 KB summary and MEMORY.md. */
        void commitSummary() throws SQLException {
            StringBuilder text = new StringBuilder("v1\n");
            for (int i = 0; text.length() < 10_000; i++) {
                text.append("- Topic ").append(i).append(": the build is hermetic; run `mvn -B verify` before pushing.\n");
            }
            try (Connection c = pool.getConnection();
                    PreparedStatement file = c.prepareStatement("INSERT INTO mnemo.tenant_workspace_files"
                            + " (tenant_id, path, content) VALUES ('reader', ?, ?)")) {
                c.createStatement().execute("INSERT INTO mnemo.tenant_workspaces (tenant_id, version) VALUES ('reader', 1)");
                file.setString(1, "memory_summary.md");
                file.setBytes(2, text.toString().getBytes(StandardCharsets.UTF_8));
                file.execute();
                file.setString(1, "MEMORY.md");
                file.setBytes(2, "# Memory\n".getBytes(StandardCharsets.UTF_8));
                file.execute();
            }
        }

        /** An engine of tenant {@code reader} on {@code cache}, its instructions built once (files materialised). */
        MemoryEngine openReader(Path cache) {
            MemoryEngine engine = backend.engineBuilder("reader", cache).model(BenchModel.instant()).build();
            if (engine.buildDeveloperInstructions().isEmpty()) {
                engine.close();
                throw new IllegalStateException("no memory section built from the database's summary");
            }
            return engine;
        }

        void close() {
            pool.close();
        }
    }

    /** The claim tenant: the newest half extracted except one thread in a thousand (BenchDatabases' shape). */
    @State(Scope.Benchmark)
    public static class ClaimState extends DatabaseState {
        MemoryStore store;
        Stage1ClaimParams params;

        @Setup(Level.Trial)
        public void setUp() throws SQLException {
            open();
            otherTenants();
            threads("target", BenchDatabases.THREADS);
            String extracted = "i < " + BenchDatabases.THREADS / 2 + " AND i % 1000 <> 500";
            outputs("target", BenchDatabases.THREADS, extracted, "NULL", "NULL");
            sql("INSERT INTO mnemo.tenant_jobs (tenant_id, kind, job_key, status, worker_id, ownership_token,"
                    + " started_at, finished_at, retry_remaining, input_watermark, last_success_watermark)"
                    + " SELECT 'target', 'memory_stage1', 'bench-thread-' || i, 'done', 'w', 't', s, s + 60, 3, s, s"
                    + " FROM generate_series(0, " + (BenchDatabases.THREADS - 1) + ") i,"
                    + " LATERAL (SELECT (" + newestMs() + " - i * 1000::bigint) / 1000 AS s) x WHERE " + extracted,
                    "ANALYZE");
            store = backend.store("target");
            params = new Stage1ClaimParams("current-thread", StoreBenchmarks.WORKER, 5_000, 2, 10, 6,
                    List.of("cli", "vscode", "app"), Duration.ofHours(1));
            List<Stage1Claim> probe = store.claimStage1Jobs(params, BenchDatabases.NOW);
            if (probe.size() != 2) {
                throw new IllegalStateException("the claim tenant should give 2 claims, gave " + probe.size());
            }
            store.releaseJobs(StoreBenchmarks.WORKER, "benchmark reset", BenchDatabases.NOW);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            close();
        }
    }

    /** Puts the claimed jobs back after each claim, outside the timed region. */
    @State(Scope.Benchmark)
    public static class Release {
        @TearDown(Level.Invocation)
        public void release(ClaimState state) {
            state.store.releaseJobs(StoreBenchmarks.WORKER, "benchmark reset", BenchDatabases.NOW);
        }
    }

    /** The selection tenant: every thread has a memory; a quarter used, counts and last uses at random. */
    @State(Scope.Benchmark)
    public static class SelectionState extends DatabaseState {
        MemoryStore store;

        @Setup(Level.Trial)
        public void setUp() throws SQLException {
            open();
            otherTenants();
            threads("target", BenchDatabases.THREADS);
            sql("SELECT setseed(0.256)");
            outputs("target", BenchDatabases.THREADS, "true",
                    "CASE WHEN i % 4 = 0 THEN 1 + (i::bigint * 7919) % 19 END",
                    "CASE WHEN i % 4 = 0 THEN " + BenchDatabases.NOW.getEpochSecond() + " - (i::bigint * 104729) % (40 * 86400) END");
            sql("ANALYZE");
            store = backend.store("target");
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            close();
        }
    }

    /** An engine whose 10 KB summary was committed by another server: first call materialises it. */
    @State(Scope.Benchmark)
    public static class ReaderState extends DatabaseState {
        Path cache;
        MemoryEngine engine;

        @Setup(Level.Trial)
        public void setUp() throws SQLException {
            open();
            commitSummary();
            cache = BenchSupport.scratch("fleet-read");
            engine = openReader(cache);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            engine.close();
            close();
            BenchSupport.deleteRecursively(cache);
        }
    }

    /**
     * The reader tenant (10 KB summary in the database) and a cache folder an earlier engine already
     * filled: each opening finds its files on disk and only checks them against the database.
     */
    @State(Scope.Benchmark)
    public static class OpenState extends DatabaseState {
        Path cache;

        @Setup(Level.Trial)
        public void setUp() throws SQLException {
            open();
            commitSummary();
            cache = BenchSupport.scratch("fleet-open");
            openReader(cache).close();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            close();
            BenchSupport.deleteRecursively(cache);
        }
    }

    /** Before each measurement, {@value #PHASE1_ROLLOUTS} recorded sessions of a fresh tenant. */
    @State(Scope.Benchmark)
    public static class Phase1State extends DatabaseState {
        Path cache;
        MemoryEngine engine;
        int round;

        @Setup(Level.Trial)
        public void setUp() throws SQLException {
            open();
        }

        @Setup(Level.Iteration)
        public void record() {
            cache = BenchSupport.scratch("fleet-phase1");
            Clock clock = Clock.fixed(BenchDatabases.NOW, ZoneOffset.UTC);
            String tenant = "p1-" + round++;
            try (MemoryEngine recorder = backend.engineBuilder(tenant, cache.resolve("recorder"))
                    .clock(Clock.offset(clock, Duration.ofHours(-3))).model(BenchModel.instant()).build()) {
                for (int i = 0; i < PHASE1_ROLLOUTS; i++) {
                    try (RecordedSession session = recorder.sessions().start(SessionContext.root("t" + i))) {
                        session.userMessage("fix the flaky build " + i + ": the temp folder is shared");
                        session.assistantMessage("Moved the temp folder under target/ for run " + i + ".");
                    }
                }
            }
            engine = backend.engineBuilder(tenant, cache.resolve("worker"))
                    .config(MemoriesConfig.builder().minRolloutIdleHours(1).maxRolloutsPerStartup(128)
                            .phase1Concurrency(PHASE1_WORKERS).build())
                    .model(BenchModel.instant()).clock(clock).build();
        }

        @TearDown(Level.Iteration)
        public void forget() {
            engine.close();
            BenchSupport.deleteRecursively(cache);
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            close();
        }
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public List<Stage1Claim> claim(ClaimState state, Release release) {
        return state.store.claimStage1Jobs(state.params, BenchDatabases.NOW);
    }

    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public List<Stage1Output> selection(SelectionState state) {
        return state.store.phase2InputSelection(StoreBenchmarks.SELECTION, StoreBenchmarks.MAX_UNUSED_DAYS,
                BenchDatabases.NOW);
    }

    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public String instructions(ReaderState state) {
        return state.engine.buildDeveloperInstructions();
    }

    /**
     * One query's round trip, the least a fleet server's turn pays to see another server's changes:
     * a pooled connection, one primary-key {@code SELECT} of the tenant's versions row, as the
     * workspace's version check reads it.
     */
    @Benchmark
    @BenchmarkMode(Mode.SampleTime)
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public long instructionsReference(ReaderState state) throws SQLException {
        try (Connection c = state.pool.getConnection();
                PreparedStatement versions = c.prepareStatement(
                        "SELECT version, notes_version FROM mnemo.tenant_workspaces WHERE tenant_id = ?")) {
            versions.setString(1, "reader");
            try (ResultSet row = versions.executeQuery()) {
                return row.next() ? row.getLong(1) + row.getLong(2) : -1;
            }
        }
    }

    /** An engine built on the existing tenant and cache, its instructions built, closed. */
    @Benchmark
    @BenchmarkMode(Mode.AverageTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public String engineOpen(OpenState state) {
        try (MemoryEngine engine = state.backend.engineBuilder("reader", state.cache).model(BenchModel.instant())
                .build()) {
            return engine.buildDeveloperInstructions();
        }
    }

    /** Every rollout of the round extracted: runs of up to 128 claims until none is left. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public int phase1(Phase1State state) {
        int done = 0;
        while (true) {
            Phase1Report report = state.engine.admin().runPhase1("none");
            if (report.claimed() == 0) {
                break;
            }
            done += report.succeeded();
        }
        if (done != PHASE1_ROLLOUTS) {
            throw new IllegalStateException("extracted " + done + " of " + PHASE1_ROLLOUTS + " rollouts");
        }
        return done;
    }
}
