package dev.mnemo.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.ReasoningEffort;
import dev.mnemo.llm.openai.FakeOpenAiServer.Recorded;
import dev.mnemo.llm.openai.FakeOpenAiServer.Reply;
import dev.mnemo.llm.openai.OpenAiLanguageModel.Api;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The reasoning parameter goes only where it works: a setting chooses or suppresses it, and a
 * model whose server rejects it (OpenAI's real 400 "Unsupported parameter") gets the request again
 * without it, and never again.
 */
class ReasoningEffortTest {

    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final List<Duration> waits = new ArrayList<>();

    @AfterEach
    void stop() {
        server.close();
    }

    /** Rejects any request carrying a reasoning parameter, as OpenAI does for gpt-4.1 models. */
    private static Reply nonReasoningChatModel(Recorded sent) {
        return sent.json().has("reasoning_effort") ? Reply.fixture(400, "errors/unsupported-reasoning-effort.json")
                : Reply.fixture(200, "chat/text.json");
    }

    private static Reply nonReasoningResponsesModel(Recorded sent) {
        return sent.json().has("reasoning") ? Reply.fixture(400, "errors/responses-unsupported-reasoning-effort.json")
                : Reply.fixture(200, "responses/text.json");
    }

    @Test
    void chatCompletions_retriesOnceWithoutReasoningEffortWhenTheModelRejectsIt() {
        server.respondWith(ReasoningEffortTest::nonReasoningChatModel);
        OpenAiLanguageModel model = TestRequests.clientFor(server, Api.CHAT_COMPLETIONS, waits).build();

        ModelResponse response = model.respond(TestRequests.structured());

        assertThat(response.text()).isNotEmpty();
        assertThat(server.requests()).hasSize(2);
        assertThat(server.requests().get(0).json().get("reasoning_effort").asText()).isEqualTo("low");
        assertThat(server.requests().get(1).json().has("reasoning_effort")).isFalse();
        assertThat(server.requests().get(1).json().get("messages"))
                .isEqualTo(server.requests().get(0).json().get("messages"));
        assertThat(waits).isEmpty();
    }

    @Test
    void chatCompletions_remembersTheRejectionForThatModelForTheClientsLifetime() {
        server.respondWith(ReasoningEffortTest::nonReasoningChatModel);
        OpenAiLanguageModel model = TestRequests.clientFor(server, Api.CHAT_COMPLETIONS, waits).build();
        model.respond(TestRequests.structured());

        model.respond(TestRequests.toolLoop());
        model.respond(TestRequests.structured());

        assertThat(server.requests()).hasSize(4);
        assertThat(server.requests().subList(2, 4)).allSatisfy(sent -> assertThat(sent.json().has("reasoning_effort"))
                .isFalse());
    }

    @Test
    void chatCompletions_stillSendsReasoningEffortToAnotherModelOfTheSameClient() {
        server.respondWith(sent -> sent.json().get("model").asText().equals("gpt-4.1")
                ? nonReasoningChatModel(sent) : Reply.fixture(200, "chat/text.json"));
        OpenAiLanguageModel model = TestRequests.clientFor(server, Api.CHAT_COMPLETIONS, waits).build();
        model.respond(TestRequests.structured());

        model.respond(TestRequests.structured().toBuilder().model("o4-mini").build());

        assertThat(server.lastRequest().json().get("reasoning_effort").asText()).isEqualTo("low");
    }

    @Test
    void responses_retriesOnceWithoutReasoningWhenTheModelRejectsIt() {
        server.respondWith(ReasoningEffortTest::nonReasoningResponsesModel);
        OpenAiLanguageModel model = TestRequests.clientFor(server, Api.RESPONSES, waits).build();

        ModelResponse response = model.respond(TestRequests.toolLoop());
        model.respond(TestRequests.toolLoop());

        assertThat(response.text()).isNotEmpty();
        assertThat(server.requests()).hasSize(3);
        assertThat(server.requests().get(0).json().at("/reasoning/effort").asText()).isEqualTo("high");
        assertThat(server.requests().get(1).json().has("reasoning")).isFalse();
        assertThat(server.requests().get(2).json().has("reasoning")).isFalse();
    }

    @Test
    void anotherBadRequestIsNotRetried() {
        server.enqueue(Reply.fixture(400, "errors/invalid-schema.json"));
        OpenAiLanguageModel model = TestRequests.clientFor(server, Api.CHAT_COMPLETIONS, waits).build();

        assertThatThrownBy(() -> model.respond(TestRequests.structured())).isInstanceOf(ModelException.class)
                .satisfies(e -> assertThat(((ModelException) e).reason())
                        .isEqualTo(ModelException.Reason.INVALID_REQUEST));
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void aRejectionOfARequestWithoutReasoningIsReportedNotRetried() {
        server.respondWith(sent -> Reply.fixture(400, "errors/unsupported-reasoning-effort.json"));
        OpenAiLanguageModel model = TestRequests.clientFor(server, Api.CHAT_COMPLETIONS, waits).build();

        assertThatThrownBy(() -> model.respond(TestRequests.hello())).isInstanceOf(ModelException.class)
                .hasMessageContaining("Unsupported parameter");
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void environmentSettingNone_sendsNoReasoningParameter() {
        server.enqueue(Reply.fixture(200, "chat/text.json"));
        OpenAiLanguageModel model = OpenAiLanguageModel.fromEnvironment(Map.of(
                "OPENAI_BASE_URL", server.baseUrl().toString(), "MNEMO_MODEL", "gpt-4.1-mini",
                "MNEMO_REASONING_EFFORT", "none"));

        model.respond(TestRequests.toolLoop());

        assertThat(server.requests()).hasSize(1);
        assertThat(server.lastRequest().json().has("reasoning_effort")).isFalse();
    }

    @Test
    void environmentSettingHigh_replacesTheRequestsOwnEffort() {
        server.enqueue(Reply.fixture(200, "responses/text.json"));
        OpenAiLanguageModel model = OpenAiLanguageModel.fromEnvironment(Map.of(
                "OPENAI_BASE_URL", server.baseUrl().toString(), "MNEMO_MODEL", "o4-mini",
                "MNEMO_MODEL_API", "responses", "MNEMO_REASONING_EFFORT", "HIGH"));

        model.respond(TestRequests.structured());

        assertThat(server.lastRequest().json().at("/reasoning/effort").asText()).isEqualTo("high");
    }

    @Test
    void environmentSettingThatIsNoEffort_isRejectedNamingTheVariable() {
        assertThatThrownBy(() -> OpenAiLanguageModel.fromEnvironment(Map.of(
                "OPENAI_BASE_URL", server.baseUrl().toString(), "MNEMO_MODEL", "m",
                "MNEMO_REASONING_EFFORT", "max")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("MNEMO_REASONING_EFFORT must be none, low, medium or high, was 'max'");
    }

    @Test
    void providerSetting_choosesTheEffortAndRejectsBadValuesAndConflicts() {
        server.enqueue(Reply.fixture(200, "chat/text.json"));
        OpenAiLanguageModelProvider provider = new OpenAiLanguageModelProvider();
        LanguageModel model = provider.create(Map.of("baseUrl", server.baseUrl().toString(), "model", "gpt-4.1",
                "reasoningEffort", "none"), Map.of());

        model.respond(TestRequests.toolLoop());

        assertThat(server.lastRequest().json().has("reasoning_effort")).isFalse();
        assertThatThrownBy(() -> provider.create(Map.of("model", "m", "reasoningEffort", "lots"), Map.of()))
                .hasMessageContaining("'reasoningEffort' must be none, low, medium or high");
        assertThatThrownBy(() -> provider.create(Map.of("model", "m", "reasoningEffort", "low",
                "sendReasoningEffort", "true"), Map.of()))
                .hasMessageContaining("both set");
    }

    @Test
    void builderSetting_isShownWithoutSecretsInToString() {
        OpenAiLanguageModel model = TestRequests.clientFor(server, Api.CHAT_COMPLETIONS, waits)
                .reasoningEffort(ReasoningEffort.NONE).build();

        assertThat(model.toString()).contains("reasoningEffort=NONE").doesNotContain(TestRequests.API_KEY);
    }
}
