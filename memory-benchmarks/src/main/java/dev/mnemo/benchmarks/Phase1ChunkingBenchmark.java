package dev.mnemo.benchmarks;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.Phase1Report;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Phase 1's own cost per MB of session when a session is larger than the model's window: one
 * rollout of {@value #SESSION_MB} MB read in parts and merged by a model with an 8,000-token window
 * ({@code phase1Chunked}), against the same rollout sent in one request to a model whose window
 * holds it ({@code phase1ChunkedReference}). Both models answer at once, so the figures are
 * Mnemo's work: reading, splitting, measuring, building the requests, merging and storing.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class Phase1ChunkingBenchmark {

    static final int SESSION_MB = 2;
    static final int SMALL_WINDOW = 8_000;
    /** Large enough for the whole session in one request (70 % of it, at 4 bytes a token). */
    static final int LARGE_WINDOW = SESSION_MB * 1_000_000 / 4 * 10 / 7 + 50_000;

    /** A home holding one long rollout and an engine over it. */
    abstract static class SessionState extends Phase1Benchmarks.HomeState {
        void create(int windowTokens) {
            home = BenchSupport.scratch("phase1-chunking");
            LanguageModel model = new WindowedModel(windowTokens);
            MemoriesConfig config = MemoriesConfig.builder().minRolloutIdleHours(1)
                    .maxExtractionTokensPerRollout(SESSION_MB * 1_000_000).build();
            try (MemoryEngine recorder = MemoryEngine.builder().home(home).config(config).model(model)
                    .clock(Clock.fixed(Phase1Benchmarks.RECORDED, ZoneOffset.UTC)).build()) {
                try (RecordedSession s = recorder.sessions().start(SessionContext.root(Phase1Benchmarks.rolloutId(0)))) {
                    String body = "the build step compiled, tested and packaged the module without warnings; ".repeat(13);
                    long bytes = 0;
                    for (int turn = 0; bytes < SESSION_MB * 1_000_000L; turn++) {
                        s.userMessage("step " + turn + ": " + body);
                        s.assistantMessage("done " + turn + ": " + body);
                        bytes += 2L * body.length() + 20;
                    }
                }
            }
            engine = MemoryEngine.builder().home(home).config(config).model(model)
                    .consolidationAgent(request -> {
                        throw new IllegalStateException("Phase 2 is not part of this benchmark");
                    })
                    .clock(Clock.fixed(Phase1Benchmarks.NOW, ZoneOffset.UTC)).build();
        }
    }

    /** The session through a model with an 8,000-token window: read in parts. */
    @State(Scope.Benchmark)
    public static class ChunkedState extends SessionState {
        @Setup(Level.Trial)
        public void setUp() {
            create(SMALL_WINDOW);
        }
    }

    /** The same session through a model whose window holds it: one request. */
    @State(Scope.Benchmark)
    public static class OneRequestState extends SessionState {
        @Setup(Level.Trial)
        public void setUp() {
            create(LARGE_WINDOW);
        }
    }

    @Benchmark
    public int phase1Chunked(ChunkedState state) {
        return extract(state.engine);
    }

    @Benchmark
    public int phase1ChunkedReference(OneRequestState state) {
        return extract(state.engine);
    }

    private static int extract(MemoryEngine engine) {
        Phase1Report report = engine.admin().runPhase1("current-thread");
        if (report.succeeded() != 1) {
            throw new IllegalStateException("expected one extraction, got " + report);
        }
        return report.succeeded();
    }

    /** Answers every extraction and merge at once with a short memory; states its window. Not a model. */
    private record WindowedModel(int windowTokens) implements LanguageModel {
        private static final TokenUsage USAGE = new TokenUsage(100, 0, 20, 0);

        @Override
        public ModelResponse respond(ModelRequest request) {
            return ModelResponse.ofText("{\"rollout_summary\":\"Built and tested the module step by step.\","
                    + "\"rollout_slug\":\"module-build\",\"raw_memory\":\"- the module builds cleanly\"}", USAGE);
        }

        @Override
        public OptionalInt contextWindowTokens() {
            return OptionalInt.of(windowTokens);
        }
    }
}
