package dev.mnemo.internal.startup;

import dev.mnemo.llm.RateLimitSnapshot;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Codex's rate-limit guard: the pipeline spends tokens only while both rate-limit windows have more
 * than {@code min_rate_limit_remaining_percent} left. It fails open: no figures, no objection.
 */
final class RateLimitGuard {

    private RateLimitGuard() {}

    static boolean allowsStartup(Optional<RateLimitSnapshot> snapshot, int minRemainingPercent) {
        return snapshot.map(s -> allows(s, minRemainingPercent)).orElse(true);
    }

    static boolean allows(RateLimitSnapshot snapshot, int minRemainingPercent) {
        if (snapshot.limitReached()) {
            return false;
        }
        double maxUsed = 100 - Math.max(0, Math.min(100, minRemainingPercent));
        return within(snapshot.primaryUsedPercent(), maxUsed) && within(snapshot.secondaryUsedPercent(), maxUsed);
    }

    private static boolean within(OptionalDouble usedPercent, double maxUsed) {
        // Strictly below: Codex's tests deny a window at exactly 75 % used with the default 25 % floor.
        return usedPercent.isEmpty() || usedPercent.getAsDouble() < maxUsed;
    }
}
