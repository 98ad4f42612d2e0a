package dev.mnemo.internal.consolidate;

import dev.mnemo.spi.MemoryStore;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Extends the Phase 2 lease every {@code interval} while the agent runs. */
final class Heartbeat implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Heartbeat.class);

    private final ScheduledExecutorService timer;

    private Heartbeat(ScheduledExecutorService timer) {
        this.timer = timer;
    }

    static Heartbeat start(MemoryStore store, String token, Duration lease, Duration interval, Clock clock) {
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "mnemo-phase2-heartbeat");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(() -> {
            try {
                if (!store.heartbeatPhase2Job(token, lease, clock.instant())) {
                    LOG.warn("memory phase-2 heartbeat: the job is no longer ours");
                }
            } catch (RuntimeException e) {
                LOG.warn("memory phase-2 heartbeat failed", e);
            }
        }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        return new Heartbeat(timer);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
