package dev.mnemo.internal.consolidate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.spi.MemoryStore;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HeartbeatTest {

    private final List<Object[]> beats = new CopyOnWriteArrayList<>();
    private final List<String> beatThreads = new CopyOnWriteArrayList<>();
    private final CountDownLatch three = new CountDownLatch(3);
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "given-executor"));
    private final Clock clock = Clock.fixed(Instant.parse("2026-11-01T00:00:00Z"), ZoneOffset.UTC);

    /** A store that only answers heartbeats (this test double records them; nothing else is called). */
    private final MemoryStore store = (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(),
            new Class<?>[] {MemoryStore.class}, (proxy, method, args) -> {
                if (!method.getName().equals("heartbeatPhase2Job")) {
                    throw new UnsupportedOperationException(method.getName());
                }
                beats.add(args);
                beatThreads.add(Thread.currentThread().getName());
                three.countDown();
                return true;
            });

    @AfterEach
    void stopExecutor() {
        executor.shutdownNow();
    }

    @Test
    void extendsTheLeaseWithTheTokenOnTheGivenExecutor() throws Exception {
        try (Heartbeat heartbeat = Heartbeat.start(store, "token-1", Duration.ofHours(1), Duration.ofMillis(5), clock,
                executor)) {
            assertThat(three.await(10, TimeUnit.SECONDS)).isTrue();
        }

        assertThat(beats).allSatisfy(args -> {
            assertThat(args[0]).isEqualTo("token-1");
            assertThat(args[1]).isEqualTo(Duration.ofHours(1));
            assertThat(args[2]).isEqualTo(clock.instant());
        });
        assertThat(beatThreads).containsOnly("given-executor");
    }

    @Test
    void noBeatAfterClose_theBeatingTaskHasEndedWhenCloseReturns() throws Exception {
        Heartbeat heartbeat = Heartbeat.start(store, "token-1", Duration.ofHours(1), Duration.ofMillis(1), clock,
                executor);
        assertThat(three.await(10, TimeUnit.SECONDS)).isTrue();

        heartbeat.close();
        int afterClose = beats.size();
        // The executor has one thread: this marker runs only once the heartbeat task has given it back.
        executor.submit(() -> { }).get(10, TimeUnit.SECONDS);

        assertThat(beats).hasSize(afterClose);
    }

    @Test
    void closedBeforeTheExecutorRanIt_neverBeats() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        executor.submit(() -> release.await(10, TimeUnit.SECONDS)); // keeps the only thread busy

        Heartbeat heartbeat = Heartbeat.start(store, "token-1", Duration.ofHours(1), Duration.ofMillis(1), clock,
                executor);
        heartbeat.close();
        release.countDown();
        executor.submit(() -> { }).get(10, TimeUnit.SECONDS);

        assertThat(beats).isEmpty();
    }

    @Test
    void phase2HeartbeatIsCodexsNinetySeconds() {
        assertThat(Phase2Runner.HEARTBEAT).isEqualTo(Duration.ofSeconds(90));
        assertThat(Phase2Runner.JOB_LEASE).isEqualTo(Duration.ofHours(1));
    }
}
