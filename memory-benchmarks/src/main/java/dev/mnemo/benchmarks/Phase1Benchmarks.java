package dev.mnemo.benchmarks;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.Phase1Report;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.ThreadLogs;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.store.sqlite.SqliteMemoryStore;
import dev.mnemo.store.sqlite.SqliteMemoryStoreProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.UUID;
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
 * Phase 1 end to end on a real home (SQLite store, recorded rollouts): 1,000 rollouts with a model
 * that answers at once (Mnemo's own cost per job), and 64 rollouts with a model that answers in
 * 200 ms at concurrency 8 (against the ideal 64 / 8 x 200 ms). Each iteration forgets the memories
 * first, so every iteration extracts everything again.
 *
 * <p>{@code phase1_overhead} is measured with thread logs on (an engine that opens its own store
 * from the home, as applications build it) against the same home and rollouts with thread logs off
 * ({@code phase1OverheadReference}): an engine given its store explicitly keeps no logs. The logs-on
 * time includes writing every entry Phase 1 queued ({@code flush()} at the end, timed), and each
 * iteration checks afterwards that every extracted thread got its entry (see
 * {@link OverheadState#checkLogsWritten()} for entries the full queue dropped).
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class Phase1Benchmarks {

    static final Instant RECORDED = Instant.parse("2026-03-02T08:00:00Z");
    static final Instant NOW = RECORDED.plus(Duration.ofHours(7));
    static final int OVERHEAD_ROLLOUTS = 1_000;
    static final int CONCURRENCY_ROLLOUTS = 64;
    static final long MODEL_LATENCY_MS = 200;
    /** The share of Phase 1's log entries the logs-on side may lose to a full queue before the run fails. */
    static final double MAX_DROPPED_SHARE = 0.01;

    /** A home with recorded sessions and an engine over it. */
    abstract static class HomeState {
        Path home;
        MemoryEngine engine;
        /** The store handed to a logs-off engine (the engine does not close it); null when it opened its own. */
        MemoryStore givenStore;

        /** An engine with thread logs, as {@code MemoryEngine.builder().home(h)...build()} gives one. */
        void create(int rollouts, BenchModel model, MemoriesConfig config) {
            create(rollouts, model, config, true);
        }

        void create(int rollouts, BenchModel model, MemoriesConfig config, boolean threadLogs) {
            home = BenchSupport.scratch("phase1");
            try (MemoryEngine recorder = MemoryEngine.builder().home(home).config(config).model(model)
                    .clock(Clock.fixed(RECORDED, ZoneOffset.UTC)).build()) {
                for (int i = 0; i < rollouts; i++) {
                    String id = rolloutId(i);
                    try (RecordedSession s = recorder.sessions().start(SessionContext.root(id))) {
                        s.userMessage("The build of module " + i + " is flaky; find out why.");
                        s.toolCall("c" + i, "shell", "{\"command\":[\"mvn\",\"-q\",\"verify\"]}");
                        s.toolOutput("c" + i, "Tests run: 120, Failures: 1 (TempFolderTest)");
                        s.assistantMessage("Two tests shared a temp folder; each now gets its own. Build green.");
                    }
                }
            }
            MemoryEngine.Builder builder = MemoryEngine.builder().home(home).config(config).model(model)
                    .consolidationAgent(request -> {
                        throw new IllegalStateException("Phase 2 is not part of this benchmark");
                    })
                    .clock(Clock.fixed(NOW, ZoneOffset.UTC));
            if (!threadLogs) {
                // The public way to an engine without thread logs: an engine keeps logs only beside a
                // store it opens itself, so give it the same mnemo.sqlite, opened through the store's
                // public factory. Everything else (home, sessions, workspace, config) is the same.
                givenStore = SqliteMemoryStore.open(home.resolve(SqliteMemoryStoreProvider.DATABASE_FILE_NAME));
                builder.store(givenStore);
            }
            engine = builder.build();
        }

        @Setup(Level.Iteration)
        public void forget() {
            engine.admin().clear();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            engine.close();
            if (givenStore != null) {
                givenStore.close();
            }
            BenchSupport.deleteRecursively(home);
        }
    }

    static MemoriesConfig overheadConfig() {
        return MemoriesConfig.builder().minRolloutIdleHours(1).maxRolloutsPerStartup(128).build();
    }

    static String rolloutId(int i) {
        return UUID.nameUUIDFromBytes(("phase1-" + i).getBytes(StandardCharsets.UTF_8)).toString();
    }

    /** 1,000 rollouts, a model answering at once, thread logs on. */
    @State(Scope.Benchmark)
    public static class OverheadState extends HomeState {
        private int iterations;

        @Setup(Level.Trial)
        public void setUp() {
            create(OVERHEAD_ROLLOUTS, BenchModel.instant(), overheadConfig(), true);
        }

        /**
         * Every extracted thread has one "phase 1 job" entry per iteration so far, so the logs-on
         * variant really wrote its entries and cannot silently measure nothing. The writer drops
         * what its full queue cannot take (Codex's rule), and on a loaded machine an instant model
         * can outrun it: a missing entry is accepted only when {@code dropped()} accounts for it,
         * up to {@link #MAX_DROPPED_SHARE} of the entries, and is reported on standard error.
         */
        @TearDown(Level.Iteration)
        public void checkLogsWritten() {
            iterations++;
            ThreadLogs logs = engine.threadLogs();
            logs.flush();
            long missing = 0;
            for (int i = 0; i < OVERHEAD_ROLLOUTS; i++) {
                String id = rolloutId(i);
                long jobs = logs.query(id, 1_000).stream().map(ThreadLogEntry::message)
                        .filter(m -> m.startsWith("phase 1 job")).count();
                if (jobs > iterations) {
                    throw new IllegalStateException("thread " + id + " has " + jobs + " phase 1 log entries after "
                            + iterations + " iteration(s)");
                }
                missing += iterations - jobs;
            }
            long expected = (long) OVERHEAD_ROLLOUTS * iterations;
            if (missing > logs.dropped() || missing > expected * MAX_DROPPED_SHARE) {
                throw new IllegalStateException(missing + " of " + expected + " phase 1 log entries missing after "
                        + iterations + " iteration(s); entries dropped so far: " + logs.dropped());
            }
            if (missing > 0) {
                System.err.println("phase1_overhead: " + missing + " of " + expected + " phase 1 job entries dropped"
                        + " (queue full); " + logs.dropped() + " entries dropped in all");
            }
        }
    }

    /** The same home and rollouts, thread logs off: the reference for {@code phase1_overhead}. */
    @State(Scope.Benchmark)
    public static class OverheadLogsOffState extends HomeState {
        @Setup(Level.Trial)
        public void setUp() {
            create(OVERHEAD_ROLLOUTS, BenchModel.instant(), overheadConfig(), false);
            try {
                engine.threadLogs();
                throw new IllegalStateException("the reference engine must keep no thread logs");
            } catch (UnsupportedOperationException expected) {
                // no logs: what the reference is for
            }
        }
    }

    /** 64 rollouts, a model answering in 200 ms, concurrency 8. */
    @State(Scope.Benchmark)
    public static class ConcurrencyState extends HomeState {
        @Setup(Level.Trial)
        public void setUp() {
            create(CONCURRENCY_ROLLOUTS, BenchModel.delayed(MODEL_LATENCY_MS), MemoriesConfig.builder()
                    .minRolloutIdleHours(1).maxRolloutsPerStartup(CONCURRENCY_ROLLOUTS).phase1Concurrency(8).build());
        }
    }

    /**
     * Runs Phase 1 until nothing is left to claim (a run claims at most 128); all 1,000 must
     * succeed. Thread logs on: the entries still queued at the end are written before the clock stops.
     */
    @Benchmark
    public int phase1Overhead(OverheadState state) {
        int succeeded = extractAll(state.engine);
        state.engine.threadLogs().flush();
        return succeeded;
    }

    /** {@link #phase1Overhead} on an engine without thread logs. */
    @Benchmark
    public int phase1OverheadReference(OverheadLogsOffState state) {
        return extractAll(state.engine);
    }

    private static int extractAll(MemoryEngine engine) {
        int succeeded = 0;
        Phase1Report report;
        do {
            report = engine.admin().runPhase1("current-thread");
            succeeded += report.succeeded();
        } while (report.claimed() > 0);
        if (succeeded != OVERHEAD_ROLLOUTS) {
            throw new IllegalStateException("expected " + OVERHEAD_ROLLOUTS + " extractions, got " + succeeded);
        }
        return succeeded;
    }

    @Benchmark
    public int phase1Concurrency(ConcurrencyState state) {
        Phase1Report report = state.engine.admin().runPhase1("current-thread");
        if (report.succeeded() != CONCURRENCY_ROLLOUTS) {
            throw new IllegalStateException("expected " + CONCURRENCY_ROLLOUTS + " extractions, got " + report);
        }
        return report.succeeded();
    }
}
