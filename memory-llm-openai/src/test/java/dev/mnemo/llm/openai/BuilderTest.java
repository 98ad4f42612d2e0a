package dev.mnemo.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.llm.openai.FakeOpenAiServer.Reply;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class BuilderTest {

    private final FakeOpenAiServer server = FakeOpenAiServer.start();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void build_requiresAModel() {
        assertThatThrownBy(() -> OpenAiLanguageModel.builder().build())
                .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("no model set");
    }

    @Test
    void setters_rejectBadValuesNamingThem() {
        OpenAiLanguageModel.Builder b = OpenAiLanguageModel.builder();
        assertThatThrownBy(() -> b.baseUrl(URI.create("ftp://example.com/v1")))
                .hasMessage("baseUrl must be an absolute http(s) URL, was ftp://example.com/v1");
        assertThatThrownBy(() -> b.baseUrl(URI.create("https://example.com/v1?x=1")))
                .hasMessage("baseUrl must not have a query string, was https://example.com/v1?x=1");
        assertThatThrownBy(() -> b.maxRetries(-1)).hasMessage("maxRetries must not be negative, was -1");
        assertThatThrownBy(() -> b.requestTimeout(Duration.ZERO)).hasMessage("requestTimeout must be positive, was PT0S");
        assertThatThrownBy(() -> b.connectTimeout(Duration.ofSeconds(-1)))
                .hasMessage("connectTimeout must be positive, was PT-1S");
        assertThatThrownBy(() -> b.model(" ")).hasMessage("model must not be blank");
        assertThatThrownBy(() -> b.header("Bad Header", "v")).hasMessage("not a valid HTTP header name: 'Bad Header'");
        assertThatThrownBy(() -> b.azure("")).hasMessage("Azure api-version must not be blank");
    }

    @Test
    void build_rejectsAuthorizationHeaderAlongsideAnApiKey() {
        assertThatThrownBy(() -> OpenAiLanguageModel.builder().model("m").apiKey("k")
                .header("authorization", "Bearer other").build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("Authorization");
    }

    @Test
    void extraHeaders_areSentWithEveryRequest() {
        server.enqueue(Reply.fixture(200, "chat/text.json")).enqueue(Reply.fixture(200, "chat/text.json"));
        OpenAiLanguageModel model = OpenAiLanguageModel.builder().baseUrl(server.baseUrl()).model("llama3.1")
                .header("X-Tenant", "team-a").header("Authorization", "Bearer proxy-token").build();

        model.respond(TestRequests.hello());
        model.respond(TestRequests.hello());

        assertThat(server.requests()).allSatisfy(sent -> {
            assertThat(sent.header("X-Tenant")).isEqualTo("team-a");
            assertThat(sent.header("Authorization")).isEqualTo("Bearer proxy-token");
            assertThat(sent.header("User-Agent")).isEqualTo("mnemo-llm-openai");
        });
    }
}
