package dev.mnemo.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mnemo.llm.ContextOverflow;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelException.Reason;
import dev.mnemo.llm.openai.FakeOpenAiServer.Reply;
import dev.mnemo.llm.openai.OpenAiLanguageModel.Api;
import dev.mnemo.testkit.WireReply;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ErrorMappingTest {

    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final List<Duration> waits = new ArrayList<>();

    @AfterEach
    void stop() {
        server.close();
    }

    private ModelException failureFor(Api api, Reply reply) {
        server.enqueue(reply);
        OpenAiLanguageModel model = TestRequests.clientFor(server, api, waits).maxRetries(0).build();
        return catchThrowableOfType(ModelException.class, () -> model.respond(TestRequests.hello()));
    }

    private ModelException failureFor(Reply reply) {
        return failureFor(Api.CHAT_COMPLETIONS, reply);
    }

    @Test
    void status401_isAuthenticationWithServerMessage() {
        ModelException e = failureFor(Reply.fixture(401, "errors/invalid-api-key.json"));

        assertThat(e.reason()).isEqualTo(Reason.AUTHENTICATION);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage())
                .startsWith("HTTP 401 from " + server.baseUrl() + "/chat/completions: ")
                .contains("Incorrect API key provided: sk-test-***********cret")
                .contains("type invalid_request_error, code invalid_api_key");
    }

    @Test
    void status403_isAuthentication() {
        assertThat(failureFor(Reply.fixture(403, "errors/model-not-allowed.json")).reason())
                .isEqualTo(Reason.AUTHENTICATION);
    }

    @Test
    void status400_isInvalidRequestWithServerMessage() {
        ModelException e = failureFor(Reply.fixture(400, "errors/invalid-schema.json"));

        assertThat(e.reason()).isEqualTo(Reason.INVALID_REQUEST);
        assertThat(e.getMessage()).contains("Invalid schema for response_format 'stage_one_output'");
    }

    @Test
    void contextLengthExceededCode_isContextWindowExceeded() {
        ModelException e = failureFor(Reply.fixture(400, "errors/context-length-exceeded.json"));

        assertThat(e.reason()).isEqualTo(Reason.CONTEXT_WINDOW_EXCEEDED);
        assertThat(e.getMessage()).contains("maximum context length is 128000 tokens");
    }

    @Test
    void responsesContextWindowMessageWithoutCode_isContextWindowExceeded() {
        ModelException e = failureFor(Api.RESPONSES, Reply.fixture(400, "errors/responses-context-window.json"));

        assertThat(e.reason()).isEqualTo(Reason.CONTEXT_WINDOW_EXCEEDED);
        assertThat(e.getMessage()).contains("exceeds the context window");
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void contextLengthExceeded_keepsTheSizesForContextOverflowToRead(Api api) {
        ModelException e = failureFor(api, Reply.json(400, WireReply.contextLengthExceeded(8192, 9000).body()));

        assertThat(e.reason()).isEqualTo(Reason.CONTEXT_WINDOW_EXCEEDED);
        assertThat(ContextOverflow.of(e)).hasValue(new ContextOverflow(OptionalLong.of(8192), OptionalLong.of(9000)));
    }

    @Test
    void llamaCppContextSizeError_isContextWindowExceeded_withItsSizes() {
        ModelException e = failureFor(Reply.json(400, WireReply.contextSizeExceeded(4096, 4476).body()));

        assertThat(e.reason()).isEqualTo(Reason.CONTEXT_WINDOW_EXCEEDED);
        assertThat(ContextOverflow.of(e)).hasValue(new ContextOverflow(OptionalLong.of(4096), OptionalLong.of(4476)));
    }

    @Test
    void vllmTopLevelErrorAboutMaximumContextLength_isContextWindowExceeded() {
        ModelException e = failureFor(Reply.fixture(400, "errors/vllm-context-length.json"));

        assertThat(e.reason()).isEqualTo(Reason.CONTEXT_WINDOW_EXCEEDED);
        assertThat(e.getMessage()).contains("maximum context length is 4096 tokens").contains("type BadRequestError");
    }

    @Test
    void contentFilterCode_isContentFiltered() {
        ModelException e = failureFor(Reply.fixture(400, "errors/content-filter.json"));

        assertThat(e.reason()).isEqualTo(Reason.CONTENT_FILTERED);
        assertThat(e.getMessage()).contains("content management policy");
    }

    @Test
    void ollamaModelNotFound_isInvalidRequest() {
        ModelException e = failureFor(Reply.fixture(404, "errors/ollama-model-not-found.json"));

        assertThat(e.reason()).isEqualTo(Reason.INVALID_REQUEST);
        assertThat(e.getMessage()).contains("model \"llama9\" not found, try pulling it first");
    }

    @Test
    void status429_isRateLimited() {
        ModelException e = failureFor(Reply.fixture(429, "errors/rate-limit.json"));

        assertThat(e.reason()).isEqualTo(Reason.RATE_LIMITED);
        assertThat(e.retryable()).isTrue();
        assertThat(e.getMessage()).contains("Rate limit reached for gpt-4.1");
    }

    @Test
    void status408_isTimeout() {
        assertThat(failureFor(Reply.json(408, "{\"error\":{\"message\":\"Request timed out.\"}}")).reason())
                .isEqualTo(Reason.TIMEOUT);
    }

    @Test
    void status5xx_isServerWithServerMessage() {
        ModelException e = failureFor(Reply.fixture(500, "errors/server-error.json"));

        assertThat(e.reason()).isEqualTo(Reason.SERVER);
        assertThat(e.getMessage()).contains("The server had an error while processing your request");
    }

    @Test
    void plainStringErrorAndNonJsonBodiesKeepTheServerText() {
        assertThat(failureFor(Reply.fixture(503, "errors/llama-cpp-plain.json")).getMessage())
                .endsWith(": Loading model");
        assertThat(failureFor(Reply.json(502, "upstream connect error")).getMessage())
                .endsWith(": upstream connect error");
        assertThat(failureFor(Reply.json(500, "")).getMessage()).endsWith(": (empty body)");
    }

    @Test
    void refusedConnection_isNetwork() {
        URI deadUrl = server.baseUrl();
        server.close();
        OpenAiLanguageModel model = OpenAiLanguageModel.builder().baseUrl(deadUrl).model("m").maxRetries(0).build();

        ModelException e = catchThrowableOfType(ModelException.class, () -> model.respond(TestRequests.hello()));

        assertThat(e.reason()).isEqualTo(Reason.NETWORK);
        assertThat(e.getMessage()).startsWith("could not reach " + deadUrl + "/chat/completions");
        assertThat(e.getCause()).isInstanceOf(java.io.IOException.class);
    }

    @ParameterizedTest
    @EnumSource(Api.class)
    void serverThatDoesNotAnswerWithinRequestTimeout_isTimeout(Api api) {
        server.enqueue(Reply.hanging());
        OpenAiLanguageModel model = TestRequests.clientFor(server, api, waits).maxRetries(0)
                .requestTimeout(Duration.ofMillis(300)).build();

        ModelException e = catchThrowableOfType(ModelException.class, () -> model.respond(TestRequests.hello()));

        assertThat(e.reason()).isEqualTo(Reason.TIMEOUT);
        assertThat(e.getMessage()).startsWith("no answer from " + server.baseUrl());
    }

    @Test
    void chatAnswerWithErrorObjectInsteadOfChoices_isMappedByCode() {
        ModelException e = failureFor(Reply.json(200,
                "{\"error\":{\"message\":\"Rate limit exceeded upstream\",\"code\":\"rate_limit_exceeded\"}}"));

        assertThat(e.reason()).isEqualTo(Reason.RATE_LIMITED);
        assertThat(e.getMessage()).contains("Rate limit exceeded upstream");
    }
}
