package dev.mnemo.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** An idle engine holds no threads: what lets a server keep hundreds of tenants' engines open. */
class EnginePoolsTest {

    @Test
    void theStartupPoolsThreads_endOnceIdle() throws Exception {
        ThreadPoolExecutor pool = EnginePools.startupPool(Duration.ofMillis(20));
        try {
            pool.submit(() -> { }).get(30, TimeUnit.SECONDS);
            pool.submit(() -> { }).get(30, TimeUnit.SECONDS);
            assertThat(pool.getPoolSize()).isPositive();

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (pool.getPoolSize() > 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // waits for the pool's own timeout, not for the test's clock
            }

            assertThat(pool.getPoolSize()).isZero();
            assertThat(pool.getCorePoolSize()).as("still two at once when busy").isEqualTo(2);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theDefaultKeepAlive_isAMinute() {
        assertThat(EnginePools.IDLE_THREAD_KEEP_ALIVE).isEqualTo(Duration.ofSeconds(60));
    }
}
