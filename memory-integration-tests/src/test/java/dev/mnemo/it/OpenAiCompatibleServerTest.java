package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.mnemo.MemoryEngine;
import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.llm.openai.OpenAiLanguageModel;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@link OpenAiLanguageModel}, configured with {@code fromEnvironment} as a user would for
 * Ollama or vLLM, driving Phase 1 and the default consolidation agent over HTTP against an
 * in-process server that speaks the Chat Completions wire format. The server's answers are
 * scripted: this proves the client, the extractor and the agent loop work together on the wire.
 */
class OpenAiCompatibleServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path home;

    private HttpServer server;
    private final List<JsonNode> received = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", this::answer);
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    @Test
    void phase1AndTheDefaultAgentRunEndToEndOverChatCompletions() throws Exception {
        OpenAiLanguageModel model = OpenAiLanguageModel.fromEnvironment(Map.of(
                "MNEMO_MODEL", "local-model",
                "OPENAI_BASE_URL", "http://127.0.0.1:" + server.getAddress().getPort() + "/v1",
                "MNEMO_CONTEXT_WINDOW", "32768"));
        MutableClock clock = new MutableClock(Pipeline.T0);
        try (MemoryEngine engine = MemoryEngine.builder().home(home).model(model).clock(clock).build()) {
            String id = Pipeline.uuidV7(clock.instant());
            try (RecordedSession s = engine.sessions().start(SessionContext.root(id))) {
                s.userMessage("our CI runs on two cores; keep test runs under ten minutes");
                s.assistantMessage("Noted.");
            }
            clock.advance(Duration.ofHours(7));

            Phase1Report phase1 = engine.admin().runPhase1("current-thread");
            assertThat(phase1.succeeded()).isEqualTo(1);
            assertThat(phase1.usage().inputTokens()).isEqualTo(12);
            assertThat(engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);

            assertThat(Files.readString(home.resolve("memories/memory_summary.md"))).startsWith("v1\n");
            assertThat(engine.buildDeveloperInstructions()).contains("CI has two cores");
        }
        JsonNode extraction = received.get(0);
        assertThat(extraction.get("model").asText()).isEqualTo("local-model");
        assertThat(extraction.at("/response_format/type").asText()).isEqualTo("json_schema");
        assertThat(extraction.at("/response_format/json_schema/strict").asBoolean()).isTrue();
        assertThat(extraction.get("reasoning_effort").asText()).isEqualTo("low");
        JsonNode secondAgentTurn = received.get(2);
        assertThat(secondAgentTurn.get("tools").size()).isEqualTo(7);
        JsonNode lastMessage = secondAgentTurn.get("messages").get(secondAgentTurn.get("messages").size() - 1);
        assertThat(lastMessage.get("role").asText()).isEqualTo("tool");
        assertThat(lastMessage.get("tool_call_id").asText()).isEqualTo("call_w2");
    }

    private void answer(HttpExchange exchange) throws IOException {
        JsonNode request = JSON.readTree(exchange.getRequestBody());
        received.add(request);
        ObjectNode message = JSON.createObjectNode().put("role", "assistant");
        String finish = "stop";
        if (request.has("response_format")) {
            message.put("content", ScriptedModel.reply("- CI has two cores; keep test runs under 10 minutes",
                    "# CI constraints", "ci-limits"));
        } else {
            JsonNode messages = request.get("messages");
            String lastRole = messages.get(messages.size() - 1).get("role").asText();
            if (lastRole.equals("tool")) {
                message.put("content", "done");
            } else {
                message.putNull("content");
                ArrayNode calls = message.putArray("tool_calls");
                call(calls, "call_w1", "MEMORY.md", "# Task Group: CI\n- CI has two cores\n");
                call(calls, "call_w2", "memory_summary.md", "v1\n\n## User Profile\n- CI has two cores\n");
                finish = "tool_calls";
            }
        }
        ObjectNode body = JSON.createObjectNode().put("id", "chatcmpl-1").put("object", "chat.completion")
                .put("model", request.get("model").asText());
        body.putArray("choices").addObject().put("index", 0).put("finish_reason", finish).set("message", message);
        body.putObject("usage").put("prompt_tokens", 12).put("completion_tokens", 5).put("total_tokens", 17);
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static void call(ArrayNode calls, String id, String path, String content) {
        ObjectNode call = calls.addObject().put("id", id).put("type", "function");
        call.putObject("function").put("name", "write_file").put("arguments",
                "{\"path\":" + ScriptedModel.json(path) + ",\"content\":" + ScriptedModel.json(content) + "}");
    }

}
