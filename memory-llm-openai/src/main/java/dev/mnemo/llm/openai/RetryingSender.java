package dev.mnemo.llm.openai;

import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.RateLimitSnapshot;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts JSON to the server, retrying rate limits, time-outs, server and network errors with
 * backoff, and remembering the rate-limit headers of the latest answer. Thread-safe.
 */
final class RetryingSender {

    private static final Logger LOG = LoggerFactory.getLogger(RetryingSender.class);
    private static final String USER_AGENT = "mnemo-llm-openai";

    private final ClientSettings settings;
    private final HttpClient http;
    private final Backoff backoff;
    private final Sleeper sleeper;
    private final ErrorMapping errors;
    private final AtomicReference<Optional<RateLimitSnapshot>> rateLimits = new AtomicReference<>(Optional.empty());

    RetryingSender(ClientSettings settings, HttpClient http, Backoff backoff, Sleeper sleeper) {
        this.settings = settings;
        this.http = http;
        this.backoff = backoff;
        this.sleeper = sleeper;
        this.errors = new ErrorMapping(settings.apiKey());
    }

    /** The rate-limit figures of the latest answer, if it had any. */
    Optional<RateLimitSnapshot> rateLimits() {
        return rateLimits.get();
    }

    /**
     * Posts {@code json} to {@code endpoint} and returns the body of the first 2xx answer.
     *
     * @throws ModelException when the server refuses, or retries run out
     */
    String post(URI endpoint, String json) {
        HttpRequest request = request(endpoint, json);
        for (int attempt = 0; ; attempt++) {
            ModelException failure;
            Optional<Duration> retryAfter = Optional.empty();
            boolean retryable;
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
                rateLimits.set(RateLimitHeaders.read(response.statusCode(), response.headers()));
                int status = response.statusCode();
                if (status >= 200 && status < 300) {
                    return response.body();
                }
                ErrorMapping.HttpFailure httpFailure = errors.fromHttp(endpoint, status, response.body());
                failure = httpFailure.exception();
                retryable = httpFailure.retryable();
                retryAfter = backoff.retryAfter(response.headers());
            } catch (IOException e) {
                failure = errors.fromIo(endpoint, e);
                retryable = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ModelException(ModelException.Reason.NETWORK, "interrupted while waiting for " + endpoint, e);
            }
            if (!retryable) {
                LOG.debug("Not retrying {}: {}", endpoint, failure.getMessage());
                throw failure;
            }
            if (attempt >= settings.maxRetries()) {
                throw gaveUp(failure, attempt + 1);
            }
            Duration wait = retryAfter.isPresent() ? retryAfter.get() : backoff.exponential(attempt);
            if (wait.compareTo(Backoff.MAX_RETRY_AFTER) > 0) {
                LOG.warn("{} asks to wait {} s before retrying, longer than {} s; giving up now", endpoint,
                        wait.toSeconds(), Backoff.MAX_RETRY_AFTER.toSeconds());
                throw failure;
            }
            LOG.warn("Retry {} of {} for {} in {} ms after: {}", attempt + 1, settings.maxRetries(), endpoint,
                    wait.toMillis(), failure.getMessage());
            sleep(wait, failure);
        }
    }

    private void sleep(Duration wait, ModelException failure) {
        try {
            sleeper.sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ModelException(failure.reason(), "interrupted while waiting to retry: " + failure.getMessage(), e);
        }
    }

    private static ModelException gaveUp(ModelException failure, int attempts) {
        if (attempts == 1) {
            return failure;
        }
        return new ModelException(failure.reason(), failure.getMessage() + " (gave up after " + attempts + " attempts)",
                failure.getCause());
    }

    private HttpRequest request(URI endpoint, String json) {
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint)
                .timeout(settings.requestTimeout())
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .header("User-Agent", USER_AGENT)
                .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8));
        if ("http".equalsIgnoreCase(endpoint.getScheme())) {
            // Plain-HTTP local servers gain nothing from an h2c upgrade attempt, and some mishandle it.
            b.version(HttpClient.Version.HTTP_1_1);
        }
        if (!settings.apiKey().isEmpty()) {
            if (settings.azure()) {
                b.header("api-key", settings.apiKey());
            } else {
                b.header("Authorization", "Bearer " + settings.apiKey());
            }
        }
        settings.headers().forEach(b::header);
        return b.build();
    }
}
