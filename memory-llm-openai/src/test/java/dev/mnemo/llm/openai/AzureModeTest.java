package dev.mnemo.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.llm.openai.FakeOpenAiServer.Reply;
import dev.mnemo.llm.openai.OpenAiLanguageModel.Api;
import java.net.URI;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AzureModeTest {

    private final FakeOpenAiServer server = FakeOpenAiServer.start();

    @AfterEach
    void stop() {
        server.close();
    }

    private URI deployment() {
        return URI.create(server.baseUrl().toString().replace("/v1", "/openai/deployments/gpt-4o-mini/"));
    }

    @Test
    void chat_sendsApiKeyHeaderAndApiVersionToTheDeployment() {
        server.enqueue(Reply.fixture(200, "chat/text.json"));
        OpenAiLanguageModel model = OpenAiLanguageModel.builder().baseUrl(deployment()).apiKey(TestRequests.API_KEY)
                .model("gpt-4o-mini").azure("2024-10-21").build();

        String text = model.respond(TestRequests.hello()).text();

        FakeOpenAiServer.Recorded sent = server.lastRequest();
        assertThat(text).startsWith("The user fixed");
        assertThat(sent.path()).isEqualTo("/openai/deployments/gpt-4o-mini/chat/completions");
        assertThat(sent.query()).isEqualTo("api-version=2024-10-21");
        assertThat(sent.header("api-key")).isEqualTo(TestRequests.API_KEY);
        assertThat(sent.header("Authorization")).isNull();
    }

    @Test
    void responses_goToTheResourceResponsesPathWithApiVersion() {
        server.enqueue(Reply.fixture(200, "responses/text.json"));
        URI resource = URI.create(server.baseUrl().toString().replace("/v1", "/openai"));
        OpenAiLanguageModel model = OpenAiLanguageModel.builder().baseUrl(resource).apiKey(TestRequests.API_KEY)
                .model("my-gpt41-deployment").api(Api.RESPONSES).azure("2025-04-01-preview").build();

        model.respond(TestRequests.hello());

        FakeOpenAiServer.Recorded sent = server.lastRequest();
        assertThat(sent.path()).isEqualTo("/openai/responses");
        assertThat(sent.query()).isEqualTo("api-version=2025-04-01-preview");
        assertThat(sent.header("api-key")).isEqualTo(TestRequests.API_KEY);
        assertThat(sent.json().get("model").asText()).isEqualTo("my-gpt41-deployment");
    }

    @Test
    void build_rejectsExtraApiKeyHeaderAlongsideAnApiKey() {
        assertThatThrownBy(() -> OpenAiLanguageModel.builder().baseUrl(deployment()).apiKey("k").model("m")
                .azure("2024-10-21").header("API-KEY", "other").build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("extra header api-key conflicts with the API key");
    }
}
