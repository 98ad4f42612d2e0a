package dev.mnemo.llm.openai;

import dev.mnemo.llm.RateLimitSnapshot;
import java.net.http.HttpHeaders;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * Reads OpenAI's {@code x-ratelimit-limit-requests}, {@code x-ratelimit-remaining-requests},
 * {@code x-ratelimit-limit-tokens} and {@code x-ratelimit-remaining-tokens} headers into a
 * {@link RateLimitSnapshot}: primary = share of requests used, secondary = share of tokens used.
 */
final class RateLimitHeaders {

    private RateLimitHeaders() {}

    /**
     * The snapshot one answer reports; empty when it carries no rate-limit headers and is not a 429.
     * A limit counts as reached when a remaining figure is 0 or the status is 429.
     */
    static Optional<RateLimitSnapshot> read(int status, HttpHeaders headers) {
        OptionalLong limitRequests = number(headers, "x-ratelimit-limit-requests");
        OptionalLong remainingRequests = number(headers, "x-ratelimit-remaining-requests");
        OptionalLong limitTokens = number(headers, "x-ratelimit-limit-tokens");
        OptionalLong remainingTokens = number(headers, "x-ratelimit-remaining-tokens");
        boolean anyHeader = limitRequests.isPresent() || remainingRequests.isPresent() || limitTokens.isPresent()
                || remainingTokens.isPresent();
        if (!anyHeader && status != 429) {
            return Optional.empty();
        }
        boolean exhausted = isZero(remainingRequests) || isZero(remainingTokens);
        return Optional.of(new RateLimitSnapshot(usedPercent(limitRequests, remainingRequests),
                usedPercent(limitTokens, remainingTokens), exhausted || status == 429));
    }

    private static boolean isZero(OptionalLong value) {
        return value.isPresent() && value.getAsLong() <= 0;
    }

    private static OptionalDouble usedPercent(OptionalLong limit, OptionalLong remaining) {
        if (limit.isEmpty() || remaining.isEmpty() || limit.getAsLong() <= 0) {
            return OptionalDouble.empty();
        }
        double used = 100.0 * (limit.getAsLong() - remaining.getAsLong()) / limit.getAsLong();
        return OptionalDouble.of(Math.max(0.0, Math.min(100.0, used)));
    }

    private static OptionalLong number(HttpHeaders headers, String name) {
        Optional<String> value = headers.firstValue(name);
        if (value.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Math.round(Double.parseDouble(value.get().strip())));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
