package dev.mnemo.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * A UTC clock a test moves by hand, so leases, idle windows, cooldowns and time-outs pass without
 * sleeping: hand it to {@code MemoryEngine.builder().clock(..)} (or to any part that takes a
 * {@link Clock}) and call {@link #advance}. Thread-safe.
 */
public class TestClock extends Clock {

    private volatile Instant now;

    /**
     * A clock standing at {@code start}.
     *
     * @param start the instant the clock shows until it is moved; not null
     */
    public TestClock(Instant start) {
        this.now = Objects.requireNonNull(start, "start");
    }

    /**
     * Moves the clock forward (or back, for a negative duration) by {@code by}.
     *
     * @param by how far to move it; not null
     */
    public synchronized void advance(Duration by) {
        Objects.requireNonNull(by, "by");
        now = now.plus(by);
    }

    /**
     * Puts the clock at {@code instant}.
     *
     * @param instant the instant the clock shows from now on; not null
     */
    public void set(Instant instant) {
        now = Objects.requireNonNull(instant, "instant");
    }

    @Override
    public Instant instant() {
        return now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a TestClock is UTC only");
    }
}
