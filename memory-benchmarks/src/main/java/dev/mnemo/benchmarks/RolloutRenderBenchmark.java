package dev.mnemo.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.internal.extract.RolloutRenderer;
import dev.mnemo.internal.redact.DefaultSecretRedactor;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.openjdk.jmh.infra.Blackhole;

/** Phase 1 input rendered from the five real fixture rollouts, against a Jackson parse of the same lines. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class RolloutRenderBenchmark {

    /** Codex's budget with an unknown context window: 150,000 tokens at 4 bytes. */
    static final long BUDGET_BYTES = 150_000L * 4;

    private final ObjectMapper json = new ObjectMapper();
    private final RolloutRenderer renderer = new RolloutRenderer();
    private final DefaultSecretRedactor redactor = new DefaultSecretRedactor();
    private List<Path> rollouts;

    @Setup(Level.Trial)
    public void setUp() {
        rollouts = BenchSupport.fullFixtureRollouts();
    }

    static long totalBytes() throws IOException {
        long total = 0;
        for (Path p : BenchSupport.fullFixtureRollouts()) {
            total += Files.size(p);
        }
        return total;
    }

    @Benchmark
    public void render(Blackhole bh) {
        for (Path rollout : rollouts) {
            bh.consume(renderer.render(rollout, redactor, BUDGET_BYTES));
        }
    }

    @Benchmark
    public void renderReference(Blackhole bh) throws IOException {
        for (Path rollout : rollouts) {
            try (BufferedReader reader = Files.newBufferedReader(rollout, StandardCharsets.UTF_8)) {
                String line;
                while ((line = reader.readLine()) != null) {
                    bh.consume(json.readTree(line));
                }
            }
        }
    }
}
