package dev.mnemo.benchmarks;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.Phase1Report;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
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
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class Phase1Benchmarks {

    static final Instant RECORDED = Instant.parse("2026-03-02T08:00:00Z");
    static final Instant NOW = RECORDED.plus(Duration.ofHours(7));
    static final int OVERHEAD_ROLLOUTS = 1_000;
    static final int CONCURRENCY_ROLLOUTS = 64;
    static final long MODEL_LATENCY_MS = 200;

    /** A home with recorded sessions and an engine over it. */
    abstract static class HomeState {
        Path home;
        MemoryEngine engine;

        void create(int rollouts, BenchModel model, MemoriesConfig config) {
            home = BenchSupport.scratch("phase1");
            try (MemoryEngine recorder = MemoryEngine.builder().home(home).config(config).model(model)
                    .clock(Clock.fixed(RECORDED, ZoneOffset.UTC)).build()) {
                for (int i = 0; i < rollouts; i++) {
                    String id = UUID.nameUUIDFromBytes(("phase1-" + i).getBytes(StandardCharsets.UTF_8)).toString();
                    try (RecordedSession s = recorder.sessions().start(SessionContext.root(id))) {
                        s.userMessage("The build of module " + i + " is flaky; find out why.");
                        s.toolCall("c" + i, "shell", "{\"command\":[\"mvn\",\"-q\",\"verify\"]}");
                        s.toolOutput("c" + i, "Tests run: 120, Failures: 1 (TempFolderTest)");
                        s.assistantMessage("Two tests shared a temp folder; each now gets its own. Build green.");
                    }
                }
            }
            engine = MemoryEngine.builder().home(home).config(config).model(model)
                    .consolidationAgent(request -> {
                        throw new IllegalStateException("Phase 2 is not part of this benchmark");
                    })
                    .clock(Clock.fixed(NOW, ZoneOffset.UTC)).build();
        }

        @Setup(Level.Iteration)
        public void forget() {
            engine.admin().clear();
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            engine.close();
            BenchSupport.deleteRecursively(home);
        }
    }

    /** 1,000 rollouts, a model answering at once. */
    @State(Scope.Benchmark)
    public static class OverheadState extends HomeState {
        @Setup(Level.Trial)
        public void setUp() {
            create(OVERHEAD_ROLLOUTS, BenchModel.instant(), MemoriesConfig.builder().minRolloutIdleHours(1)
                    .maxRolloutsPerStartup(128).build());
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

    /** Runs Phase 1 until nothing is left to claim (a run claims at most 128); all 1,000 must succeed. */
    @Benchmark
    public int phase1Overhead(OverheadState state) {
        int succeeded = 0;
        Phase1Report report;
        do {
            report = state.engine.admin().runPhase1("current-thread");
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
