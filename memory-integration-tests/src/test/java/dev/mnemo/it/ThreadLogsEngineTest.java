package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryMode;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.StartupReport;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.store.sqlite.SqliteMemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thread logs through the engine, on real SQLite and git: the pipeline's events land in
 * {@code <home>/logs.sqlite} under the thread they concern (or a {@code mnemo:*} pseudo-thread), a
 * deleted thread's entries go with it, and a logs database held locked by another process never
 * delays the pipeline.
 */
class ThreadLogsEngineTest {

    @TempDir
    Path home;

    private StartupReport runPipeline(MemoryEngine engine, MutableClock clock) throws Exception {
        for (int i = 0; i < 3; i++) {
            try (RecordedSession s = engine.sessions().start(SessionContext.root("chat-" + i))) {
                s.userMessage("fix the flaky build number " + i);
                s.assistantMessage("done " + i);
            }
        }
        clock.advance(Duration.ofHours(7));
        return engine.startStartupTask(SessionContext.root("current")).completion().get(60, TimeUnit.SECONDS);
    }

    private void runPipelineAndFlush(MemoryEngine engine, MutableClock clock) throws Exception {
        runPipeline(engine, clock);
        engine.threadLogs().flush();
    }

    private MemoryEngine engine(MutableClock clock) {
        MemoriesConfig config = MemoriesConfig.builder().phase1Concurrency(4).maxRolloutsPerStartup(8).build();
        return MemoryEngine.builder().home(home).config(config).model(new ScriptedModel()).clock(clock).build();
    }

    @Test
    void pipelineEvents_areLoggedPerThread_andSurviveTheEngine() throws Exception {
        MutableClock clock = new MutableClock(Pipeline.T0);
        try (MemoryEngine engine = engine(clock)) {
            runPipelineAndFlush(engine, clock);

            assertThat(engine.threadLogs().query("chat-1", 10)).extracting(ThreadLogEntry::message)
                    .anySatisfy(m -> assertThat(m).matches("phase 1 job succeeded in \\d+ ms, tokens in [1-9]\\d* "
                            + "\\(cached \\d+\\), out [1-9]\\d* .*"));
            assertThat(engine.threadLogs().query("mnemo:phase2", 100)).extracting(ThreadLogEntry::message)
                    .anySatisfy(m -> assertThat(m).startsWith("step "))
                    .last().asString().startsWith("phase 2 SUCCEEDED");
            assertThat(engine.threadLogs().query("mnemo:startup", 10)).extracting(ThreadLogEntry::message)
                    .anySatisfy(m -> assertThat(m).startsWith("startup finished"));
            assertThat(engine.threadLogs().dropped()).isZero();
        }
        assertThat(home.resolve("logs.sqlite")).exists();
        try (MemoryEngine reopened = engine(clock)) {
            assertThat(reopened.threadLogs().query("chat-1", 10)).isNotEmpty();
        }
    }

    @Test
    void aConversation_hearsWhatBecameOfItsMemory_andWhyItWasForgotten() throws Exception {
        MutableClock clock = new MutableClock(Pipeline.T0);
        try (MemoryEngine engine = engine(clock)) {
            runPipeline(engine, clock);
            engine.threads().setMemoryMode("chat-0", MemoryMode.DISABLED);
            engine.threadLogs().flush();

            assertThat(engine.threadLogs().query("chat-1", 10)).extracting(ThreadLogEntry::target, ThreadLogEntry::message)
                    .contains(tuple("mnemo::phase2", "consolidated into the memory folder with 2 other memories"));
            assertThat(engine.threadLogs().query("chat-0", 10)).last()
                    .satisfies(entry -> assertThat(entry.message()).startsWith("memory mode set to disabled; its memory "
                            + "is forgotten"));
            assertThat(engine.threadLogs().query("mnemo:phase2", 100)).extracting(ThreadLogEntry::message)
                    .contains("selected 3 memories as inputs")
                    .anySatisfy(m -> assertThat(m).isEqualTo("tool write_file MEMORY.md"));
            assertThat(engine.threadLogs().query("current", 10)).isEmpty(); // the thread running the pipeline
        }
    }

    @Test
    void deletingAThread_deletesItsLogEntries() throws Exception {
        MutableClock clock = new MutableClock(Pipeline.T0);
        try (MemoryEngine engine = engine(clock)) {
            runPipelineAndFlush(engine, clock);
            assertThat(engine.threadLogs().query("chat-2", 10)).isNotEmpty();

            engine.threads().delete("chat-2");

            assertThat(engine.threadLogs().query("chat-2", 10)).isEmpty();
            assertThat(engine.threadLogs().query("chat-1", 10)).isNotEmpty();
        }
    }

    @Test
    void aLockedLogsDatabase_neverDelaysThePipeline() throws Exception {
        MutableClock clock = new MutableClock(Pipeline.T0);
        try (MemoryEngine engine = engine(clock)) {
            try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + home.resolve("logs.sqlite"));
                    var statement = other.createStatement()) {
                statement.execute("BEGIN EXCLUSIVE");
                long start = System.nanoTime();

                StartupReport report = runPipeline(engine, clock);

                assertThat(report.phase1().succeeded()).isEqualTo(3);
                assertThat(report.phase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
                System.out.printf("pipeline with the logs database locked: %d ms, %d log entries dropped%n",
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), engine.threadLogs().dropped());
                statement.execute("COMMIT");
            }
        }
    }

    @Test
    void anEngineGivenItsStoreExplicitly_saysWhyItHasNoThreadLogs() {
        try (SqliteMemoryStore store = SqliteMemoryStore.open(home.resolve("elsewhere.sqlite"));
                MemoryEngine engine = MemoryEngine.builder().home(home).store(store).build()) {
            assertThatThrownBy(engine::threadLogs).isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("given a store that keeps no thread logs");
            assertThat(Files.exists(home.resolve("logs.sqlite"))).isFalse();
        }
    }
}
