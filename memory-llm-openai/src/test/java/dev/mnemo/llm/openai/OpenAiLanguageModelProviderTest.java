package dev.mnemo.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.LanguageModelProvider;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.openai.FakeOpenAiServer.Reply;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OpenAiLanguageModelProviderTest {

    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final OpenAiLanguageModelProvider provider = new OpenAiLanguageModelProvider();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void serviceLoader_findsProviderNamedOpenai() {
        assertThat(ServiceLoader.load(LanguageModelProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals("openai")).toList())
                .singleElement().isInstanceOf(OpenAiLanguageModelProvider.class);
    }

    @Test
    void create_appliesEverySettingLikeTheBuilder() {
        server.enqueue(Reply.fixture(500, "errors/server-error.json"));
        LanguageModel model = provider.create(Map.of(
                "baseUrl", server.baseUrl().toString(),
                "apiKey", TestRequests.API_KEY,
                "model", "gpt-4.1-mini",
                "api", "responses",
                "connectTimeout", "5",
                "requestTimeout", "PT2M",
                "maxRetries", "0",
                "sendReasoningEffort", "false",
                "header.OpenAI-Organization", "org-abc123"));

        assertThatThrownBy(() -> model.respond(TestRequests.toolLoop())).isInstanceOf(ModelException.class)
                .hasMessageNotContaining("gave up");

        FakeOpenAiServer.Recorded sent = server.lastRequest();
        assertThat(server.requests()).hasSize(1);
        assertThat(sent.path()).isEqualTo("/v1/responses");
        assertThat(sent.header("Authorization")).isEqualTo("Bearer " + TestRequests.API_KEY);
        assertThat(sent.header("OpenAI-Organization")).isEqualTo("org-abc123");
        assertThat(sent.json().get("model").asText()).isEqualTo("gpt-4.1-mini");
        assertThat(sent.json().has("reasoning")).isFalse();
    }

    @Test
    void create_readsKeyFromTheVariableNamedByApiKeyEnvAndAppliesAzure() {
        server.enqueue(Reply.fixture(200, "chat/text.json"));
        LanguageModel model = provider.create(Map.of("baseUrl", server.baseUrl().toString(), "model", "gpt-4o",
                "apiKeyEnv", "MY_AZURE_KEY", "azureApiVersion", "2024-10-21"),
                Map.of("MY_AZURE_KEY", TestRequests.API_KEY));

        model.respond(TestRequests.hello());

        assertThat(server.lastRequest().header("api-key")).isEqualTo(TestRequests.API_KEY);
        assertThat(server.lastRequest().query()).isEqualTo("api-version=2024-10-21");
    }

    @Test
    void create_rejectsUnknownKeyNamingIt() {
        assertThatThrownBy(() -> provider.create(Map.of("model", "m", "base_url", "http://localhost")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("unknown openai setting 'base_url'");
    }

    @Test
    void create_requiresModel() {
        assertThatThrownBy(() -> provider.create(Map.of("baseUrl", "http://localhost:11434/v1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'model' is required");
    }

    @Test
    void create_rejectsMalformedValuesNamingTheSetting() {
        assertThatThrownBy(() -> provider.create(Map.of("model", "m", "requestTimeout", "ten minutes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'requestTimeout'").hasMessageContaining("ten minutes");
        assertThatThrownBy(() -> provider.create(Map.of("model", "m", "maxRetries", "-1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("maxRetries must not be negative, was -1");
        assertThatThrownBy(() -> provider.create(Map.of("model", "m", "sendReasoningEffort", "yes")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'sendReasoningEffort'");
        assertThatThrownBy(() -> provider.create(Map.of("model", "m", "apiKeyEnv", "NOT_SET_ANYWHERE"), Map.of()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NOT_SET_ANYWHERE");
    }
}
