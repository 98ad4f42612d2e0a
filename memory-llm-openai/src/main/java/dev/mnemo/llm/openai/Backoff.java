package dev.mnemo.llm.openai;

import java.net.http.HttpHeaders;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.function.DoubleSupplier;

/**
 * How long to wait before a retry: exponential backoff with jitter, or what the server's
 * {@code retry-after-ms} / {@code Retry-After} header asks for.
 */
final class Backoff {

    /** The wait before the first retry, doubled for each later one. */
    static final Duration INITIAL_DELAY = Duration.ofMillis(500);
    /** The longest computed wait. */
    static final Duration MAX_DELAY = Duration.ofSeconds(8);
    /** Up to this share of a computed wait is taken off at random, so clients do not retry in step. */
    static final double JITTER = 0.25;
    /** A server asking for a longer wait than this is not retried: the caller can try again later. */
    static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(60);

    private final DoubleSupplier jitter;
    private final Clock clock;

    Backoff(DoubleSupplier jitter, Clock clock) {
        this.jitter = jitter;
        this.clock = clock;
    }

    /** The computed wait before retry number {@code retry} (0 for the first retry). */
    Duration exponential(int retry) {
        long base = INITIAL_DELAY.toMillis() << Math.min(retry, 20);
        long capped = Math.min(base, MAX_DELAY.toMillis());
        double factor = 1.0 - JITTER * Math.min(Math.max(jitter.getAsDouble(), 0.0), 1.0);
        return Duration.ofMillis(Math.round(capped * factor));
    }

    /**
     * The wait the server asked for: {@code retry-after-ms} (milliseconds), else {@code Retry-After}
     * as seconds or as an HTTP date; empty when neither is present or readable.
     */
    Optional<Duration> retryAfter(HttpHeaders headers) {
        Optional<String> millis = headers.firstValue("retry-after-ms");
        if (millis.isPresent()) {
            try {
                return Optional.of(nonNegative(Duration.ofMillis(Math.round(Double.parseDouble(millis.get().strip())))));
            } catch (NumberFormatException e) {
                // fall through to Retry-After
            }
        }
        return headers.firstValue("retry-after").flatMap(this::parseRetryAfter);
    }

    private Optional<Duration> parseRetryAfter(String value) {
        String v = value.strip();
        try {
            return Optional.of(nonNegative(Duration.ofMillis(Math.round(Double.parseDouble(v) * 1000))));
        } catch (NumberFormatException notSeconds) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
                return Optional.of(nonNegative(Duration.between(clock.instant(), at.toInstant())));
            } catch (DateTimeParseException notDate) {
                return Optional.empty();
            }
        }
    }

    private static Duration nonNegative(Duration d) {
        return d.isNegative() ? Duration.ZERO : d;
    }
}
