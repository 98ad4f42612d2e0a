package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Codex CLI (npm {@code @openai/codex@0.171.0}, installed into {@code target/codex} by the
 * build) with {@code mnemo mcp} registered by the {@code [mcp_servers.mnemo]} table of docs/mcp.md as
 * written (only the paths replaced), against an in-process Responses API server that scripts the
 * model: on the first turn it searches memory, then reads a path outside the memory folder, then
 * answers. Skipped, saying why, when the build could not install Codex (no npm).
 */
@Timeout(240)
class McpCodexCliIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SUMMARY_MARKER = "SUMMARY-MARKER-7f3a";
    private static final String HANDBOOK_MARKER = "HANDBOOK-MARKER-91c2";
    private static final String REFUSAL = "must stay within the memories root";

    @TempDir
    Path dir;

    private final List<JsonNode> requests = new CopyOnWriteArrayList<>();

    @Test
    void firstTurn_seesTheToolsAndTheSummary_searchesMemory_andGoesOnAfterAHostilePathIsRefused() throws Exception {
        Path codex = Path.of(System.getProperty("basedir", ".")).resolve("target/codex/node_modules/.bin/codex");
        assumeTrue(Files.isExecutable(codex), "the Codex CLI is not installed in " + codex
                + " (the build installs it with npm; without npm this test is skipped)");
        Path home = MnemoJar.homeWithMemories(dir.resolve("home"));
        Files.writeString(home.resolve("memories/memory_summary.md"), "# Summary\n- " + SUMMARY_MARKER
                + ": builds use gradle 8\n");
        Files.writeString(home.resolve("memories/MEMORY.md"), "# Handbook\n- " + HANDBOOK_MARKER
                + ": run ./gradlew check before pushing\n");

        HttpServer model = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        model.createContext("/", this::answer);
        model.start();
        try {
            Path codexHome = Files.createDirectories(dir.resolve("codex-home"));
            Files.writeString(codexHome.resolve("config.toml"), config(model.getAddress().getPort(), home));
            Process process = codex(codex, codexHome);
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(180, TimeUnit.SECONDS)).isTrue();
            String err = Files.readString(dir.resolve("codex-stderr.txt"));

            assertThat(process.exitValue()).as("codex exec (stderr: %s)", err).isZero();
            assertThat(requests).as("requests to the model; codex stdout: %s", out).hasSizeGreaterThanOrEqualTo(3);
            JsonNode first = requests.get(0);
            assertThat(first.toString()).contains("memories_search");
            assertThat(descriptionsContaining(first, SUMMARY_MARKER)).as("a tool or namespace description holding"
                    + " the summary").isNotEmpty().allMatch(d -> d.toString().contains("memories_search")
                            || d.toString().contains("mcp__mnemo"));
            assertThat(output(requests, "call_search")).contains(HANDBOOK_MARKER);
            assertThat(output(requests, "call_hostile")).contains(REFUSAL);
            assertThat(out).contains("Memory says to run the check first.");
        } finally {
            model.stop(0);
        }
    }

    private Process codex(Path codex, Path codexHome) throws IOException {
        Path work = Files.createDirectories(dir.resolve("work"));
        ProcessBuilder builder = new ProcessBuilder(codex.toString(), "exec", "--json", "--skip-git-repo-check",
                "What must I run before pushing? Check memory.")
                .directory(work.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                .redirectError(dir.resolve("codex-stderr.txt").toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(key -> key.startsWith("OPENAI_") || key.startsWith("CODEX_") || key.startsWith("MNEMO_"));
        env.put("CODEX_HOME", codexHome.toString());
        env.put("HOME", dir.toString());
        env.put("MOCK_MODEL_KEY", "test-key");
        env.put("PATH", Path.of(MnemoJar.javaHome(), "bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        return builder.start();
    }

    /** Codex's config: the scripted provider, and the documented table with this build's paths. */
    private static String config(int port, Path home) throws IOException {
        return "model = \"scripted-model\"\n"
                + "model_provider = \"scripted\"\n"
                + "approval_policy = \"never\"\n"
                + "sandbox_mode = \"read-only\"\n\n"
                + "[model_providers.scripted]\n"
                + "name = \"scripted\"\n"
                + "base_url = \"http://127.0.0.1:" + port + "/v1\"\n"
                + "wire_api = \"responses\"\n"
                + "env_key = \"MOCK_MODEL_KEY\"\n"
                + "request_max_retries = 0\n"
                + "stream_max_retries = 0\n\n"
                + documentedTable().replace("/opt/mnemo/", MnemoJar.jar().getParent() + "/")
                        .replace("/home/me/.mnemo", home.toString()) + "\n";
    }

    /** The first {@code [mcp_servers.mnemo]} TOML block of docs/mcp.md. */
    static String documentedTable() throws IOException {
        Path doc = Path.of(System.getProperty("basedir", ".")).resolve("../docs/mcp.md");
        Matcher block = Pattern.compile("```toml\n(\\[mcp_servers\\.mnemo].*?)```", Pattern.DOTALL)
                .matcher(Files.readString(doc));
        assertThat(block.find()).as("a [mcp_servers.mnemo] table in " + doc).isTrue();
        return block.group(1);
    }

    // ---- the scripted model --------------------------------------------------------------------

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("POST") || !exchange.getRequestURI().getPath().endsWith("/responses")) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            requests.add(request);
            List<String> events = new ArrayList<>();
            if (output(List.of(request), "call_hostile") != null) {
                events.addAll(message("Memory says to run the check first."));
            } else if (output(List.of(request), "call_search") != null) {
                events.addAll(functionCall("call_hostile", "memories_read", "{\"path\":\"../config.toml\"}"));
            } else {
                events.addAll(functionCall("call_search", "memories_search",
                        "{\"queries\":[\"" + HANDBOOK_MARKER + "\"]}"));
            }
            StringBuilder body = new StringBuilder();
            body.append(event("response.created", JSON.createObjectNode().put("type", "response.created")
                    .set("response", JSON.createObjectNode().put("id", "resp_" + requests.size()))));
            events.forEach(body::append);
            ObjectNode completed = JSON.createObjectNode().put("type", "response.completed");
            ObjectNode response = completed.putObject("response").put("id", "resp_" + requests.size());
            response.putObject("usage").put("input_tokens", 10).put("output_tokens", 5).put("total_tokens", 15);
            body.append(event("response.completed", completed));
            byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static List<String> functionCall(String callId, String tool, String arguments) {
        ObjectNode item = JSON.createObjectNode().put("type", "function_call").put("id", "fc_" + callId)
                .put("call_id", callId).put("name", tool).put("namespace", "mcp__mnemo").put("arguments", arguments);
        return List.of(
                event("response.output_item.added", JSON.createObjectNode().put("type", "response.output_item.added")
                        .put("output_index", 0).set("item", item)),
                event("response.output_item.done", JSON.createObjectNode().put("type", "response.output_item.done")
                        .put("output_index", 0).set("item", item)));
    }

    private static List<String> message(String text) {
        ObjectNode item = JSON.createObjectNode().put("type", "message").put("id", "msg_1").put("role", "assistant");
        item.putArray("content").addObject().put("type", "output_text").put("text", text);
        ObjectNode empty = item.deepCopy();
        empty.putArray("content");
        return List.of(
                event("response.output_item.added", JSON.createObjectNode().put("type", "response.output_item.added")
                        .put("output_index", 0).set("item", empty)),
                event("response.output_text.delta", JSON.createObjectNode().put("type", "response.output_text.delta")
                        .put("item_id", "msg_1").put("output_index", 0).put("content_index", 0).put("delta", text)),
                event("response.output_item.done", JSON.createObjectNode().put("type", "response.output_item.done")
                        .put("output_index", 0).set("item", item)));
    }

    private static String event(String name, JsonNode data) {
        return "event: " + name + "\ndata: " + data + "\n\n";
    }

    /** The output Codex sent back for {@code callId} in any of {@code sent}, as text; null when none. */
    private static String output(List<JsonNode> sent, String callId) {
        for (JsonNode request : sent) {
            for (JsonNode item : request.path("input")) {
                if (item.path("type").asText().equals("function_call_output") && item.path("call_id").asText()
                        .equals(callId)) {
                    return item.path("output").toString();
                }
            }
        }
        return null;
    }

    /** Every object under {@code node} whose {@code description} holds {@code text}. */
    private static List<JsonNode> descriptionsContaining(JsonNode node, String text) {
        List<JsonNode> found = new ArrayList<>();
        if (node.isObject() && node.path("description").asText("").contains(text)) {
            found.add(node);
        }
        node.forEach(child -> found.addAll(descriptionsContaining(child, text)));
        return found;
    }
}
