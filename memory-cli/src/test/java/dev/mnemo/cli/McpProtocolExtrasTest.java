package dev.mnemo.cli;

import static dev.mnemo.testkit.ProjectMemories.GLOBAL_FACT;
import static dev.mnemo.testkit.ProjectMemories.NPM_FACT;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.ProjectKeys;
import dev.mnemo.testkit.ManualClock;
import dev.mnemo.testkit.ProjectMemories;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code mnemo mcp} offers beyond the tools' answers, seen by the MCP SDK's own client over a
 * loopback socket ({@link InProcessMcp}): an unknown tool answered with the tools there are,
 * structured output beside the text, and the summaries and handbooks as resources a client can
 * subscribe to.
 */
@Timeout(60)
class McpProtocolExtrasTest {

    static final String WEB = "acme/web";
    static final String API = "acme/api";

    @TempDir
    Path dir;

    Path home;
    Path memories;
    InProcessMcp mcp;

    @BeforeEach
    void plantMemories() {
        home = dir.resolve("home");
        memories = ProjectMemories.plant(home, WEB, API);
    }

    @AfterEach
    void stop() {
        if (mcp != null) {
            mcp.close();
        }
    }

    /** A server in {@code project} (none: global) looking at its resources every 20 ms, and a client {@code client} configures. */
    InProcessMcp connect(Optional<String> project, boolean allowNotes, UnaryOperator<McpClient.SyncSpec> client)
            throws Exception {
        McpMemoryServer memory = new McpMemoryServer(new McpMemoryServer.Settings(home, allowNotes,
                OutputBudget.MIN_MAX_TOKENS, "test", project), new ManualClock(Instant.parse("2026-12-02T09:00:00Z")),
                InProcessMcp.JSON, InProcessMcp.MAPPER, Duration.ofMillis(20));
        mcp = InProcessMcp.start(memory, client);
        return mcp;
    }

    @Test
    void anUnknownTool_isAToolErrorNamingTheToolsThereAre_andTheServerKeepsServing() throws Exception {
        connect(Optional.empty(), false, UnaryOperator.identity());

        CallToolResult unknown = mcp.client.callTool(new CallToolRequest("memories_delete", Map.of("path", "x")));

        assertThat(unknown.isError()).isTrue();
        assertThat(McpServerIT.text(unknown)).contains("unknown tool 'memories_delete'", "memories_list",
                "memories_read", "memories_search").doesNotContain("invalid_tool_name", "memories_add_ad_hoc_note");
        assertThat(mcp.client.callTool(new CallToolRequest("memories_list", Map.of())).isError()).isFalse();
    }

    @Test
    void theNoteToolWithoutAllowNotes_isAToolErrorSayingHowItIsServed() throws Exception {
        connect(Optional.empty(), false, UnaryOperator.identity());

        CallToolResult note = mcp.client.callTool(new CallToolRequest("memories_add_ad_hoc_note",
                Map.of("filename", "2026-12-02T09-00-00-x.md", "note", "x")));

        assertThat(note.isError()).isTrue();
        assertThat(McpServerIT.text(note)).contains("--allow-notes");
        assertThat(memories.resolve("extensions")).doesNotExist();
    }

    @Test
    void searchAndList_declareAnOutputSchema_andAnswerWithStructuredContentEqualToTheText() throws Exception {
        connect(Optional.of(WEB), true, UnaryOperator.identity());
        Map<String, McpSchema.Tool> tools = new java.util.HashMap<>();
        mcp.client.listTools().tools().forEach(tool -> tools.put(tool.name(), tool));

        assertThat(tools.get("memories_search").outputSchema()).containsKey("properties");
        assertThat(tools.get("memories_list").outputSchema()).containsKey("properties");
        assertThat(tools.get("memories_read").outputSchema()).isNull();
        for (CallToolRequest call : List.of(
                new CallToolRequest("memories_search", Map.of("queries", List.of("dependencies", "commit"))),
                new CallToolRequest("memories_list", Map.of("path", ProjectKeys.FOLDER, "scope", "all")))) {
            CallToolResult result = mcp.client.callTool(call);

            assertThat(result.isError()).as(McpServerIT.text(result)).isFalse();
            JsonNode text = InProcessMcp.JSON.readTree(McpServerIT.text(result));
            assertThat(result.structuredContent()).as(call.name()).isNotNull();
            assertThat(InProcessMcp.JSON.<JsonNode>valueToTree(result.structuredContent())).isEqualTo(text);
        }
    }

    @Test
    void aPagedSearch_stillMatchesItsOutputSchema() throws Exception {
        StringBuilder handbook = new StringBuilder();
        for (int i = 0; i < 400; i++) {
            handbook.append("- dependency note ").append(i).append(": keep the lockfile committed\n");
        }
        Files.writeString(memories.resolve("MEMORY.md"), handbook);
        connect(Optional.empty(), false, UnaryOperator.identity());

        CallToolResult result = mcp.client.callTool(new CallToolRequest("memories_search",
                Map.of("queries", List.of("lockfile"))));

        assertThat(result.isError()).as(McpServerIT.text(result)).isFalse();
        JsonNode structured = InProcessMcp.JSON.valueToTree(result.structuredContent());
        assertThat(structured.path("truncated").asBoolean()).isTrue();
        assertThat(structured.path("next_cursor").isTextual()).isTrue();
        assertThat(structured).isEqualTo(InProcessMcp.JSON.readTree(McpServerIT.text(result)));
    }

    @Test
    void aToolError_hasNoStructuredContent() throws Exception {
        connect(Optional.empty(), false, UnaryOperator.identity());

        CallToolResult result = mcp.client.callTool(new CallToolRequest("memories_search", Map.of("queries", List.of())));

        assertThat(result.isError()).isTrue();
        assertThat(result.structuredContent()).isNull();
    }

    @Test
    void inAProject_theResourcesAreTheGlobalAndTheProjectsSummaryAndHandbook() throws Exception {
        connect(Optional.of(API), false, UnaryOperator.identity());
        String project = "mnemo://memories/projects/" + ProjectKeys.slug(API) + "/";

        List<McpSchema.Resource> resources = mcp.client.listResources().resources();

        assertThat(mcp.client.getCurrentInitializationResult().capabilities().resources().subscribe()).isTrue();
        assertThat(resources).extracting(McpSchema.Resource::uri).containsExactlyInAnyOrder(
                "mnemo://memories/memory_summary.md", "mnemo://memories/MEMORY.md",
                project + "memory_summary.md", project + "MEMORY.md");
        assertThat(read(project + "memory_summary.md")).contains(NPM_FACT);
        assertThat(read("mnemo://memories/memory_summary.md")).contains(GLOBAL_FACT);
    }

    @Test
    void aSubscribedClient_isToldOfANewSummary_andReadsIt_withoutRestarting() throws Exception {
        BlockingQueue<String> updated = new LinkedBlockingQueue<>();
        connect(Optional.of(WEB), false, spec -> spec.resourcesUpdateConsumer(contents -> contents.forEach(
                content -> updated.add(content.uri() + "\n" + ((TextResourceContents) content).text()))));
        String projectSummary = "mnemo://memories/projects/" + ProjectKeys.slug(WEB) + "/memory_summary.md";
        mcp.client.subscribeResource(new McpSchema.SubscribeRequest("mnemo://memories/memory_summary.md"));
        mcp.client.subscribeResource(new McpSchema.SubscribeRequest(projectSummary));

        ResourceWatcherTest.replace(memories.resolve("memory_summary.md"), "v2\nThe user now prefers squash merges.\n");
        String first = updated.poll(30, TimeUnit.SECONDS);
        ResourceWatcherTest.replace(memories.resolve("projects/" + ProjectKeys.slug(WEB) + "/memory_summary.md"),
                "v2\nThis repository moved to bun.\n");
        String second = updated.poll(30, TimeUnit.SECONDS);

        assertThat(first).isEqualTo("mnemo://memories/memory_summary.md\nv2\nThe user now prefers squash merges.\n");
        assertThat(second).isEqualTo(projectSummary + "\nv2\nThis repository moved to bun.\n");
    }

    @Test
    void whenTheClientsRootsBringAProject_itsResourcesJoinTheList() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("src/web"));
        Git.init().setDirectory(repo.toFile()).call().close();
        String key = ProjectKeys.forDirectory(repo);
        ProjectMemories.project(memories, key, "This repository deploys on Fridays.");
        BlockingQueue<List<McpSchema.Resource>> lists = new LinkedBlockingQueue<>();
        connect(Optional.empty(), false, spec -> spec
                .capabilities(McpSchema.ClientCapabilities.builder().roots(true).build())
                .roots(new McpSchema.Root(repo.toUri().toString(), "web"))
                .resourcesChangeConsumer(lists::add));
        assertThat(mcp.client.listResources().resources()).hasSize(2);

        mcp.client.callTool(new CallToolRequest("memories_list", Map.of())); // asks for the roots
        String handbook = "mnemo://memories/projects/" + ProjectKeys.slug(key) + "/MEMORY.md";
        List<McpSchema.Resource> changed;
        do {
            changed = lists.poll(30, TimeUnit.SECONDS);
            assertThat(changed).as("a resources/list_changed").isNotNull();
        } while (changed.size() < 4);

        assertThat(changed).extracting(McpSchema.Resource::uri).contains(handbook);
        assertThat(read(handbook)).contains("This repository deploys on Fridays.");
    }

    private String read(String uri) {
        List<McpSchema.ResourceContents> contents = mcp.client.readResource(new ReadResourceRequest(uri)).contents();
        assertThat(contents).hasSize(1);
        return ((TextResourceContents) contents.get(0)).text();
    }
}
