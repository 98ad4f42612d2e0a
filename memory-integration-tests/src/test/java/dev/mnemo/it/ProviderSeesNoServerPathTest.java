package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.mnemo.MemoryEngine;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.llm.openai.OpenAiLanguageModel;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
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
 * Issue 36: no request a model provider receives names a path of the server. A full pipeline
 * (a recorded conversation, Phase 1, Phase 2 with the default tool-loop consolidation agent) runs
 * through the real OpenAI client against an in-process Chat Completions server, and every request
 * body, as bytes on the wire, is searched for the home folder and its own names. The agent reads
 * {@code raw_memories.md} (which names each {@code rollout_path}) and copies it into
 * {@code MEMORY.md}: it sees {@code <mnemo-home>/…}, and the file on disk gets the real path back.
 */
class ProviderSeesNoServerPathTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    private Path home;
    private HttpServer server;
    private final List<String> bodies = new CopyOnWriteArrayList<>();

    @BeforeEach
    void startServer() throws IOException {
        home = temp.resolve("alice-private-home");
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", this::answer);
        server.start();
    }

    @AfterEach
    void stopServer() {
        server.stop(0);
    }

    @Test
    void aFullPipelineRun_sendsNoServerPath_andTheAgentStillWorksWithThePathsItIsShown() throws Exception {
        OpenAiLanguageModel model = OpenAiLanguageModel.fromEnvironment(Map.of(
                "MNEMO_MODEL", "hosted-model",
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

            assertThat(engine.admin().runPhase1("current-thread").succeeded()).isEqualTo(1);
            assertThat(engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
        }

        assertThat(bodies).hasSizeGreaterThanOrEqualTo(4); // extraction, read, write, done
        for (String body : bodies) {
            assertThat(body).doesNotContain(home.toString()).doesNotContain(temp.toString())
                    .doesNotContain(home.getFileName().toString()).doesNotContain(temp.getFileName().toString());
        }
        assertThat(bodies.get(0)).as("phase 1 names the rollout inside the home").contains("<mnemo-home>/sessions/");
        assertThat(bodies.get(1)).as("the prompt names the memory root as '.'").contains("Memory root: `.`");
        assertThat(bodies.get(2)).as("raw_memories.md as the agent read it").contains("rollout_path: <mnemo-home>/sessions/");
        String memory = Files.readString(home.resolve("memories/MEMORY.md"));
        assertThat(memory).as("what the agent wrote back has the real path again")
                .contains("rollout_path: " + home.resolve("sessions")).doesNotContain("<mnemo-home>");
    }

    /** Extraction → a memory; the agent: read raw_memories.md, then copy it into MEMORY.md, then stop. */
    private void answer(HttpExchange exchange) throws IOException {
        byte[] raw = exchange.getRequestBody().readAllBytes();
        bodies.add(new String(raw, StandardCharsets.UTF_8));
        JsonNode request = JSON.readTree(raw);
        ObjectNode message = JSON.createObjectNode().put("role", "assistant");
        String finish = "stop";
        if (request.has("response_format")) {
            message.put("content", ScriptedModel.reply("- CI has two cores; keep test runs under 10 minutes",
                    "# CI constraints", "ci-limits"));
        } else {
            JsonNode messages = request.get("messages");
            JsonNode last = messages.get(messages.size() - 1);
            if (!last.get("role").asText().equals("tool")) {
                ArrayNode calls = message.putNull("content").putArray("tool_calls");
                call(calls, "call_r1", "read_file", JSON.createObjectNode().put("path", "raw_memories.md"));
                finish = "tool_calls";
            } else if (last.get("tool_call_id").asText().equals("call_r1")) {
                String read = JSON.readTree(last.get("content").asText()).path("content").asText();
                ArrayNode calls = message.putNull("content").putArray("tool_calls");
                call(calls, "call_w1", "write_file", JSON.createObjectNode().put("path", "MEMORY.md")
                        .put("content", "# Task Group: CI\n\n" + read));
                call(calls, "call_w2", "write_file", JSON.createObjectNode().put("path", "memory_summary.md")
                        .put("content", "v1\n\n## User Profile\n- CI has two cores\n"));
                finish = "tool_calls";
            } else {
                message.put("content", "done");
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

    private static void call(ArrayNode calls, String id, String tool, ObjectNode arguments) throws IOException {
        ObjectNode call = calls.addObject().put("id", id).put("type", "function");
        call.putObject("function").put("name", tool).put("arguments", JSON.writeValueAsString(arguments));
    }
}
