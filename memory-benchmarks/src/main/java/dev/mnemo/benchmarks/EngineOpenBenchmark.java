package dev.mnemo.benchmarks;

import dev.mnemo.MemoryEngine;
import java.nio.file.Path;
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
 * {@code engine_open_warm}: {@code MemoryEngine.builder().home(h).build()} followed by
 * {@code buildDeveloperInstructions()} on an existing home ({@link EngineOpenCold#prepareHome}), the
 * JVM warm. Each engine is closed after its call, outside the timed region. The cold figures (a
 * fresh JVM, retained heap, the CLI) are measured by {@link EngineOpenCold} in child processes.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class EngineOpenBenchmark {

    private Path home;
    private MemoryEngine engine;

    @Setup(Level.Trial)
    public void setUp() {
        home = BenchSupport.scratch("open");
        EngineOpenCold.prepareHome(home);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        BenchSupport.deleteRecursively(home);
    }

    @Benchmark
    public String warm() {
        engine = MemoryEngine.builder().home(home).build();
        return engine.buildDeveloperInstructions();
    }

    @TearDown(Level.Invocation)
    public void closeEngine() {
        if (engine != null) {
            engine.close();
            engine = null;
        }
    }
}
