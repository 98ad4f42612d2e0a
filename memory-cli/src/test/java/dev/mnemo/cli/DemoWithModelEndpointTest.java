package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code mnemo demo} with a model endpoint, end to end over HTTP: the CLI's real model factory
 * reads the environment, the real OpenAI client speaks Chat Completions to an in-process server
 * (scripted answers, not a real model), and afterwards {@code mnemo instructions} prints the summary.
 */
class DemoWithModelEndpointTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SUMMARY = "Spectora monorepo: run checks with pnpm; dashboards live in apps/web.";

    @TempDir
    Path temp;

    private ChatCompletionsServer server;
    private final AtomicInteger extractions = new AtomicInteger();
    private final AtomicInteger agentTurns = new AtomicInteger();

    @BeforeEach
    void startServer() {
        server = ChatCompletionsServer.start(this::answer);
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    private void answer(HttpExchange exchange) throws IOException {
        JsonNode request = JSON.readTree(exchange.getRequestBody());
        ObjectNode message = JSON.createObjectNode().put("role", "assistant");
        String finish = "stop";
        if (request.has("response_format")) {
            extractions.incrementAndGet();
            message.put("content", "{\"rollout_summary\":\"Worked on the Spectora dashboards.\","
                    + "\"rollout_slug\":\"dashboards\",\"raw_memory\":\"- checks run with pnpm\"}");
        } else if (lastRole(request).equals("tool")) {
            agentTurns.incrementAndGet();
            message.put("content", "Done.");
        } else {
            agentTurns.incrementAndGet();
            message.putNull("content");
            ArrayNode calls = message.putArray("tool_calls");
            call(calls, "c1", "MEMORY.md", "# Memory\n- checks: pnpm\n");
            call(calls, "c2", "memory_summary.md", "v1\n" + SUMMARY + "\n");
            finish = "tool_calls";
        }
        ObjectNode body = JSON.createObjectNode();
        body.putArray("choices").addObject().put("finish_reason", finish).set("message", message);
        body.putObject("usage").put("prompt_tokens", 50).put("completion_tokens", 10).put("total_tokens", 60);
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static String lastRole(JsonNode request) {
        JsonNode messages = request.path("messages");
        return messages.path(messages.size() - 1).path("role").asText();
    }

    private static void call(ArrayNode calls, String id, String path, String content) {
        ObjectNode call = calls.addObject().put("id", id).put("type", "function");
        ObjectNode args = JSON.createObjectNode().put("path", path).put("content", content);
        call.putObject("function").put("name", "write_file").put("arguments", args.toString());
    }

    private String[] run(Map<String, String> env, String... args) {
        MnemoCli cli = new MnemoCli(env, temp.resolve("user").toString(), MnemoCli::modelFromEnvironment);
        CommandLine commandLine = MnemoCli.commandLine(cli);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        int code = commandLine.execute(args);
        return new String[] {String.valueOf(code), out.toString(), err.toString()};
    }

    @Test
    void demo_withModelEndpoint_extractsAllSamplesAndLeavesASummaryThatInstructionsPrints() throws IOException {
        Map<String, String> env = Map.of("MNEMO_MODEL", "scripted-test-model",
                "OPENAI_BASE_URL", server.baseUrl());

        String[] demo = run(env, "demo");

        assertThat(demo[0]).as(demo[2]).isEqualTo("0");
        assertThat(demo[1]).contains("Phase 1: 5 claimed, 5 succeeded").contains("Phase 2: SUCCEEDED, 5 input(s)");
        assertThat(extractions.get()).isEqualTo(5);
        assertThat(agentTurns.get()).isEqualTo(2);
        Path home = temp.resolve("user/.mnemo-demo");
        assertThat(Files.readString(home.resolve("memories/memory_summary.md"), StandardCharsets.UTF_8))
                .startsWith("v1\n");
        String[] instructions = run(Map.of(), "--home", home.toString(), "instructions");
        assertThat(instructions[1]).contains(SUMMARY);
    }
}
