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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class HeartbeatTest {

    @Test
    void extendsTheLeaseWithTheTokenUntilClosed() throws Exception {
        List<Object[]> beats = new CopyOnWriteArrayList<>();
        CountDownLatch three = new CountDownLatch(3);
        MemoryStore store = (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(),
                new Class<?>[] {MemoryStore.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("heartbeatPhase2Job")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    beats.add(args);
                    three.countDown();
                    return true;
                });
        Clock clock = Clock.fixed(Instant.parse("2026-11-01T00:00:00Z"), ZoneOffset.UTC);

        Heartbeat heartbeat = Heartbeat.start(store, "token-1", Duration.ofHours(1), Duration.ofMillis(5), clock);
        assertThat(three.await(10, TimeUnit.SECONDS)).isTrue();
        heartbeat.close();
        int afterClose = beats.size();

        assertThat(beats).allSatisfy(args -> {
            assertThat(args[0]).isEqualTo("token-1");
            assertThat(args[1]).isEqualTo(Duration.ofHours(1));
            assertThat(args[2]).isEqualTo(clock.instant());
        });
        // No beat starts after close (one already running may finish).
        assertThat(beats.size()).isLessThanOrEqualTo(afterClose + 1);
    }

    @Test
    void phase2HeartbeatIsCodexsNinetySeconds() {
        assertThat(Phase2Runner.HEARTBEAT).isEqualTo(Duration.ofSeconds(90));
        assertThat(Phase2Runner.JOB_LEASE).isEqualTo(Duration.ofHours(1));
    }
}
