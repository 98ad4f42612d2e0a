package dev.mnemo.it;

import dev.mnemo.testkit.TestClock;
import java.time.Instant;

/** A clock tests move by hand, so leases, idle windows and cooldowns pass without sleeping. */
final class MutableClock extends TestClock {

    MutableClock(Instant start) {
        super(start);
    }
}
