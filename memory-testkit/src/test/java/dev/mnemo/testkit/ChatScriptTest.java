package dev.mnemo.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** {@link ChatScript}, {@link WireReply#delayed} and {@link ManualClock}, over real HTTP where it matters. */
class ChatScriptTest {

    private final HttpClient http = HttpClient.newHttpClient();

    private String post(OpenAiWireServer server, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void backgroundRequests_getFixedReplies_andNeverTakeAChatReply() throws Exception {
        ChatScript script = ChatScript.create().phase1Reply("{\"raw_memory\":\"x\"}");
        try (OpenAiWireServer server = OpenAiWireServer.start(script)) {
            script.enqueue(WireReply.text("chat answer"));

            String phase1 = post(server, """
                    {"model":"m","messages":[{"role":"user","content":"rollout"}],
                     "response_format":{"type":"json_schema","json_schema":{"name":"stage1_memory","schema":{}}}}""");
            String agent = post(server, """
                    {"model":"m","messages":[{"role":"user","content":"consolidate"}],
                     "tools":[{"type":"function","function":{"name":"list_files"}}]}""");
            assertThat(script.pending()).isEqualTo(1);
            String chat = post(server, "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
            String empty = post(server, "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

            assertThat(phase1).contains("raw_memory");
            assertThat(agent).contains("Nothing to consolidate");
            assertThat(chat).contains("chat answer");
            assertThat(empty).contains("no reply left");
            assertThat(server.requests()).extracting(ChatScript::isPhase1).containsExactly(true, false, false, false);
            assertThat(server.requests()).extracting(ChatScript::isConsolidation)
                    .containsExactly(false, true, false, false);
        }
    }

    @Test
    void aDelayedReply_arrivesAfterItsDelay() throws Exception {
        try (OpenAiWireServer server = OpenAiWireServer.start()) {
            server.enqueue(WireReply.delayed(Duration.ofMillis(200), WireReply.text("late")));
            long start = System.nanoTime();

            String body = post(server, "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

            assertThat(body).contains("late");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        }
    }

    @Test
    void manualClock_movesOnlyWhenAdvanced_andStaysInUtc() {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-01T09:00:00Z"));

        clock.advance(Duration.ofHours(7));

        assertThat(clock.instant()).isEqualTo(Instant.parse("2026-11-01T16:00:00Z"));
        assertThat(clock.withZone(java.time.ZoneId.of("Europe/Paris")).getZone()).isEqualTo(java.time.ZoneOffset.UTC);
    }
}
