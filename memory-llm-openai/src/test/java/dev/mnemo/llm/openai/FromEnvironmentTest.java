package dev.mnemo.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.llm.openai.FakeOpenAiServer.Reply;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class FromEnvironmentTest {

    private final FakeOpenAiServer server = FakeOpenAiServer.start();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void fromEnvironment_talksChatCompletionsToTheBaseUrlWithTheKeyAndModel() {
        server.enqueue(Reply.fixture(200, "chat/text.json"));
        OpenAiLanguageModel model = OpenAiLanguageModel.fromEnvironment(Map.of(
                "OPENAI_API_KEY", TestRequests.API_KEY,
                "OPENAI_BASE_URL", server.baseUrl().toString(),
                "MNEMO_MODEL", "qwen2.5:14b"));

        model.respond(TestRequests.hello());

        FakeOpenAiServer.Recorded sent = server.lastRequest();
        assertThat(sent.path()).isEqualTo("/v1/chat/completions");
        assertThat(sent.header("Authorization")).isEqualTo("Bearer " + TestRequests.API_KEY);
        assertThat(sent.json().get("model").asText()).isEqualTo("qwen2.5:14b");
    }

    @Test
    void fromEnvironment_selectsResponsesApi() {
        server.enqueue(Reply.fixture(200, "responses/text.json"));
        OpenAiLanguageModel model = OpenAiLanguageModel.fromEnvironment(Map.of(
                "OPENAI_API_KEY", TestRequests.API_KEY,
                "OPENAI_BASE_URL", server.baseUrl() + "/",
                "MNEMO_MODEL", "gpt-4.1",
                "MNEMO_MODEL_API", "responses"));

        model.respond(TestRequests.hello());

        assertThat(server.lastRequest().path()).isEqualTo("/v1/responses");
    }

    @Test
    void fromEnvironment_needsNoKeyForALocalServerAndSendsNoCredentials() {
        server.enqueue(Reply.fixture(200, "chat/text.json"));
        OpenAiLanguageModel model = OpenAiLanguageModel.fromEnvironment(Map.of(
                "OPENAI_BASE_URL", server.baseUrl().toString(), "MNEMO_MODEL", "llama3.1"));

        model.respond(TestRequests.hello());

        assertThat(server.lastRequest().header("Authorization")).isNull();
    }

    @Test
    void fromEnvironment_defaultsToThePublicEndpointAndChatCompletions() {
        OpenAiLanguageModel model = OpenAiLanguageModel.fromEnvironment(Map.of(
                "OPENAI_API_KEY", TestRequests.API_KEY, "MNEMO_MODEL", "gpt-4.1-mini"));

        assertThat(model.toString()).contains("endpoint=https://api.openai.com/v1/chat/completions")
                .contains("api=CHAT_COMPLETIONS").contains("model=gpt-4.1-mini");
    }

    @Test
    void fromEnvironment_entersAzureModeWithOpenAiApiVersion() {
        server.enqueue(Reply.fixture(200, "chat/text.json"));
        OpenAiLanguageModel model = OpenAiLanguageModel.fromEnvironment(Map.of(
                "OPENAI_API_KEY", TestRequests.API_KEY, "OPENAI_BASE_URL", server.baseUrl().toString(),
                "MNEMO_MODEL", "gpt-4o", "OPENAI_API_VERSION", "2024-10-21"));

        model.respond(TestRequests.hello());

        assertThat(server.lastRequest().query()).isEqualTo("api-version=2024-10-21");
        assertThat(server.lastRequest().header("api-key")).isEqualTo(TestRequests.API_KEY);
    }

    @Test
    void fromEnvironment_requiresModel() {
        assertThatThrownBy(() -> OpenAiLanguageModel.fromEnvironment(Map.of("OPENAI_API_KEY", "k")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("MNEMO_MODEL is not set");
    }

    @Test
    void fromEnvironment_requiresKeyForThePublicEndpoint() {
        assertThatThrownBy(() -> OpenAiLanguageModel.fromEnvironment(Map.of("MNEMO_MODEL", "gpt-4.1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("OPENAI_API_KEY is not set");
    }

    @Test
    void fromEnvironment_rejectsUnknownApiNamingTheVariable() {
        assertThatThrownBy(() -> OpenAiLanguageModel.fromEnvironment(Map.of(
                "OPENAI_API_KEY", "k", "MNEMO_MODEL", "m", "MNEMO_MODEL_API", "completions")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("MNEMO_MODEL_API must be 'chat' or 'responses', was 'completions'");
    }

    @Test
    void fromEnvironment_rejectsMalformedBaseUrlNamingIt() {
        assertThatThrownBy(() -> OpenAiLanguageModel.fromEnvironment(Map.of(
                "MNEMO_MODEL", "m", "OPENAI_BASE_URL", "localhost:11434/v1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("OPENAI_BASE_URL: baseUrl must be an absolute http(s) URL, was localhost:11434/v1");
    }

    @Test
    void fromEnvironment_readsTheContextWindowForPhase1sBudget() {
        OpenAiLanguageModel model = OpenAiLanguageModel.fromEnvironment(Map.of("MNEMO_MODEL", "llama3.1",
                "OPENAI_BASE_URL", "http://127.0.0.1:1/v1", "MNEMO_CONTEXT_WINDOW", "32768"));
        assertThat(model.contextWindowTokens()).hasValue(32768);
        assertThat(OpenAiLanguageModel.fromEnvironment(Map.of("MNEMO_MODEL", "m", "OPENAI_BASE_URL",
                "http://127.0.0.1:1/v1")).contextWindowTokens()).isEmpty();
        assertThatThrownBy(() -> OpenAiLanguageModel.fromEnvironment(Map.of("MNEMO_MODEL", "m", "OPENAI_BASE_URL",
                "http://127.0.0.1:1/v1", "MNEMO_CONTEXT_WINDOW", "lots")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("MNEMO_CONTEXT_WINDOW");
    }
}
