package dev.mnemo.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An in-process OpenAI-compatible Chat Completions endpoint with scripted answers (not a real
 * model), for tests that run the CLI's real OpenAI client: an extraction request (it carries a
 * {@code response_format}) gets a fixed memory, or with {@link #malformedExtractions} text that is
 * not the schema's JSON; the consolidation agent's first turn writes {@code MEMORY.md} and
 * {@code memory_summary.md}, its next turn ends.
 */
final class ScriptedChatServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    final AtomicInteger extractions = new AtomicInteger();
    final AtomicInteger agentTurns = new AtomicInteger();
    private final String summary;
    private final ChatCompletionsServer server;
    private volatile boolean malformedExtractions;

    /** Starts serving on a free loopback port; {@code summary} is the summary line the agent writes. */
    ScriptedChatServer(String summary) {
        this.summary = summary;
        this.server = ChatCompletionsServer.start(this::answer);
    }

    /** From now on, extractions get an answer that is not the output schema's JSON (a failed extraction). */
    ScriptedChatServer malformedExtractions() {
        malformedExtractions = true;
        return this;
    }

    /** The environment that points the CLI's model at this server. */
    Map<String, String> environment() {
        return Map.of("MNEMO_MODEL", "scripted-test-model", "OPENAI_BASE_URL", server.baseUrl());
    }

    @Override
    public void close() {
        server.close();
    }

    private void answer(HttpExchange exchange) throws IOException {
        JsonNode request = JSON.readTree(exchange.getRequestBody());
        ObjectNode message = JSON.createObjectNode().put("role", "assistant");
        String finish = "stop";
        if (request.has("response_format")) {
            extractions.incrementAndGet();
            message.put("content", malformedExtractions ? "Sorry, I cannot produce JSON today."
                    : "{\"rollout_summary\":\"Worked on the Spectora dashboards.\","
                            + "\"rollout_slug\":\"dashboards\",\"raw_memory\":\"- checks run with pnpm\"}");
        } else if (lastRole(request).equals("tool")) {
            agentTurns.incrementAndGet();
            message.put("content", "Done.");
        } else {
            agentTurns.incrementAndGet();
            message.putNull("content");
            ArrayNode calls = message.putArray("tool_calls");
            call(calls, "c1", "MEMORY.md", "# Memory\n- checks: pnpm\n");
            call(calls, "c2", "memory_summary.md", "v1\n" + summary + "\n");
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
}
