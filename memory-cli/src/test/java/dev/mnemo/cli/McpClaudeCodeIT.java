package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Claude Code (npm {@code @anthropic-ai/claude-code@2.1.332}, installed into
 * {@code target/claude-code} by the build's {@code claude-code} profile) running {@code claude -p}
 * with {@code mnemo mcp} registered by {@code --mcp-config}, against an in-process Anthropic
 * Messages API server ({@code ANTHROPIC_BASE_URL}) that scripts the model. Claude Code defers MCP
 * tools behind its ToolSearch tool, so the scripted model first loads the two memory tools, as a
 * real model does, then asks for {@link ParallelToolCalls#CALLS} calls at once. Skipped, saying
 * why, when the build could not install Claude Code (no npm).
 */
@Timeout(400)
class McpClaudeCodeIT {

    private static final String TOOL_PREFIX = "mcp__mnemo__";
    private static final String ID_PREFIX = "toolu_";
    private static final String TOOL_SEARCH_ID = "toolu_load_memory_tools";

    /** Kept when a test fails: each session's folder holds Claude Code's stderr and debug log. */
    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    void eightParallelCallsInOneResponse_allAnswersReachTheModel_andEverySessionEnds_in20Sessions() throws Exception {
        Path claude = claude();
        Path home = ParallelToolCalls.plantHome(dir.resolve("home"));
        try (ScriptedModelServer model = ScriptedModelServer.start(McpClaudeCodeIT::answer)) {
            ParallelToolCalls.assertEveryAnswerArrives(dir, model, new ParallelToolCalls.Client(ID_PREFIX,
                    McpClaudeCodeIT::isMessages, McpClaudeCodeIT::toolResults),
                    (n, sessionDir) -> print(claude, model, home, sessionDir, ParallelToolCalls.prompt(n)));
        }
    }

    @Test
    void theModelsFirstRequest_carriesTheWholeMemorySummary() throws Exception {
        Path claude = claude();
        Path home = ParallelToolCalls.plantHome(dir.resolve("home"));
        try (ScriptedModelServer model = ScriptedModelServer.start(request -> isMessages(request)
                ? message(request.body().path("model").asText(), List.of(text("Noted.")), "end_turn")
                : answer(request))) {
            ParallelToolCalls.Session session = ParallelToolCalls.run(dir, 1, 1, ParallelToolCalls.SESSION_TIMEOUT,
                    (n, sessionDir) -> print(claude, model, home, sessionDir, ParallelToolCalls.prompt(n))).get(0);
            Request first = model.requests().stream().filter(McpClaudeCodeIT::isMessages)
                    .filter(r -> ParallelToolCalls.sessionOf(r).isPresent())
                    .findFirst().orElseThrow(() -> new AssertionError("Claude Code sent the model no request; stderr: "
                            + session.stderr()));
            String context = contextOf(first.body());

            assertThat(context).as("the server's instructions reach the model, under the heading Claude Code gives them")
                    .contains("## mnemo");
            assertThat(ParallelToolCalls.SUMMARY_LINES.stream().filter(line -> !line.isBlank())
                    .filter(line -> !context.contains(jsonText(line))).toList())
                    .as("summary lines missing from Claude Code's first model request (its system prompt, its"
                            + " system messages and its tools); the server's instructions there:\n%s",
                            instructionsIn(context))
                    .isEmpty();
            assertThat(session.ended()).as("the session ended").isTrue();
        }
    }

    // ---- Claude Code ---------------------------------------------------------------------------

    /** The installed {@code claude}; skips the test when the build could not install it. */
    static Path claude() {
        Path claude = Path.of(System.getProperty("basedir", "."))
                .resolve("target/claude-code/node_modules/.bin/claude");
        assumeTrue(Files.isExecutable(claude), "Claude Code is not installed in " + claude
                + " (the build installs it with npm; without npm this test is skipped)");
        return claude;
    }

    /**
     * {@code claude -p PROMPT} in {@code sessionDir} (its working folder and HOME), talking to
     * {@code model}, with only {@code mnemo mcp} over {@code home} as MCP server and its tools allowed.
     */
    static ProcessBuilder print(Path claude, ScriptedModelServer model, Path home, Path sessionDir, String prompt)
            throws IOException {
        Path work = Files.createDirectories(sessionDir.resolve("work"));
        Path userHome = Files.createDirectories(sessionDir.resolve("user-home"));
        Path mcpConfig = sessionDir.resolve("mcp.json");
        ObjectNode config = ScriptedModelServer.JSON.createObjectNode();
        ObjectNode server = config.putObject("mcpServers").putObject("mnemo").put("type", "stdio")
                .put("command", MnemoJar.jar().resolveSibling("mnemo").toString());
        server.putArray("args").add("--home").add(home.toString()).add("mcp");
        server.putObject("env").put("JAVA_HOME", MnemoJar.javaHome());
        Files.writeString(mcpConfig, config.toString());
        ProcessBuilder builder = new ProcessBuilder(claude.toString(), "-p", prompt, "--mcp-config", mcpConfig.toString(),
                "--strict-mcp-config", "--allowedTools", TOOL_PREFIX + "*", "--no-session-persistence", "--debug-file", sessionDir.resolve("debug.log").toString())
                .directory(work.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(key -> key.startsWith("ANTHROPIC_") || key.startsWith("CLAUDE_") || key.startsWith("MNEMO_")
                || key.startsWith("OTEL_"));
        env.put("HOME", userHome.toString());
        env.put("ANTHROPIC_BASE_URL", model.origin());
        env.put("ANTHROPIC_API_KEY", "test-key");
        env.put("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
        env.put("DISABLE_AUTOUPDATER", "1");
        // claude -p connects MCP servers in the background by default and sends its first model request
        // without a server still starting (a JVM takes a second or more on a busy machine), waiting at
        // most 5 s otherwise: wait for mnemo, as an interactive session does before its first prompt.
        env.put("MCP_CONNECTION_NONBLOCKING", "false");
        env.put("CLAUDE_CODE_MCP_STARTUP_WAIT_MS", "30000");
        return builder;
    }

    // ---- the scripted model --------------------------------------------------------------------

    /**
     * The Messages API as Claude Code uses it: token counts get a number; a turn of a tagged
     * session gets, by what the conversation holds, ToolSearch for the memory tools, the batch of
     * parallel calls, or the last words; anything else (a title, a side question) a short text.
     */
    static Reply answer(Request request) {
        String path = request.path();
        if (path.startsWith("/v1/messages/count_tokens")) {
            return Reply.json(ScriptedModelServer.JSON.createObjectNode().put("input_tokens", 100));
        }
        if (!isMessages(request)) {
            return Reply.notFound();
        }
        JsonNode body = request.body();
        String model = body.path("model").asText("scripted-model");
        OptionalInt session = ParallelToolCalls.sessionOf(request);
        if (session.isEmpty()) {
            return message(model, List.of(text("Memory check")), "end_turn");
        }
        int n = session.getAsInt();
        if (ParallelToolCalls.carriesAnswers(toolResults(request), ID_PREFIX, n)) {
            return message(model, List.of(text(ParallelToolCalls.lastWords(n))), "end_turn");
        }
        boolean offered = hasTool(body, TOOL_PREFIX + "memories_search", true)
                && hasTool(body, TOOL_PREFIX + "memories_read", true);
        boolean searched = toolResults(request).containsKey(TOOL_SEARCH_ID);
        if (!offered && searched) {
            return message(model, List.of(text("Session " + n + ": the memory tools never loaded.")), "end_turn");
        }
        boolean loaded = searched || hasTool(body, TOOL_PREFIX + "memories_search", false)
                && hasTool(body, TOOL_PREFIX + "memories_read", false);
        if (!loaded) {
            ObjectNode input = ScriptedModelServer.JSON.createObjectNode()
                    .put("query", "select:" + TOOL_PREFIX + "memories_search," + TOOL_PREFIX + "memories_read")
                    .put("max_results", 5);
            return message(model, List.of(toolUse(TOOL_SEARCH_ID, "ToolSearch", input)), "tool_use");
        }
        List<ObjectNode> calls = new ArrayList<>();
        for (ParallelToolCalls.Call call : ParallelToolCalls.calls()) {
            calls.add(toolUse(ParallelToolCalls.callId(ID_PREFIX, n, call.index()), TOOL_PREFIX + call.tool(),
                    call.arguments()));
        }
        return message(model, calls, "tool_use");
    }

    /** Whether {@code request} asks for a model turn ({@code POST /v1/messages}, any query). */
    static boolean isMessages(Request request) {
        String path = request.path();
        return request.method().equals("POST") && (path.equals("/v1/messages") || path.startsWith("/v1/messages?"));
    }

    /** Every tool_result block in the request's messages: tool_use_id to its content as text. */
    static Map<String, String> toolResults(Request request) {
        Map<String, String> results = new LinkedHashMap<>();
        for (JsonNode message : request.body().path("messages")) {
            for (JsonNode block : message.path("content")) {
                if (block.path("type").asText().equals("tool_result")) {
                    results.put(block.path("tool_use_id").asText(), block.path("content").toString());
                }
            }
        }
        return results;
    }

    /** Whether the request offers the tool {@code name}; when {@code deferred} is false, with its schema loaded. */
    private static boolean hasTool(JsonNode body, String name, boolean deferred) {
        for (JsonNode tool : body.path("tools")) {
            if (tool.path("name").asText().equals(name) && (deferred || !tool.path("defer_loading").asBoolean(false))) {
                return true;
            }
        }
        return false;
    }

    private static ObjectNode text(String text) {
        return ScriptedModelServer.JSON.createObjectNode().put("type", "text").put("text", text);
    }

    private static ObjectNode toolUse(String id, String name, JsonNode input) {
        ObjectNode block = ScriptedModelServer.JSON.createObjectNode().put("type", "tool_use").put("id", id)
                .put("name", name);
        block.set("input", input);
        return block;
    }

    /** A streamed message: message_start, per block content_block_start/delta/stop, message_delta, message_stop. */
    private static Reply message(String model, List<ObjectNode> blocks, String stopReason) {
        List<String> events = new ArrayList<>();
        ObjectNode start = ScriptedModelServer.JSON.createObjectNode().put("type", "message_start");
        ObjectNode message = start.putObject("message").put("id", "msg_" + Long.toHexString(System.nanoTime()))
                .put("type", "message").put("role", "assistant").put("model", model);
        message.putArray("content");
        message.putNull("stop_reason");
        message.putNull("stop_sequence");
        message.putObject("usage").put("input_tokens", 100).put("output_tokens", 1);
        events.add(ScriptedModelServer.event("message_start", start));
        for (int i = 0; i < blocks.size(); i++) {
            ObjectNode block = blocks.get(i);
            ObjectNode empty = block.deepCopy();
            ObjectNode delta = ScriptedModelServer.JSON.createObjectNode();
            if (block.path("type").asText().equals("text")) {
                empty.put("text", "");
                delta.put("type", "text_delta").put("text", block.path("text").asText());
            } else {
                empty.putObject("input");
                delta.put("type", "input_json_delta").put("partial_json", block.path("input").toString());
            }
            ObjectNode blockStart = ScriptedModelServer.JSON.createObjectNode().put("type", "content_block_start")
                    .put("index", i);
            blockStart.set("content_block", empty);
            events.add(ScriptedModelServer.event("content_block_start", blockStart));
            ObjectNode blockDelta = ScriptedModelServer.JSON.createObjectNode().put("type", "content_block_delta")
                    .put("index", i);
            blockDelta.set("delta", delta);
            events.add(ScriptedModelServer.event("content_block_delta", blockDelta));
            events.add(ScriptedModelServer.event("content_block_stop", ScriptedModelServer.JSON.createObjectNode()
                    .put("type", "content_block_stop").put("index", i)));
        }
        ObjectNode end = ScriptedModelServer.JSON.createObjectNode().put("type", "message_delta");
        end.putObject("delta").put("stop_reason", stopReason).putNull("stop_sequence");
        end.putObject("usage").put("output_tokens", 10);
        events.add(ScriptedModelServer.event("message_delta", end));
        events.add(ScriptedModelServer.event("message_stop", ScriptedModelServer.JSON.createObjectNode()
                .put("type", "message_stop")));
        return Reply.stream(events);
    }

    /**
     * What a request tells the model besides the user's words, as JSON text: the system prompt, the
     * tools, and the conversation's system messages, where Claude Code 2.1.332 puts MCP servers'
     * instructions.
     */
    private static String contextOf(JsonNode body) {
        StringBuilder context = new StringBuilder().append(body.path("system")).append(body.path("tools"));
        for (JsonNode message : body.path("messages")) {
            if (message.path("role").asText().equals("system")) {
                context.append(message.path("content"));
            }
        }
        return context.toString();
    }

    /** The part of {@code context} that holds mnemo's instructions, for a failure message. */
    private static String instructionsIn(String context) {
        int start = context.indexOf("## mnemo");
        return start < 0 ? "(none)" : context.substring(start, Math.min(context.length(), start + 4_400))
                .replace("\\n", "\n");
    }

    /** {@code line} as it appears inside a JSON string. */
    private static String jsonText(String line) {
        String quoted = ScriptedModelServer.JSON.getNodeFactory().textNode(line).toString();
        return quoted.substring(1, quoted.length() - 1);
    }
}
