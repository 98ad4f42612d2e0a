package dev.mnemo.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A UTC clock a test moves by hand: give it to {@code MemoryEngine.Builder.clock(..)} and
 * {@link #advance} past the idle window instead of waiting for it. Thread-safe.
 */
public final class ManualClock extends Clock {

    private final AtomicReference<Instant> now;

    public ManualClock(Instant start) {
        this.now = new AtomicReference<>(Objects.requireNonNull(start, "start"));
    }

    /** Moves the clock forward (or back, for a negative duration). */
    public void advance(Duration duration) {
        Objects.requireNonNull(duration, "duration");
        now.updateAndGet(t -> t.plus(duration));
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    /** Always UTC: the engine keeps every time in UTC. */
    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
