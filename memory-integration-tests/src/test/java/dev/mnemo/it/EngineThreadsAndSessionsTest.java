package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryStoreException;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.StartupReport;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine's threads and open sessions: with an executor given, every piece of background work
 * (startup task, Phase 1 extractions, the consolidation agent) runs on it; closing the engine
 * closes the sessions its caller left recording; a rollout that cannot be written is a
 * {@link MemoryStoreException}. Real SQLite and git in a temp home.
 */
class EngineThreadsAndSessionsTest {

    @TempDir
    Path home;

    private final AtomicInteger threadCount = new AtomicInteger();
    private final ExecutorService given = Executors.newFixedThreadPool(6,
            r -> new Thread(r, "given-" + threadCount.incrementAndGet()));

    @AfterEach
    void stopExecutor() {
        given.shutdownNow();
    }

    @Test
    void withAnExecutorGiven_extractionsAndTheAgentRunOnItsThreads() throws Exception {
        ScriptedModel script = new ScriptedModel();
        List<String> modelThreads = new CopyOnWriteArrayList<>();
        LanguageModel model = new LanguageModel() {
            @Override
            public ModelResponse respond(ModelRequest request) {
                modelThreads.add(Thread.currentThread().getName());
                return script.respond(request);
            }
        };
        runThreeIdleSessionsThroughThePipeline(model, given);

        assertThat(script.extractions()).isEqualTo(3);
        assertThat(modelThreads).isNotEmpty().allSatisfy(name -> assertThat(name).startsWith("given-"));
    }

    @Test
    void aSingleThreadExecutor_stillRunsTheWholePipeline() throws Exception {
        ExecutorService single = Executors.newSingleThreadExecutor(r -> new Thread(r, "only-thread"));
        try {
            // The startup task holds the only thread: the helpers and the watchdog queue behind it.
            runThreeIdleSessionsThroughThePipeline(new ScriptedModel(), single);
        } finally {
            single.shutdownNow();
        }
    }

    /** Records three sessions, lets them go idle, and runs one startup task to its end with both phases. */
    private void runThreeIdleSessionsThroughThePipeline(LanguageModel model, ExecutorService executor)
            throws Exception {
        MutableClock clock = new MutableClock(Pipeline.T0);
        MemoriesConfig config = MemoriesConfig.builder().phase1Concurrency(4).maxRolloutsPerStartup(8).build();
        try (MemoryEngine engine = MemoryEngine.builder().home(home).config(config).model(model).clock(clock)
                .executor(executor).build()) {
            for (int i = 0; i < 3; i++) {
                try (RecordedSession s = engine.sessions().start(SessionContext.root("chat-" + i))) {
                    s.userMessage("fix the flaky build number " + i);
                    s.assistantMessage("done " + i);
                }
            }
            clock.advance(Duration.ofHours(7));

            StartupReport report = engine.startStartupTask(SessionContext.root("current")).completion()
                    .get(60, TimeUnit.SECONDS);

            assertThat(report.phase1().succeeded()).isEqualTo(3);
            assertThat(report.phase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
        }
    }

    /**
     * Issue 36: each engine's thread logs used to start a {@code mnemo-thread-logs} thread of their
     * own, so 500 tenants held 500 threads even with an executor given. Now one timer and a write
     * pool of two serve the process: opening 500 engines (SQLite homes, thread logs on) adds at most
     * those three threads, however many engines.
     */
    @Test
    void fiveHundredOpenEngines_withAnExecutorGiven_holdNoThreadEach() throws Exception {
        List<MemoryEngine> engines = new java.util.ArrayList<>();
        ((java.util.concurrent.ThreadPoolExecutor) given).prestartAllCoreThreads(); // the given threads are not the engines'
        int before = liveThreads();
        try {
            for (int i = 0; i < 500; i++) {
                MemoryEngine engine = MemoryEngine.builder().home(home.resolve("tenant-" + i)).executor(given).build();
                engines.add(engine);
                engine.threadLogs().append(new dev.mnemo.ThreadLogEntry("chat-" + i, Pipeline.T0, "INFO", "test",
                        "opened"));
            }
            int after = liveThreads();

            assertThat(after - before).as("threads added by 500 open engines").isLessThanOrEqualTo(3);
            assertThat(engines.get(499).threadLogs().query("chat-499", 10)).singleElement()
                    .satisfies(e -> assertThat(e.message()).isEqualTo("opened")); // a reader gets what was queued
        } finally {
            for (MemoryEngine engine : engines) {
                engine.close();
            }
        }
    }

    private static int liveThreads() {
        return (int) Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).count();
    }

    @Test
    void close_closesSessionsStartedThroughTheRecorder() {
        MemoryEngine engine = MemoryEngine.builder().home(home).model(new ScriptedModel()).build();
        RecordedSession session = engine.sessions().start(SessionContext.root("chat-7"));
        session.userMessage("remember the build flags");

        engine.close();

        assertThatThrownBy(() -> session.userMessage("after close")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> engine.sessions().start(SessionContext.root("chat-8")))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aRolloutThatCannotBeWritten_isAMemoryStoreExceptionNamingTheFile() throws IOException {
        try (MemoryEngine engine = MemoryEngine.builder().home(home).model(new ScriptedModel()).build();
                RecordedSession session = engine.sessions().start(SessionContext.root("chat-9"))) {
            session.userMessage("first");
            Path sessions = home.resolve("sessions");
            deleteTree(sessions);
            Files.writeString(sessions, "a file where the folder was");

            assertThatThrownBy(() -> session.userMessage("second")).isInstanceOf(MemoryStoreException.class)
                    .hasMessageContaining("cannot append to rollout").hasMessageContaining("sessions");
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(path);
            }
        }
    }
}
