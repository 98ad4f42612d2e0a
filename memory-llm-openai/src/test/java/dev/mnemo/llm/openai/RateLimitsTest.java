package dev.mnemo.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.RateLimitSnapshot;
import dev.mnemo.llm.openai.FakeOpenAiServer.Reply;
import dev.mnemo.llm.openai.OpenAiLanguageModel.Api;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RateLimitsTest {

    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final List<Duration> waits = new ArrayList<>();
    private final OpenAiLanguageModel model = TestRequests.clientFor(server, Api.RESPONSES, waits).maxRetries(0)
            .build();

    @AfterEach
    void stop() {
        server.close();
    }

    private static Reply withLimits(Reply reply, String limitRequests, String remainingRequests, String limitTokens,
            String remainingTokens) {
        return reply.withHeader("x-ratelimit-limit-requests", limitRequests)
                .withHeader("x-ratelimit-remaining-requests", remainingRequests)
                .withHeader("x-ratelimit-limit-tokens", limitTokens)
                .withHeader("x-ratelimit-remaining-tokens", remainingTokens)
                .withHeader("x-ratelimit-reset-requests", "1s")
                .withHeader("x-ratelimit-reset-tokens", "6m0s");
    }

    @Test
    void rateLimits_isEmptyBeforeAnyAnswer() {
        assertThat(model.rateLimits()).isEmpty();
    }

    @Test
    void rateLimits_reportsRequestsUsedAsPrimaryAndTokensUsedAsSecondary() {
        server.enqueue(withLimits(Reply.fixture(200, "responses/text.json"), "500", "400", "30000", "7500"));

        model.respond(TestRequests.hello());

        assertThat(model.rateLimits()).contains(
                new RateLimitSnapshot(OptionalDouble.of(20.0), OptionalDouble.of(75.0), false));
    }

    @Test
    void rateLimits_followTheLatestAnswer() {
        server.enqueue(withLimits(Reply.fixture(200, "responses/text.json"), "500", "499", "30000", "29000"));
        server.enqueue(withLimits(Reply.fixture(200, "responses/text.json"), "500", "250", "30000", "3000"));

        model.respond(TestRequests.hello());
        model.respond(TestRequests.hello());

        assertThat(model.rateLimits()).contains(
                new RateLimitSnapshot(OptionalDouble.of(50.0), OptionalDouble.of(90.0), false));
    }

    @Test
    void rateLimits_reportLimitReachedWhenARemainingFigureIsZero() {
        server.enqueue(withLimits(Reply.fixture(200, "responses/text.json"), "500", "120", "30000", "0"));

        model.respond(TestRequests.hello());

        assertThat(model.rateLimits()).contains(
                new RateLimitSnapshot(OptionalDouble.of(76.0), OptionalDouble.of(100.0), true));
    }

    @Test
    void rateLimits_reportLimitReachedAfterA429() {
        server.enqueue(withLimits(Reply.fixture(429, "errors/rate-limit.json"), "500", "100", "30000", "1000"));

        catchThrowableOfType(ModelException.class, () -> model.respond(TestRequests.hello()));

        assertThat(model.rateLimits()).contains(
                new RateLimitSnapshot(OptionalDouble.of(80.0), OptionalDouble.of(100.0 * 29000 / 30000), true));
    }

    @Test
    void rateLimits_reportLimitReachedAfterA429WithoutHeaders() {
        server.enqueue(Reply.fixture(429, "errors/rate-limit.json"));

        catchThrowableOfType(ModelException.class, () -> model.respond(TestRequests.hello()));

        assertThat(model.rateLimits()).contains(
                new RateLimitSnapshot(OptionalDouble.empty(), OptionalDouble.empty(), true));
    }

    @Test
    void rateLimits_isEmptyWhenTheServerSendsNoHeaders() {
        server.enqueue(Reply.fixture(429, "errors/rate-limit.json"));
        server.enqueue(Reply.fixture(200, "responses/text.json"));
        catchThrowableOfType(ModelException.class, () -> model.respond(TestRequests.hello()));

        model.respond(TestRequests.hello());

        assertThat(model.rateLimits()).isEmpty();
    }

    @Test
    void rateLimits_leaveOutAWindowWhoseHeadersAreMissingOrMalformed() {
        server.enqueue(Reply.fixture(200, "responses/text.json")
                .withHeader("x-ratelimit-limit-requests", "10000")
                .withHeader("x-ratelimit-remaining-requests", "9999")
                .withHeader("x-ratelimit-limit-tokens", "lots"));

        model.respond(TestRequests.hello());

        assertThat(model.rateLimits()).contains(
                new RateLimitSnapshot(OptionalDouble.of(0.01), OptionalDouble.empty(), false));
    }
}
