package dev.mnemo.internal.startup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.llm.RateLimitSnapshot;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** Codex's {@code guard_tests.rs}. */
class RateLimitGuardTest {

    @Test
    void startupCheckUsesConfiguredRemainingThreshold() {
        RateLimitSnapshot s = snapshot(89.9, 50, false);
        assertThat(RateLimitGuard.allows(s, 10)).isTrue();
        assertThat(RateLimitGuard.allows(s, 11)).isFalse();
    }

    @Test
    void startupCheckSkipsWhenPrimaryOrSecondaryIsTooLow() {
        assertThat(RateLimitGuard.allows(snapshot(75, 10, false), 25)).isFalse();
        assertThat(RateLimitGuard.allows(snapshot(10, 75, false), 25)).isFalse();
        assertThat(RateLimitGuard.allows(snapshot(74.9, 74.9, false), 25)).isTrue();
    }

    @Test
    void startupCheckSkipsWhenLimitIsReached() {
        assertThat(RateLimitGuard.allows(snapshot(10, 10, true), 10)).isFalse();
    }

    @Test
    void missingFiguresFailOpen() {
        assertThat(RateLimitGuard.allowsStartup(Optional.empty(), 100)).isTrue();
        assertThat(RateLimitGuard.allows(new RateLimitSnapshot(OptionalDouble.empty(), OptionalDouble.empty(), false),
                100)).isTrue();
    }

    private static RateLimitSnapshot snapshot(double primary, double secondary, boolean reached) {
        return new RateLimitSnapshot(OptionalDouble.of(primary), OptionalDouble.of(secondary), reached);
    }
}
