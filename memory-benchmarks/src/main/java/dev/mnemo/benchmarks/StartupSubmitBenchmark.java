package dev.mnemo.benchmarks;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.StartupTask;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
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
 * {@code startStartupTask} returns at once: the call is timed (sampled, for the p99) while the one
 * worker thread is held inside a model call that never answers, so every task waits in the queue.
 * Each task is cancelled after its call, outside the timed region.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class StartupSubmitBenchmark {

    static final Instant RECORDED = Instant.parse("2026-03-02T08:00:00Z");

    private Path home;
    private ThreadPoolExecutor executor;
    private CountDownLatch release;
    private MemoryEngine engine;
    private SessionContext session;
    private StartupTask last;
    private long submitted;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        home = BenchSupport.scratch("submit");
        MemoriesConfig config = MemoriesConfig.builder().minRolloutIdleHours(1).build();
        try (MemoryEngine recorder = MemoryEngine.builder().home(home).config(config).model(BenchModel.instant())
                .clock(Clock.fixed(RECORDED, ZoneOffset.UTC)).build();
                RecordedSession s = recorder.sessions().start(SessionContext.root("0199812e-64f0-7f73-91fc-095dda01c36e"))) {
            s.userMessage("Why is the build flaky?");
            s.assistantMessage("A shared temp folder; isolate it per test.");
        }
        release = new CountDownLatch(1);
        executor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
        engine = MemoryEngine.builder().home(home).config(config).model(BenchModel.blockedUntil(release))
                .clock(Clock.fixed(RECORDED.plus(Duration.ofHours(7)), ZoneOffset.UTC)).executor(executor).build();
        // The first task takes the worker thread and blocks inside the model.
        engine.startStartupTask(SessionContext.root("0199a000-0000-7000-8000-000000000001"));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (executor.getActiveCount() == 0 || !executor.getQueue().isEmpty()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the first startup task did not reach the model");
            }
            Thread.onSpinWait();
        }
        session = SessionContext.root("0199a000-0000-7000-8000-000000000002");
    }

    @Benchmark
    public StartupTask submit() {
        last = engine.startStartupTask(session);
        return last;
    }

    @TearDown(Level.Invocation)
    public void cancelQueued() {
        if (last != null) {
            last.cancel();
            last = null;
        }
        if (++submitted % 4_096 == 0) {
            executor.purge();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        release.countDown();
        engine.close();
        executor.shutdownNow();
        BenchSupport.deleteRecursively(home);
    }
}
