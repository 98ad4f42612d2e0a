package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.MemorySession;
import dev.mnemo.SessionContext;
import dev.mnemo.TenantHomes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link MemoryEngines} over real homes (SQLite + git) laid out by {@link TenantHomes}. */
class TenantEnginesTest {

    @TempDir
    Path root;

    private final MutableClock clock = new MutableClock(Pipeline.T0);
    private final List<String> events = new CopyOnWriteArrayList<>();

    /** Real engines per tenant home; each opening and closing is logged in {@link #events}. */
    private Function<String, MemoryEngine> factory() {
        Function<String, MemoryEngine> homes = TenantHomes.under(root,
                () -> MemoryEngine.builder().model(new ScriptedModel()).clock(clock).closeTimeout(Duration.ofMillis(200)));
        return tenant -> {
            events.add("open " + tenant);
            MemoryEngine engine = homes.apply(tenant);
            return new ClosingLogged(engine, () -> events.add("close " + tenant));
        };
    }

    @Test
    void forTenant_opensEachTenantOnce_evenWhenManyCallersAskAtOnce() throws Exception {
        AtomicInteger builds = new AtomicInteger();
        Function<String, MemoryEngine> counting = factory().andThen(engine -> {
            builds.incrementAndGet();
            return engine;
        });
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(counting).clock(clock).build()) {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<MemoryEngine>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(pool.submit(() -> {
                    start.await();
                    return engines.forTenant("alice");
                }));
            }
            start.countDown();
            Set<MemoryEngine> seen = new HashSet<>();
            for (Future<MemoryEngine> call : calls) {
                seen.add(call.get(30, TimeUnit.SECONDS));
            }

            assertThat(seen).hasSize(1);
            assertThat(builds).hasValue(1);
            assertThat(engines.openCount()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void beyondMaxOpen_theLeastRecentlyUsedEngineIsClosed() {
        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(factory()).maxOpen(2).clock(clock).build()) {
            MemoryEngine a = engines.forTenant("a");
            MemoryEngine b = engines.forTenant("b");
            engines.forTenant("a");
            engines.forTenant("c");
            awaitEvent("close b");

            assertThat(events).containsExactlyInAnyOrder("open a", "open b", "close b", "open c");
            assertThatThrownBy(b::buildDeveloperInstructions).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed");
            assertThat(a.buildDeveloperInstructions()).isEmpty();
            assertThat(engines.forTenant("b")).isNotSameAs(b);
            awaitEvent("close a");
            assertThat(events).contains("open b");
        }
        assertThat(events).contains("close c", "close b");
    }

    @Test
    void idleTimeout_closesEnginesUnusedForThatLong_onTheSetsOwnThread_withoutAnyCaller() throws Exception {
        Map<String, String> closedOn = new ConcurrentHashMap<>();
        Function<String, MemoryEngine> real = factory();
        try (MemoryEngines engines = MemoryEngines.builder().idleTimeout(Duration.ofMillis(40)).clock(clock)
                .engineFactory(tenant -> new ClosingLogged(real.apply(tenant), () -> {
                    closedOn.put(tenant, Thread.currentThread().getName());
                    events.add("closed on a thread: " + tenant); // after the inner engine's own "close" event
                }))
                .build()) {
            engines.forTenant("a");
            clock.advance(Duration.ofMinutes(1)); // idle by the set's clock; no caller comes after this

            awaitEvent("closed on a thread: a");

            assertThat(engines.openCount()).isZero();
            assertThat(closedOn.get("a")).isEqualTo("mnemo-tenant-engines");
        }
    }

    @Test
    void aLeasedEngine_isNeverClosedAsIdleOrLeastRecentlyUsed_untilItsLeaseIsClosed() {
        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(factory()).maxOpen(1)
                .idleTimeout(Duration.ofMinutes(30)).clock(clock).build()) {
            MemoryEngines.Lease lease = engines.lease("a");
            MemorySession session = lease.engine().conversation("chat-1");
            clock.advance(Duration.ofHours(2));

            engines.forTenant("b"); // beyond maxOpen, and "a" is idle by the clock: still leased

            assertThat(events).doesNotContain("close a");
            session.userMessage("the request goes on after the model answered");
            assertThat(engines.openTenants()).containsExactly("a", "b");

            lease.close();
            lease.close(); // harmless
            assertThatThrownBy(lease::engine).isInstanceOf(IllegalStateException.class);
            engines.forTenant("c");
            awaitEvent("close a");
        }
    }

    @Test
    void forEachOpen_visitsEveryOpenEngine_withoutKeepingAnIdleOneOpen() {
        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(factory())
                .idleTimeout(Duration.ofMinutes(30)).clock(clock).build()) {
            engines.forTenant("b");
            engines.forTenant("a");
            clock.advance(Duration.ofMinutes(20));
            List<String> visited = new ArrayList<>();

            int count = engines.forEachOpen((tenant, engine) -> {
                visited.add(tenant);
                assertThat(engine.buildDeveloperInstructions()).isEmpty(); // usable during the visit
            });

            assertThat(count).isEqualTo(2);
            assertThat(visited).containsExactly("a", "b");
            clock.advance(Duration.ofMinutes(15)); // 35 minutes since the last real use
            engines.forTenant("c");
            awaitEvent("close a");
            awaitEvent("close b");
        }
    }

    @Test
    void forEachOpen_aVisitThatThrows_stopsTheWalk_andHoldsNothingAfterwards() {
        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(factory()).maxOpen(2).clock(clock)
                .build()) {
            engines.forTenant("a");
            engines.forTenant("b");

            assertThatThrownBy(() -> engines.forEachOpen((tenant, engine) -> {
                throw new IllegalStateException("visit failed on " + tenant);
            })).hasMessage("visit failed on a");

            engines.forTenant("c"); // both may be closed again: the walk held neither afterwards
            awaitEvent("close a");
        }
    }

    @Test
    void evictionOnAnotherRequestsCall_neverMakesThatCallerWaitForTheClose() throws Exception {
        CountDownLatch closing = new CountDownLatch(1);
        CountDownLatch mayFinish = new CountDownLatch(1);
        AtomicBoolean closed = new AtomicBoolean();
        Function<String, MemoryEngine> real = factory();
        try (MemoryEngines engines = MemoryEngines.builder().maxOpen(1).clock(clock)
                .engineFactory(tenant -> new ClosingLogged(real.apply(tenant), () -> {
                    closing.countDown();
                    await(mayFinish); // a slow close: up to 2 x closeTimeout in real life
                    closed.set(true);
                })).build()) {
            engines.forTenant("a");

            MemoryEngine b = engines.forTenant("b"); // drops "a"; its close blocks on another thread

            assertThat(closed).as("the caller returned before the close finished").isFalse();
            assertThat(closing.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(b.buildDeveloperInstructions()).isEmpty();
            mayFinish.countDown();
        }
    }

    @Test
    void idleTimeout_closesEnginesUnusedForThatLong_whenTheSetIsNextTouched() {
        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(factory()).idleTimeout(Duration.ofMinutes(30))
                .clock(clock).build()) {
            engines.forTenant("a");
            clock.advance(Duration.ofMinutes(20));
            engines.forTenant("b");
            clock.advance(Duration.ofMinutes(15));

            engines.forTenant("b");
            awaitEvent("close a");

            assertThat(events).containsExactly("open a", "open b", "close a");
            assertThat(engines.openCount()).isEqualTo(1);
        }
    }

    @Test
    void closingTheSet_closesEveryEngine_andRefusesMoreTenants() {
        MemoryEngines engines = MemoryEngines.builder().engineFactory(factory()).clock(clock).build();
        MemorySession session = engines.forTenant("a").conversation("chat-1");
        session.userMessage("hello");
        engines.forTenant("b");

        engines.close();

        assertThat(events).contains("close a", "close b");
        assertThatThrownBy(() -> session.userMessage("late")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> engines.forTenant("a")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void callersCannotCloseASharedEngine() {
        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(factory()).clock(clock).build()) {
            MemoryEngine engine = engines.forTenant("a");

            assertThatThrownBy(engine::close).isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("MemoryEngines.close()");
            assertThat(engine.buildDeveloperInstructions()).isEmpty();
        }
    }

    @Test
    void aFailedOpeningIsNotKept_theNextCallTriesAgain() {
        AtomicInteger calls = new AtomicInteger();
        Function<String, MemoryEngine> real = factory();
        try (MemoryEngines engines = MemoryEngines.builder().clock(clock).engineFactory(tenant -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("database unreachable");
            }
            return real.apply(tenant);
        }).build()) {
            assertThatThrownBy(() -> engines.forTenant("a")).hasMessage("database unreachable");
            assertThat(engines.openCount()).isZero();

            assertThat(engines.forTenant("a").buildDeveloperInstructions()).isEmpty();
        }
    }

    @Test
    void tenantHomes_hostileIdsStayDirectlyUnderTheRoot_andNeverShareAFolder() throws Exception {
        List<String> ids = List.of("../other", "/etc", "..", ".", "a\u0000b", "x".repeat(10_000), "x".repeat(10_001),
                "A", "a", "%41", "a/b", "a_b", "a%2Fb", "ümlaut", "CON", "tenant~1", "  spaced  ");
        Set<String> names = new HashSet<>();
        for (String id : ids) {
            String name = TenantHomes.folderName(id);
            Path home = TenantHomes.home(root, id);

            assertThat(home.getParent()).isEqualTo(root);
            assertThat(home.normalize()).isEqualTo(home);
            assertThat(name).matches("[a-zA-Z0-9_%~-]{1,120}");
            names.add(name.toLowerCase());
        }
        assertThat(names).hasSameSizeAs(ids);
        assertThatThrownBy(() -> TenantHomes.folderName(" ")).isInstanceOf(IllegalArgumentException.class);

        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(factory()).clock(clock).build()) {
            engines.forTenant("../other").conversation("c").userMessage("hi");
        }
        try (var listing = Files.list(root)) {
            assertThat(listing.map(p -> p.getFileName().toString())).containsExactly("%2E%2E%2Fother");
        }
    }

    /** Waits (bounded) for background work to log {@code event}: the set closes engines on its own thread. */
    private void awaitEvent(String event) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!events.contains(event)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no '" + event + "' within 30 s; events: " + events);
            }
            Thread.onSpinWait();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The engine the factory made, logging when it is closed. */
    private record ClosingLogged(MemoryEngine engine, Runnable onClose) implements MemoryEngine {
        @Override
        public dev.mnemo.MemorySession openSession(dev.mnemo.SessionContext session) {
            return engine.openSession(session);
        }

        @Override
        public MemorySession conversation(String conversationId) {
            return engine.conversation(conversationId);
        }

        @Override
        public dev.mnemo.StartupTask startStartupTask(dev.mnemo.SessionContext session) {
            return engine.startStartupTask(session);
        }

        @Override
        public MemorySession conversation(SessionContext session) {
            return engine.conversation(session);
        }

        @Override
        public String buildDeveloperInstructions(String projectKey) {
            return engine.buildDeveloperInstructions(projectKey);
        }

        @Override
        public String buildToolInstructions(String projectKey) {
            return engine.buildToolInstructions(projectKey);
        }

        @Override
        public dev.mnemo.MessageHistory messageHistory() {
            return engine.messageHistory();
        }

        @Override
        public dev.mnemo.AgentGraph agentGraph() {
            return engine.agentGraph();
        }

        @Override
        public dev.mnemo.ThreadLogs threadLogs() {
            return engine.threadLogs();
        }

        @Override
        public dev.mnemo.ThreadGoals goals() {
            return engine.goals();
        }

        @Override
        public boolean closeConversation(String conversationId) {
            return engine.closeConversation(conversationId);
        }

        @Override
        public String buildDeveloperInstructions() {
            return engine.buildDeveloperInstructions();
        }

        @Override
        public String buildToolInstructions() {
            return engine.buildToolInstructions();
        }

        @Override
        public dev.mnemo.AssistantMessage processAssistantMessage(String threadId, String text) {
            return engine.processAssistantMessage(threadId, text);
        }

        @Override
        public dev.mnemo.ThreadRegistry threads() {
            return engine.threads();
        }

        @Override
        public dev.mnemo.SessionRecorder sessions() {
            return engine.sessions();
        }

        @Override
        public dev.mnemo.MemoryTools tools() {
            return engine.tools();
        }

        @Override
        public dev.mnemo.MemoryAdmin admin() {
            return engine.admin();
        }

        @Override
        public dev.mnemo.MemoriesConfig config() {
            return engine.config();
        }

        @Override
        public void close() {
            engine.close();
            onClose.run();
        }
    }
}
