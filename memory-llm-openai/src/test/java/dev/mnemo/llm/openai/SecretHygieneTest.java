package dev.mnemo.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.openai.FakeOpenAiServer.Reply;
import dev.mnemo.llm.openai.OpenAiLanguageModel.Api;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The API key must never leave the client except in the credentials header. */
class SecretHygieneTest {

    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final List<Duration> waits = new ArrayList<>();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void toString_hidesKeyAndHeaderValues() {
        OpenAiLanguageModel model = TestRequests.clientFor(server, Api.RESPONSES, waits)
                .header("X-Proxy-Token", "proxy-secret-42").build();

        assertThat(model.toString()).doesNotContain(TestRequests.API_KEY).doesNotContain("proxy-secret-42")
                .contains("apiKey=***").contains("X-Proxy-Token");
    }

    @Test
    void logs_neverContainTheKeyThroughSuccessRetriesAndFailures() {
        server.enqueue(Reply.fixture(429, "errors/rate-limit.json").withHeader("Retry-After", "1"))
                .enqueue(Reply.fixture(200, "chat/text.json"))
                .enqueue(Reply.fixture(401, "errors/invalid-api-key.json"));
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            OpenAiLanguageModel model = TestRequests.clientFor(server, Api.CHAT_COMPLETIONS, waits).build();
            model.respond(TestRequests.hello());
            catchThrowableOfType(ModelException.class, () -> model.respond(TestRequests.hello()));
        } finally {
            System.setErr(original);
        }
        String log = captured.toString(StandardCharsets.UTF_8);

        assertThat(log).contains("Retry 1 of 2").contains("Built OpenAiLanguageModel").contains("Not retrying");
        assertThat(log).doesNotContain(TestRequests.API_KEY);
    }

    @Test
    void errorMessages_blankOutAKeyTheServerEchoes() {
        server.enqueue(Reply.json(401, "{\"error\":{\"message\":\"proxy rejected key " + TestRequests.API_KEY
                + "\",\"type\":\"auth\"}}"));

        ModelException e = catchThrowableOfType(ModelException.class, () -> TestRequests
                .clientFor(server, Api.CHAT_COMPLETIONS, waits).build().respond(TestRequests.hello()));

        assertThat(e.getMessage()).contains("proxy rejected key ***").doesNotContain(TestRequests.API_KEY);
    }
}
