package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.TenantHomes;
import dev.mnemo.internal.engine.TenantEngines;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which engine a call to {@link MemoryEngines} evicts, and that it does so without walking every
 * open engine: over real homes (SQLite + git), with the set's background closes run on a scheduler
 * the test owns, so that a barrier task tells when every close handed to it has run.
 */
class TenantEnginesEvictionTest {

    @TempDir
    Path root;

    private final MutableClock clock = new MutableClock(Pipeline.T0);
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    /** Every engine the factory built, by tenant and opening: "a#1", "a#2"… */
    private final Map<String, MemoryEngine> built = new LinkedHashMap<>();

    private Function<String, MemoryEngine> factory() {
        Function<String, MemoryEngine> homes = TenantHomes.under(root,
                () -> MemoryEngine.builder().model(new ScriptedModel()).clock(clock).closeTimeout(Duration.ofMillis(200)));
        return tenant -> {
            MemoryEngine engine = homes.apply(tenant);
            synchronized (built) {
                int opening = (int) built.keySet().stream().filter(k -> k.startsWith(tenant + "#")).count() + 1;
                built.put(tenant + "#" + opening, engine);
            }
            return engine;
        };
    }

    @AfterEach
    void stopScheduler() {
        scheduler.shutdownNow();
    }

    /** Waits until the closes handed to the set's scheduler so far have run (it runs tasks in order). */
    private void closesDone() throws Exception {
        scheduler.submit(() -> {}).get();
    }

    private static boolean isClosed(MemoryEngine engine) {
        try {
            engine.buildDeveloperInstructions();
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }

    private java.util.List<String> closed() {
        synchronized (built) {
            return built.entrySet().stream().filter(e -> isClosed(e.getValue())).map(Map.Entry::getKey).toList();
        }
    }

    @Test
    void aReleasedLeaseCountsAsUse_soTheEngineUsedLongestAgoIsTheOneEvicted_andEveryDroppedEngineIsClosedOnce()
            throws Exception {
        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(factory()).maxOpen(3)
                .idleTimeout(Duration.ofMinutes(30)).clock(clock).scheduler(scheduler).build()) {
            MemoryEngines.Lease a = engines.lease("a");
            engines.forTenant("b");
            engines.forTenant("c");
            clock.advance(Duration.ofMinutes(10));

            engines.forTenant("d"); // four open: "a" is leased, so "b", the least recently used, goes
            closesDone();
            assertThat(engines.openTenants()).containsExactly("a", "c", "d");
            assertThat(closed()).containsExactly("b#1");

            a.close(); // "a" was last used now, after "c" and "d"
            engines.forTenant("e");
            closesDone();
            assertThat(engines.openTenants()).containsExactly("a", "d", "e");
            assertThat(closed()).containsExactlyInAnyOrder("b#1", "c#1");

            clock.advance(Duration.ofMinutes(35)); // "a", "d" and "e" idle past the timeout
            engines.forTenant("f");
            closesDone();
            assertThat(engines.openTenants()).containsExactly("f");
            assertThat(closed()).containsExactlyInAnyOrder("b#1", "c#1", "a#1", "d#1", "e#1");

            engines.forTenant("b"); // reopened: a new engine on the same home
            assertThat(built).containsKey("b#2");
            assertThat(isClosed(built.get("b#2"))).isFalse();
        }
        assertThat(closed()).as("closing the set closes what was open; nothing leaked").hasSize(built.size());
    }

    @Test
    void aLeasedEngineAtTheHead_isSteppedOver_andTheIdleEnginesBehindItStillClose() throws Exception {
        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(factory())
                .idleTimeout(Duration.ofMinutes(30)).clock(clock).scheduler(scheduler).build()) {
            MemoryEngines.Lease longRequest = engines.lease("a");
            engines.forTenant("b");
            engines.forTenant("c");
            clock.advance(Duration.ofMinutes(31));

            engines.forTenant("d");
            closesDone();

            assertThat(engines.openTenants()).containsExactly("a", "d");
            assertThat(closed()).containsExactlyInAnyOrder("b#1", "c#1");
            assertThat(isClosed(longRequest.engine())).isFalse();
            longRequest.close();
        }
    }

    @Test
    void aCall_looksAtTheHeadOfTheOpenEngines_notAtEveryOne() {
        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(factory())
                .idleTimeout(Duration.ofMinutes(30)).clock(clock).scheduler(scheduler).build()) {
            for (int i = 0; i < 40; i++) {
                engines.forTenant("t" + i);
            }
            TenantEngines set = (TenantEngines) engines;
            long before = set.entriesExamined();

            for (int i = 0; i < 200; i++) {
                engines.forTenant(i % 2 == 0 ? "t0" : "t1");
            }

            // Walking every open engine per call would be 200 x 40 = 8,000.
            assertThat(set.entriesExamined() - before).isLessThanOrEqualTo(200);
            assertThat(engines.openCount()).isEqualTo(40);
        }
    }

    @Test
    void theScheduledSweep_stillClosesEveryIdleEngine_withoutAnyCaller() {
        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(factory())
                .idleTimeout(Duration.ofMinutes(30)).clock(clock).scheduler(scheduler).build()) {
            engines.forTenant("a");
            engines.forTenant("b");
            clock.advance(Duration.ofMinutes(30));

            assertThat(((TenantEngines) engines).closeIdle()).isEqualTo(2);

            assertThat(engines.openCount()).isZero();
            assertThat(closed()).containsExactlyInAnyOrder("a#1", "b#1");
            assertThatThrownBy(() -> built.get("a#1").conversation("c")).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aVisit_opensAClosedTenantForItsCallOnly_andLeavesAnOpenOneAsItWas() throws Exception {
        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(factory())
                .idleTimeout(Duration.ofMinutes(30)).clock(clock).scheduler(scheduler).build()) {
            engines.forTenant("open");
            clock.advance(Duration.ofMinutes(20));

            String instructions = engines.visit("closed", MemoryEngine::buildToolInstructions);
            engines.visit("open", MemoryEngine::buildToolInstructions);
            closesDone();

            assertThat(instructions).isNotNull();
            assertThat(closed()).containsExactly("closed#1");
            assertThat(engines.openTenants()).containsExactly("open");
            clock.advance(Duration.ofMinutes(10)); // 30 minutes since its last real use: the visit did not count
            engines.forTenant("other");
            closesDone();
            assertThat(engines.openTenants()).containsExactly("other");
        }
    }

    @Test
    void aCallerAskingForTheTenantDuringAVisit_keepsTheEngineOpenAfterIt() throws Exception {
        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(factory()).clock(clock)
                .scheduler(scheduler).build()) {
            MemoryEngine[] during = new MemoryEngine[1];

            engines.visit("alice", engine -> during[0] = engines.forTenant("alice"));
            closesDone();

            assertThat(engines.openTenants()).containsExactly("alice");
            assertThat(isClosed(during[0])).isFalse();
        }
    }
}
