package dev.mnemo.console;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Times as the console shows them: UTC to the minute, and how long ago or ahead. */
final class Times {

    private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
            .withZone(ZoneOffset.UTC);

    private Times() {}

    /** {@code 2026-11-01 09:00 UTC}. */
    static String format(Instant instant) {
        return MINUTE.format(instant);
    }

    /** {@code format(at)} with how far it is from {@code now}: {@code (3 h ago)}, {@code (in 20 min)}. */
    static String withDistance(Instant at, Instant now) {
        Duration distance = Duration.between(at, now);
        boolean past = !distance.isNegative();
        String span = span(distance.abs());
        return format(at) + (span.equals("now") ? " (now)" : past ? " (" + span + " ago)" : " (in " + span + ")");
    }

    /** {@code 45 s}, {@code 12 min}, {@code 3 h}, {@code 2 d}. */
    static String span(Duration duration) {
        long seconds = duration.toSeconds();
        if (seconds < 1) {
            return "now";
        }
        if (seconds < 90) {
            return seconds + " s";
        }
        if (seconds < 90 * 60) {
            return Math.round(seconds / 60.0) + " min";
        }
        if (seconds < 36 * 3_600) {
            return Math.round(seconds / 3_600.0) + " h";
        }
        return Math.round(seconds / 86_400.0) + " d";
    }
}
