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

    /**
     * A clock standing at {@code start}.
     *
     * @param start the instant the clock shows until it is advanced; not null
     */
    public ManualClock(Instant start) {
        this.now = new AtomicReference<>(Objects.requireNonNull(start, "start"));
    }

    /**
     * Moves the clock forward (or back, for a negative duration).
     *
     * @param duration how far to move it; not null
     */
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
