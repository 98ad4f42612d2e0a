package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryStatus;
import dev.mnemo.SessionContext;
import dev.mnemo.StartupTask;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.store.sqlite.SqliteMemoryStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What closing an engine does to work in flight (Codex #23129, #37097: nothing stuck running). */
class EngineLifecycleTest {

    @TempDir
    Path home;

    @Test
    void closeCancelsRunningWorkAndReleasesItsJobsForImmediateRetry() throws Exception {
        String id;
        try (Pipeline p = new Pipeline(home)) {
            id = p.recordSession("long extraction");
            p.idle();
            CountDownLatch asked = new CountDownLatch(1);
            p.model.extraction = request -> {
                asked.countDown();
                try {
                    new CountDownLatch(1).await(); // a model that never answers, until interrupted
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                throw new dev.mnemo.llm.ModelException(dev.mnemo.llm.ModelException.Reason.TIMEOUT, "interrupted");
            };
            StartupTask task = p.engine.startStartupTask(SessionContext.root("current-thread"));
            assertThat(asked.await(30, TimeUnit.SECONDS)).isTrue();
            MemoryStatus running = p.engine.admin().status();
            assertThat(running.runningLeases()).singleElement().satisfies(l -> assertThat(l.jobKey()).isEqualTo(id));

            p.engine.close();

            // The cancelled run winds down promptly (close() waits for it, within its timeout; a
            // loaded machine may need a little longer): it ends, cancelled, never left running.
            assertThat(task.completion()).failsWithin(Duration.ofSeconds(30))
                    .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                    .withRootCauseInstanceOf(java.util.concurrent.CancellationException.class);
            assertThat(Sql.string(home, "SELECT status FROM jobs WHERE job_key = '" + id + "'")).isNotEqualTo("running");
        }
        // Another engine, at the same moment, takes the job over at once.
        try (Pipeline again = new Pipeline(home)) {
            again.clock.set(Pipeline.T0.plus(Duration.ofHours(7)));
            assertThat(again.engine.admin().runPhase1("current-thread").succeeded()).isEqualTo(1);
            assertThat(again.store.stage1Output(id)).isPresent();
        }
    }

    @Test
    void anEngineThatOnlyRead_closesWithoutReleasingJobs_sinceItClaimedNone() {
        List<String> calls = new CopyOnWriteArrayList<>();
        try (SqliteMemoryStore store = SqliteMemoryStore.open(home.resolve("mnemo.sqlite"))) {
            MemoryStore recording = (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(),
                    new Class<?>[] {MemoryStore.class}, (proxy, method, args) -> {
                        calls.add(method.getName());
                        try {
                            return method.invoke(store, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
            MemoryEngine engine = MemoryEngine.builder().home(home).store(recording).build();
            engine.admin().status();
            engine.buildDeveloperInstructions();

            engine.close();

            assertThat(calls).contains("status").doesNotContain("releaseJobs");
        }
    }

    @Test
    void closedEngineRefusesNewWork() {
        Pipeline p = new Pipeline(home);
        p.close();
        MemoryEngine engine = p.engine;
        assertThatThrownBy(() -> engine.startStartupTask(SessionContext.root("x")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(engine::buildDeveloperInstructions).isInstanceOf(IllegalStateException.class);
    }
}
