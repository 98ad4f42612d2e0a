package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.cli.ScriptedModelServer.Reply;
import dev.mnemo.cli.ScriptedModelServer.Request;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The real Codex CLI (npm {@code @openai/codex@0.171.0}, installed into {@code target/codex} by the
 * build's {@code codex-cli} profile) as the Codex tests drive it: its {@code config.toml} (a scripted
 * Responses API provider, and {@code mnemo mcp} registered by the table of docs/mcp.md with this
 * build's paths), {@code codex exec}, and the Responses API stream a scripted model answers with.
 */
final class CodexCli {

    private static final ObjectMapper JSON = ScriptedModelServer.JSON;

    private CodexCli() {}

    /** The installed {@code codex}; skips the test when the build could not install it. */
    static Path binary() {
        Path codex = Path.of(System.getProperty("basedir", ".")).resolve("target/codex/node_modules/.bin/codex");
        assumeTrue(Files.isExecutable(codex), "the Codex CLI is not installed in " + codex
                + " (the build installs it with npm; without npm this test is skipped)");
        return codex;
    }

    /**
     * Writes {@code codexHome/config.toml}: the scripted provider at {@code model}, and the documented
     * {@code [mcp_servers.mnemo]} table serving {@code home}, with {@code mcpArgs} after {@code mcp}.
     */
    static Path configure(Path codexHome, ScriptedModelServer model, Path home, String... mcpArgs) throws IOException {
        StringBuilder extra = new StringBuilder();
        for (String arg : mcpArgs) {
            extra.append(", ").append(JSON.getNodeFactory().textNode(arg));
        }
        String table = documentedTable().replace("/opt/mnemo/", MnemoJar.jar().getParent() + "/")
                .replace("/home/me/.mnemo", home.toString());
        assertThat(table).as("the documented table ends its args with \"mcp\"]").contains("\"mcp\"]");
        table = table.replace("\"mcp\"]", "\"mcp\"" + extra + "]");
        Files.createDirectories(codexHome);
        Files.writeString(codexHome.resolve("config.toml"), "model = \"scripted-model\"\n"
                + "model_provider = \"scripted\"\n"
                + "approval_policy = \"never\"\n"
                + "sandbox_mode = \"read-only\"\n\n"
                + "[model_providers.scripted]\n"
                + "name = \"scripted\"\n"
                + "base_url = \"" + model.origin() + "/v1\"\n"
                + "wire_api = \"responses\"\n"
                + "env_key = \"MOCK_MODEL_KEY\"\n"
                + "request_max_retries = 0\n"
                + "stream_max_retries = 0\n\n"
                + table + "\n");
        return codexHome;
    }

    /** The first {@code [mcp_servers.mnemo]} TOML block of docs/mcp.md. */
    static String documentedTable() throws IOException {
        Path doc = Path.of(System.getProperty("basedir", ".")).resolve("../docs/mcp.md");
        Matcher block = Pattern.compile("```toml\n(\\[mcp_servers\\.mnemo].*?)```", Pattern.DOTALL)
                .matcher(Files.readString(doc));
        assertThat(block.find()).as("a [mcp_servers.mnemo] table in " + doc).isTrue();
        return block.group(1);
    }

    /**
     * {@code codex exec --json --skip-git-repo-check PROMPT} in {@code work}, with {@code codexHome}
     * and {@code userHome} as its homes; standard input, output and error are the caller's to redirect.
     */
    static ProcessBuilder exec(Path codex, Path codexHome, Path userHome, Path work, String prompt) {
        ProcessBuilder builder = new ProcessBuilder(codex.toString(), "exec", "--json", "--skip-git-repo-check", prompt)
                .directory(work.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(key -> key.startsWith("OPENAI_") || key.startsWith("CODEX_") || key.startsWith("MNEMO_"));
        env.put("CODEX_HOME", codexHome.toString());
        env.put("HOME", userHome.toString());
        env.put("MOCK_MODEL_KEY", "test-key");
        env.put("PATH", Path.of(MnemoJar.javaHome(), "bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        return builder;
    }

    /** Whether {@code request} is a Responses API call ({@code POST …/responses}). */
    static boolean isResponses(Request request) {
        return request.method().equals("POST") && request.path().endsWith("/responses");
    }

    /** A Responses API stream: response.created, the items' events, response.completed. */
    static Reply stream(List<String> items) {
        String id = "resp_" + Long.toHexString(System.nanoTime());
        List<String> events = new ArrayList<>();
        events.add(ScriptedModelServer.event("response.created", JSON.createObjectNode().put("type", "response.created")
                .set("response", JSON.createObjectNode().put("id", id))));
        events.addAll(items);
        ObjectNode completed = JSON.createObjectNode().put("type", "response.completed");
        ObjectNode response = completed.putObject("response").put("id", id);
        response.putObject("usage").put("input_tokens", 10).put("output_tokens", 5).put("total_tokens", 15);
        events.add(ScriptedModelServer.event("response.completed", completed));
        return Reply.stream(events);
    }

    /** The events of one call of the MCP tool {@code tool} of the {@code mnemo} server, as output item {@code index}. */
    static List<String> functionCall(int index, String callId, String tool, String arguments) {
        ObjectNode item = JSON.createObjectNode().put("type", "function_call").put("id", "fc_" + callId)
                .put("call_id", callId).put("name", tool).put("namespace", "mcp__mnemo").put("arguments", arguments);
        return List.of(
                ScriptedModelServer.event("response.output_item.added", JSON.createObjectNode()
                        .put("type", "response.output_item.added").put("output_index", index).set("item", item)),
                ScriptedModelServer.event("response.output_item.done", JSON.createObjectNode()
                        .put("type", "response.output_item.done").put("output_index", index).set("item", item)));
    }

    /** The events of an assistant message saying {@code text}. */
    static List<String> message(String text) {
        ObjectNode item = JSON.createObjectNode().put("type", "message").put("id", "msg_1").put("role", "assistant");
        item.putArray("content").addObject().put("type", "output_text").put("text", text);
        ObjectNode empty = item.deepCopy();
        empty.putArray("content");
        return List.of(
                ScriptedModelServer.event("response.output_item.added", JSON.createObjectNode()
                        .put("type", "response.output_item.added").put("output_index", 0).set("item", empty)),
                ScriptedModelServer.event("response.output_text.delta", JSON.createObjectNode()
                        .put("type", "response.output_text.delta").put("item_id", "msg_1").put("output_index", 0)
                        .put("content_index", 0).put("delta", text)),
                ScriptedModelServer.event("response.output_item.done", JSON.createObjectNode()
                        .put("type", "response.output_item.done").put("output_index", 0).set("item", item)));
    }

    /** Every function call output in the request's input: call_id to the output as text. */
    static Map<String, String> outputs(Request request) {
        Map<String, String> outputs = new LinkedHashMap<>();
        for (JsonNode item : request.body().path("input")) {
            if (item.path("type").asText().equals("function_call_output")) {
                outputs.put(item.path("call_id").asText(), item.path("output").toString());
            }
        }
        return outputs;
    }

    /** The output Codex sent back for {@code callId} in any of {@code sent}; null when none did. */
    static String output(List<Request> sent, String callId) {
        for (Request request : sent) {
            String output = outputs(request).get(callId);
            if (output != null) {
                return output;
            }
        }
        return null;
    }
}
