package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.MemoryTools;
import dev.mnemo.llm.ToolSpec;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar mnemo.jar --home HOME mcp} driven by the MCP Java SDK's own client, as Claude
 * Code or Codex would drive it. One server serves the read-only tests in turn, so each also shows
 * that the errors before it left the server serving.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
class McpServerIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    private Path home;
    private McpSyncClient client;

    @BeforeAll
    void startServer() throws Exception {
        home = MnemoJar.homeWithMemories(dir.resolve("home"));
        client = connect(home);
    }

    @AfterAll
    void stopServer() {
        client.close();
    }

    @Test
    void initialize_namesMnemoAndServesToolsAndResourcesOnly() {
        McpSchema.InitializeResult init = client.getCurrentInitializationResult();

        assertThat(init.serverInfo().name()).isEqualTo("mnemo");
        assertThat(init.serverInfo().title()).isEqualTo("Mnemo");
        assertThat(init.serverInfo().version()).isEqualTo(MnemoCli.version()).isNotEqualTo("unknown");
        assertThat(init.capabilities().tools()).isNotNull();
        assertThat(init.capabilities().resources()).isNotNull();
        assertThat(init.capabilities().resources().subscribe()).isTrue();
        assertThat(init.capabilities().prompts()).isNull();
        assertThat(init.capabilities().completions()).isNull();
        assertThat(init.instructions()).contains("MEMORY.md");
    }

    @Test
    void initialize_instructionsCarryTheReadPathAndTheSummary_withoutCitationsOrNotes() {
        String instructions = client.getCurrentInitializationResult().instructions();

        assertThat(instructions).startsWith(McpInstructions.LEAD).contains("builds use gradle 8",
                "## Memory summary (memory_summary.md)", "memories_search", "memories_read", "Citations are not expected");
        assertThat(instructions.length()).isLessThanOrEqualTo(McpInstructions.CLIENT_LIMIT);
        assertThat(instructions).doesNotContain("<oai-mem-citation>", "memories_add_ad_hoc_note", home.toString());
    }

    @Test
    void listTools_servesTheReadToolsWithTheMemoryToolsSchemas_theReadToolAlsoTakingACharOffset() throws Exception {
        Map<String, McpSchema.Tool> served = client.listTools().tools().stream()
                .collect(Collectors.toMap(McpSchema.Tool::name, Function.identity()));
        Map<String, ToolSpec> specs = MemoryTools.forFolder(home.resolve("memories")).confinedToProject("any").specs()
                .stream().collect(Collectors.toMap(ToolSpec::name, Function.identity()));

        assertThat(served).containsOnlyKeys("memories_list", "memories_read", "memories_search");
        for (McpSchema.Tool tool : served.values()) {
            ToolSpec spec = specs.get(tool.name());
            assertThat(tool.description()).isEqualTo(spec.description());
            JsonNode schema = JSON.valueToTree(tool.inputSchema());
            JsonNode expected = JSON.readTree(spec.parametersJsonSchema());
            if (tool.name().equals("memories_read")) {
                ((com.fasterxml.jackson.databind.node.ObjectNode) expected.path("properties")).putObject("char_offset")
                        .put("type", "integer").put("minimum", 0).put("description", OutputBudget.CHAR_OFFSET_DESCRIPTION);
            }
            assertThat(schema).isEqualTo(expected);
            assertThat(tool.annotations().readOnlyHint()).isTrue();
        }
        assertThat(JSON.valueToTree(served.get("memories_read").inputSchema()).path("properties").has("char_offset"))
                .isTrue();
    }

    @Test
    void call_eachReadTool_answersExactlyAsTheMemoryTools() {
        MemoryTools tools = MemoryTools.forFolder(home.resolve("memories"));
        List<CallToolRequest> calls = List.of(
                new CallToolRequest("memories_list", Map.of()),
                new CallToolRequest("memories_list", Map.of("path", "skills")),
                new CallToolRequest("memories_read", Map.of("path", "MEMORY.md", "line_offset", 3)),
                new CallToolRequest("memories_search", Map.of("queries", List.of("GRADLE"), "case_sensitive", false)),
                new CallToolRequest("memories_search", Map.of("queries", List.of("tag", "push"),
                        "match_mode", Map.of("type", "all_on_same_line"))));

        for (CallToolRequest call : calls) {
            CallToolResult result = client.callTool(call);
            assertThat(result.isError()).as(call.name()).isFalse();
            assertThat(text(result)).as(call.name())
                    .isEqualTo(tools.call(call.name(), JSON.valueToTree(call.arguments()).toString()));
        }
    }

    @Test
    void call_search_aMegabyteQueryOrTwentyThousandQueries_answerWithinTheDefaultBudget() throws Exception {
        List<String> many = new java.util.ArrayList<>(List.of("gradle"));
        for (int i = 0; i < 20_000; i++) {
            many.add("query-" + i);
        }
        for (List<String> queries : List.of(List.of("q".repeat(1_000_000)), many)) {
            CallToolResult result = client.callTool(new CallToolRequest("memories_search", Map.of("queries", queries)));

            assertThat(result.isError()).isFalse();
            assertThat(text(result).getBytes(java.nio.charset.StandardCharsets.UTF_8).length)
                    .isLessThanOrEqualTo(OutputBudget.DEFAULT_MAX_TOKENS * 4);
            assertThat(JSON.readTree(text(result)).path("queries").toString()).contains("…[");
        }
    }

    @Test
    void call_search_findsTheLineInTheMemoryFile() throws Exception {
        CallToolResult result = client.callTool(new CallToolRequest("memories_search",
                Map.of("queries", List.of("gradlew"))));

        JsonNode answer = JSON.readTree(text(result));
        assertThat(answer.path("matches")).hasSize(1);
        assertThat(answer.path("matches").get(0).path("path").asText()).isEqualTo("MEMORY.md");
        assertThat(answer.path("matches").get(0).path("match_line_number").asInt()).isEqualTo(4);
    }

    @Test
    void call_wrongArgumentType_returnsToolErrorWithTheMemoryToolsMessageAndKeepsServing() {
        CallToolResult result = client.callTool(new CallToolRequest("memories_read", Map.of("path", 7)));

        assertThat(result.isError()).isTrue();
        assertThat(text(result)).isEqualTo(MemoryTools.forFolder(home.resolve("memories"))
                .call("memories_read", "{\"path\":7}")).contains("\"error\"");
        assertThat(client.callTool(new CallToolRequest("memories_list", Map.of())).isError()).isFalse();
    }

    @Test
    void call_pathOutsideTheRoot_returnsToolError() {
        CallToolResult result = client.callTool(new CallToolRequest("memories_read", Map.of("path", "../config.toml")));

        assertThat(result.isError()).isTrue();
        assertThat(text(result)).isEqualTo("{\"error\":\"path '../config.toml' must stay within the memories root\"}");
    }

    @Test
    void call_missingRequiredArgumentAndUnknownField_returnToolErrors() {
        assertThat(client.callTool(new CallToolRequest("memories_search", Map.of())).isError()).isTrue();
        CallToolResult unknownField = client.callTool(new CallToolRequest("memories_search",
                Map.of("query", "gradle")));
        assertThat(unknownField.isError()).isTrue();
        assertThat(text(unknownField)).contains("query");
    }

    @Test
    void call_unknownTool_returnsAToolErrorNamingTheToolsAndKeepsServing() {
        CallToolResult unknown = client.callTool(new CallToolRequest("memories_delete", Map.of()));

        assertThat(unknown.isError()).isTrue();
        assertThat(text(unknown)).contains("unknown tool 'memories_delete'", "memories_list, memories_read,"
                + " memories_search");
        assertThat(client.callTool(new CallToolRequest("memories_list", Map.of())).isError()).isFalse();
    }

    @Test
    void call_noteToolWithoutAllowNotes_isNotServed() {
        CallToolResult note = client.callTool(new CallToolRequest("memories_add_ad_hoc_note",
                Map.of("filename", "2026-12-01T08-00-00-x.md", "note", "remember x")));

        assertThat(note.isError()).isTrue();
        assertThat(text(note)).contains("--allow-notes");
        assertThat(home.resolve("memories/extensions")).doesNotExist();
    }

    @Test
    void resources_listAndRead_serveSummaryAndHandbook() throws Exception {
        List<McpSchema.Resource> resources = client.listResources().resources();

        assertThat(resources).extracting(McpSchema.Resource::uri)
                .containsExactlyInAnyOrder("mnemo://memories/memory_summary.md", "mnemo://memories/MEMORY.md");
        assertThat(resources).extracting(McpSchema.Resource::mimeType).containsOnly("text/markdown");
        for (McpSchema.Resource resource : resources) {
            var contents = client.readResource(new ReadResourceRequest(resource.uri())).contents();
            assertThat(contents).hasSize(1);
            assertThat(((TextResourceContents) contents.get(0)).text())
                    .isEqualTo(Files.readString(home.resolve("memories").resolve(resource.name())));
        }
    }

    @Test
    void readResource_unknownUri_isAJsonRpcError() {
        assertThatThrownBy(() -> client.readResource(new ReadResourceRequest("mnemo://memories/raw_memories.md")))
                .isInstanceOf(McpError.class);
    }

    static McpSyncClient connect(Path home, String... mcpArgs) {
        return connect(home, UnaryOperator.identity(), mcpArgs);
    }

    /** {@link #connect(Path, String...)} with a client {@code client} configures further (its roots, say). */
    static McpSyncClient connect(Path home, UnaryOperator<McpClient.SyncSpec> client, String... mcpArgs) {
        return connect(MnemoJar.command(home, concat("mcp", mcpArgs)), client);
    }

    /** {@link #connect(Path, String...)} for a server started in the working directory {@code cwd}. */
    static McpSyncClient connectIn(Path cwd, Path home, String... mcpArgs) {
        List<String> command = new java.util.ArrayList<>(List.of("sh", "-c", "cd \"$0\" && exec \"$@\"",
                cwd.toString()));
        command.addAll(MnemoJar.command(home, concat("mcp", mcpArgs)));
        return connect(command, UnaryOperator.identity());
    }

    private static McpSyncClient connect(List<String> command, UnaryOperator<McpClient.SyncSpec> client) {
        ServerParameters server = ServerParameters.builder(command.get(0)).args(command.subList(1, command.size()))
                .build();
        McpSyncClient connected = client.apply(McpClient.sync(new StdioClientTransport(server,
                        new JacksonMcpJsonMapper(JSON)))
                .requestTimeout(Duration.ofSeconds(30))
                .initializationTimeout(Duration.ofSeconds(60))
                .clientInfo(new McpSchema.Implementation("mnemo-it", "1")))
                .build();
        connected.initialize();
        return connected;
    }

    static String text(CallToolResult result) {
        assertThat(result.content()).hasSize(1);
        return ((McpSchema.TextContent) result.content().get(0)).text();
    }

    private static String[] concat(String first, String... rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }
}
