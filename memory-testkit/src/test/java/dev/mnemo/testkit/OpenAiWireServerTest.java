package dev.mnemo.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class OpenAiWireServerTest {

    private final HttpClient http = HttpClient.newHttpClient();

    private HttpResponse<String> post(OpenAiWireServer server, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void plainRequest_getsTheQueuedTextAsACompletion_andIsRecorded() throws Exception {
        try (OpenAiWireServer server = OpenAiWireServer.start()) {
            server.enqueue(WireReply.text("hello"));

            HttpResponse<String> response = post(server, """
                    {"model":"m","messages":[{"role":"system","content":"sys"},{"role":"user","content":"hi"}],
                     "tools":[{"type":"function","function":{"name":"memories_search"}}]}""");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("\"content\":\"hello\"", "\"finish_reason\":\"stop\"",
                    "\"prompt_tokens\":10");
            WireRequest request = server.requests().get(0);
            assertThat(request.systemText()).isEqualTo("sys");
            assertThat(request.lastUserText()).isEqualTo("hi");
            assertThat(request.toolNames()).containsExactly("memories_search");
            assertThat(request.stream()).isFalse();
        }
    }

    @Test
    void streamingRequest_getsOneEventPerChunk_thenFinishUsageAndDone() throws Exception {
        try (OpenAiWireServer server = OpenAiWireServer.start()) {
            server.enqueue(WireReply.text("ab<c", "a", "b<", "c"));

            String body = post(server, """
                    {"model":"m","stream":true,"stream_options":{"include_usage":true},
                     "messages":[{"role":"user","content":"hi"}]}""").body();

            assertThat(body).contains("\"content\":\"a\"", "\"content\":\"b<\"", "\"content\":\"c\"",
                    "\"finish_reason\":\"stop\"", "\"completion_tokens\":5").endsWith("data: [DONE]\n\n");
            assertThat(body.indexOf("\"content\":\"b<\"")).isLessThan(body.indexOf("\"content\":\"c\""));
        }
    }

    @Test
    void toolCallReply_carriesTheCallAndFinishReasonToolCalls() throws Exception {
        try (OpenAiWireServer server = OpenAiWireServer.start()) {
            server.enqueue(WireReply.toolCall("call_1", "memories_read", "{\"path\":\"MEMORY.md\"}"));

            String body = post(server, "{\"model\":\"m\",\"messages\":[]}").body();

            assertThat(body).contains("\"id\":\"call_1\"", "\"name\":\"memories_read\"",
                    "\"finish_reason\":\"tool_calls\"");
        }
    }

    @Test
    void emptyQueueWithoutResponder_isAnOpenAiShapedServerError_namingTheRequest() throws Exception {
        try (OpenAiWireServer server = OpenAiWireServer.start()) {
            HttpResponse<String> response = post(server, "{\"model\":\"m\",\"messages\":[]}");

            assertThat(response.statusCode()).isEqualTo(500);
            assertThat(response.body()).contains("\"error\"", "no scripted reply left for request #1");
        }
    }

    @Test
    void responder_answersFromTheRequest() throws Exception {
        try (OpenAiWireServer server = OpenAiWireServer.start(request -> WireReply.text("echo " + request.lastUserText()))) {
            assertThat(post(server, "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}").body())
                    .contains("echo x");
        }
    }

    @Test
    void responsesRequest_getsOutputItemsAndUsage_andIsReadInItsOwnFormat() throws Exception {
        try (OpenAiWireServer server = OpenAiWireServer.start()) {
            server.enqueue(WireReply.toolCall("call_9", "memories_read", "{\"path\":\"MEMORY.md\"}"));

            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/responses"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("""
                            {"model":"m","instructions":"sys","input":[
                              {"type":"message","role":"user","content":"hi"},
                              {"type":"function_call","call_id":"call_1","name":"memories_read","arguments":"{}"},
                              {"type":"function_call_output","call_id":"call_1","output":"# Memory"}],
                             "tools":[{"type":"function","name":"memories_read"}],
                             "text":{"format":{"type":"json_schema","name":"s","strict":true,"schema":{"type":"object"}}}}
                            """)).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("\"type\":\"function_call\"", "\"call_id\":\"call_9\"",
                    "\"input_tokens\":10", "\"output_tokens\":5");
            WireRequest request = server.requests().get(0);
            assertThat(request.isResponses()).isTrue();
            assertThat(request.systemText()).isEqualTo("sys");
            assertThat(request.lastUserText()).isEqualTo("hi");
            assertThat(request.roles()).containsExactly("user", "assistant", "tool");
            assertThat(request.assistantToolCallIds()).containsExactly("call_1");
            assertThat(request.toolResultCallIds()).containsExactly("call_1");
            assertThat(request.toolOutputs()).containsExactly("# Memory");
            assertThat(request.toolNames()).containsExactly("memories_read");
            assertThat(request.responseFormatType()).isEqualTo("json_schema");
            assertThat(request.responseSchemaStrict()).isTrue();
            assertThat(request.responseSchema()).isEqualTo("{\"type\":\"object\"}");
        }
    }

    @Test
    void stall_holdsTheRequestUntilTheClientGivesUp() throws Exception {
        try (OpenAiWireServer server = OpenAiWireServer.start()) {
            server.enqueue(WireReply.stall());

            HttpRequest request = HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                    .timeout(Duration.ofMillis(300)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"messages\":[]}")).build();

            assertThatThrownBy(() -> http.send(request, HttpResponse.BodyHandlers.ofString()))
                    .isInstanceOf(HttpTimeoutException.class);
            assertThat(server.requests()).hasSize(1);
        }
    }
}
