package dev.mnemo.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelException.Reason;
import dev.mnemo.llm.openai.FakeOpenAiServer.Reply;
import dev.mnemo.llm.openai.OpenAiLanguageModel.Api;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RetryTest {

    private static final Reply RATE_LIMITED = Reply.fixture(429, "errors/rate-limit.json");
    private static final Reply SERVER_ERROR = Reply.fixture(500, "errors/server-error.json");
    private static final Reply OK = Reply.fixture(200, "chat/text.json");

    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final List<Duration> waits = new ArrayList<>();

    @AfterEach
    void stop() {
        server.close();
    }

    private OpenAiLanguageModel.Builder client() {
        return TestRequests.clientFor(server, Api.CHAT_COMPLETIONS, waits);
    }

    @Test
    void rateLimit_isRetriedAfterRetryAfterSeconds() {
        server.enqueue(RATE_LIMITED.withHeader("Retry-After", "3")).enqueue(OK);

        String text = client().build().respond(TestRequests.hello()).text();

        assertThat(text).startsWith("The user fixed");
        assertThat(server.requests()).hasSize(2);
        assertThat(waits).containsExactly(Duration.ofSeconds(3));
    }

    @Test
    void retryAfterAsHttpDate_isMeasuredAgainstTheClock() {
        Clock clock = Clock.fixed(Instant.parse("2026-03-01T10:00:00Z"), ZoneOffset.UTC);
        server.enqueue(RATE_LIMITED.withHeader("Retry-After", "Sun, 01 Mar 2026 10:00:07 GMT")).enqueue(OK);

        client().clock(clock).build().respond(TestRequests.hello());

        assertThat(waits).containsExactly(Duration.ofSeconds(7));
    }

    @Test
    void retryAfterMs_takesPrecedenceOverRetryAfter() {
        server.enqueue(SERVER_ERROR.withHeader("retry-after-ms", "1250").withHeader("Retry-After", "2")).enqueue(OK);

        client().build().respond(TestRequests.hello());

        assertThat(waits).containsExactly(Duration.ofMillis(1250));
    }

    @Test
    void serverErrors_backOffExponentiallyThenGiveUpAfterMaxRetries() {
        server.enqueue(SERVER_ERROR).enqueue(SERVER_ERROR).enqueue(SERVER_ERROR).enqueue(SERVER_ERROR).enqueue(OK);

        ModelException e = catchThrowableOfType(ModelException.class,
                () -> client().maxRetries(3).build().respond(TestRequests.hello()));

        assertThat(e.reason()).isEqualTo(Reason.SERVER);
        assertThat(e.getMessage()).contains("The server had an error").endsWith("(gave up after 4 attempts)");
        assertThat(server.requests()).hasSize(4);
        assertThat(waits).containsExactly(Duration.ofMillis(500), Duration.ofMillis(1000), Duration.ofMillis(2000));
    }

    @Test
    void backoff_isCappedAndJitterShortensTheWait() {
        for (int i = 0; i < 7; i++) {
            server.enqueue(SERVER_ERROR);
        }
        server.enqueue(OK);

        client().maxRetries(7).jitter(() -> 1.0).build().respond(TestRequests.hello());

        assertThat(waits).containsExactly(Duration.ofMillis(375), Duration.ofMillis(750), Duration.ofMillis(1500),
                Duration.ofMillis(3000), Duration.ofMillis(6000), Duration.ofMillis(6000), Duration.ofMillis(6000));
    }

    @Test
    void badRequest_isNeverRetried() {
        server.enqueue(Reply.fixture(400, "errors/invalid-schema.json")).enqueue(OK);

        ModelException e = catchThrowableOfType(ModelException.class,
                () -> client().maxRetries(5).build().respond(TestRequests.hello()));

        assertThat(e.reason()).isEqualTo(Reason.INVALID_REQUEST);
        assertThat(server.requests()).hasSize(1);
        assertThat(waits).isEmpty();
    }

    @Test
    void unauthorized_isNeverRetriedEvenWithRetryAfter() {
        server.enqueue(Reply.fixture(401, "errors/invalid-api-key.json").withHeader("Retry-After", "1")).enqueue(OK);

        ModelException e = catchThrowableOfType(ModelException.class,
                () -> client().maxRetries(5).build().respond(TestRequests.hello()));

        assertThat(e.reason()).isEqualTo(Reason.AUTHENTICATION);
        assertThat(server.requests()).hasSize(1);
        assertThat(waits).isEmpty();
    }

    @Test
    void contextWindowExceeded_isNeverRetried() {
        server.enqueue(Reply.fixture(400, "errors/context-length-exceeded.json")).enqueue(OK);

        ModelException e = catchThrowableOfType(ModelException.class, () -> client().build().respond(TestRequests.hello()));

        assertThat(e.reason()).isEqualTo(Reason.CONTEXT_WINDOW_EXCEEDED);
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void exhaustedQuota_isRateLimitedButNotRetried() {
        server.enqueue(Reply.fixture(429, "errors/insufficient-quota.json")).enqueue(OK);

        ModelException e = catchThrowableOfType(ModelException.class, () -> client().build().respond(TestRequests.hello()));

        assertThat(e.reason()).isEqualTo(Reason.RATE_LIMITED);
        assertThat(e.getMessage()).contains("You exceeded your current quota");
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void retryAfterLongerThanAMinute_failsAtOnce() {
        server.enqueue(RATE_LIMITED.withHeader("Retry-After", "600")).enqueue(OK);

        ModelException e = catchThrowableOfType(ModelException.class, () -> client().build().respond(TestRequests.hello()));

        assertThat(e.reason()).isEqualTo(Reason.RATE_LIMITED);
        assertThat(server.requests()).hasSize(1);
        assertThat(waits).isEmpty();
    }

    @Test
    void zeroMaxRetries_sendsOnce() {
        server.enqueue(RATE_LIMITED).enqueue(OK);

        ModelException e = catchThrowableOfType(ModelException.class,
                () -> client().maxRetries(0).build().respond(TestRequests.hello()));

        assertThat(e.reason()).isEqualTo(Reason.RATE_LIMITED);
        assertThat(e.getMessage()).doesNotContain("gave up");
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void timeouts_areRetried() {
        server.enqueue(Reply.hanging()).enqueue(OK);

        String text = client().requestTimeout(Duration.ofMillis(300)).build().respond(TestRequests.hello()).text();

        assertThat(text).startsWith("The user fixed");
        assertThat(server.requests()).hasSize(2);
        assertThat(waits).containsExactly(Duration.ofMillis(500));
    }

    @Test
    void networkErrors_areRetriedUpToMaxRetries() {
        URI deadUrl = server.baseUrl();
        server.close();

        ModelException e = catchThrowableOfType(ModelException.class, () -> OpenAiLanguageModel.builder()
                .baseUrl(deadUrl).model("m").maxRetries(2).sleeper(waits::add).jitter(() -> 0.0).build()
                .respond(TestRequests.hello()));

        assertThat(e.reason()).isEqualTo(Reason.NETWORK);
        assertThat(e.getMessage()).endsWith("(gave up after 3 attempts)");
        assertThat(waits).containsExactly(Duration.ofMillis(500), Duration.ofMillis(1000));
    }

    @Test
    void interruptDuringBackoff_stopsRetryingAndKeepsInterruptFlag() {
        server.enqueue(SERVER_ERROR).enqueue(OK);
        OpenAiLanguageModel model = client().sleeper(d -> {
            throw new InterruptedException("shutting down");
        }).build();

        ModelException e = catchThrowableOfType(ModelException.class, () -> model.respond(TestRequests.hello()));

        assertThat(Thread.interrupted()).isTrue();
        assertThat(e.reason()).isEqualTo(Reason.SERVER);
        assertThat(e.getMessage()).startsWith("interrupted while waiting to retry");
        assertThat(server.requests()).hasSize(1);
    }
}
