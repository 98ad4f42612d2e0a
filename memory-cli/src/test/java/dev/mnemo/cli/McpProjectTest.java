package dev.mnemo.cli;

import static dev.mnemo.testkit.ProjectMemories.GLOBAL_FACT;
import static dev.mnemo.testkit.ProjectMemories.NPM_FACT;
import static dev.mnemo.testkit.ProjectMemories.PNPM_FACT;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryTools;
import dev.mnemo.ProjectKeys;
import dev.mnemo.testkit.ManualClock;
import dev.mnemo.testkit.ProjectMemories;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import java.io.IOException;
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
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mnemo mcp} in a project: an in-process {@link McpMemoryServer} behind the {@link StdioGuard}
 * as {@code mnemo mcp} runs it, driven by the MCP SDK's own client over a loopback socket. The
 * memory folder holds a global summary and two projects' memory with conflicting facts
 * ({@link ProjectMemories}); one project is a real git repository, whose folder a client names as
 * its root.
 */
@Timeout(60)
class McpProjectTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final McpJsonMapper MAPPER = new JacksonMcpJsonMapper(JSON);
    static final String OTHER = "acme/other";

    @TempDir
    Path dir;

    Path home;
    Path repo;
    String repoKey;
    McpSyncServer server;
    McpSyncClient client;

    @BeforeEach
    void plantMemories() throws Exception {
        home = dir.resolve("home");
        repo = Files.createDirectories(dir.resolve("src/web"));
        Git.init().setDirectory(repo.toFile()).call().close();
        repoKey = ProjectKeys.forDirectory(repo);
        ProjectMemories.plant(home, repoKey, OTHER);
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.closeGracefully();
        }
        if (server != null) {
            server.close();
        }
    }

    /** Starts the server and connects a client declaring {@code roots} (none: no roots capability). */
    McpMemoryServer connect(Optional<String> project, List<McpSchema.Root> roots) throws IOException {
        McpMemoryServer memory = new McpMemoryServer(new McpMemoryServer.Settings(home, true,
                OutputBudget.DEFAULT_MAX_TOKENS, "test", project), new ManualClock(Instant.parse("2026-12-02T09:00:00Z")),
                JSON, MAPPER);
        SocketClientTransport transport = new SocketClientTransport(MAPPER);
        StdioGuard stdio = new StdioGuard(transport.serverSide().getInputStream(),
                transport.serverSide().getOutputStream(), MAPPER, JSON);
        server = memory.start(new StdioTransport(MAPPER, stdio.input(), stdio.output()));
        McpClient.SyncSpec spec = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30))
                .clientInfo(new McpSchema.Implementation("roots-client", "1"));
        if (roots != null) {
            spec.capabilities(McpSchema.ClientCapabilities.builder().roots(true).build()).roots(roots);
        }
        client = spec.build();
        client.initialize();
        return memory;
    }

    McpSchema.Root root(Path folder) {
        return new McpSchema.Root(folder.toUri().toString(), folder.getFileName().toString());
    }

    /** What {@code memories_search} finds for the facts, in scope {@code project}. */
    String searchInProject() {
        McpSchema.CallToolResult result = client.callTool(new CallToolRequest("memories_search",
                Map.of("queries", List.of("installs dependencies"), "scope", "project")));
        assertThat(result.isError()).as(McpServerIT.text(result)).isFalse();
        return McpServerIT.text(result);
    }

    @Test
    void aClientWithRoots_getsTheGlobalInstructions_andToolsScopedToItsFirstRootsProject() throws Exception {
        McpMemoryServer memory = connect(Optional.empty(), List.of(root(repo)));

        String instructions = client.getCurrentInitializationResult().instructions();
        String found = searchInProject();

        assertThat(instructions).contains(GLOBAL_FACT).doesNotContain(PNPM_FACT).doesNotContain(NPM_FACT);
        assertThat(found).contains(ProjectKeys.slug(repoKey)).doesNotContain(ProjectKeys.slug(OTHER));
        assertThat(memory.project()).contains(repoKey);
    }

    @Test
    void aFolderInsideTheRepository_scopesToTheRepositorysProject() throws Exception {
        Path inside = Files.createDirectories(repo.resolve("packages/ui"));
        McpMemoryServer memory = connect(Optional.empty(), List.of(root(inside)));

        searchInProject();

        assertThat(memory.project()).contains(repoKey);
    }

    @Test
    void whenTheClientsRootsChange_theToolsAreScopedAnew() throws Exception {
        Path elsewhere = Files.createDirectories(dir.resolve("scratch"));
        McpMemoryServer memory = connect(Optional.empty(), List.of(root(repo)));
        searchInProject();
        BlockingQueue<Optional<String>> scopedTo = new LinkedBlockingQueue<>();
        memory.onProjectChange(scopedTo::add);

        client.removeRoot(root(repo).uri()); // each sends notifications/roots/list_changed
        assertThat(scopedTo.poll(30, TimeUnit.SECONDS)).isEmpty();
        client.addRoot(root(elsewhere));

        assertThat(scopedTo.poll(30, TimeUnit.SECONDS)).contains(ProjectKeys.forDirectory(elsewhere));
        assertThat(searchInProject()).doesNotContain(ProjectKeys.slug(repoKey));
    }

    @Test
    void withProject_theInstructionsCarryItsSummaryAndTheGlobalOne_andTheClientsRootsAreIgnored() throws Exception {
        McpMemoryServer memory = connect(Optional.of(OTHER), List.of(root(repo)));

        String instructions = client.getCurrentInitializationResult().instructions();
        String found = searchInProject();

        assertThat(instructions).contains(NPM_FACT, GLOBAL_FACT).doesNotContain(PNPM_FACT);
        assertThat(found).contains(ProjectKeys.slug(OTHER)).doesNotContain(ProjectKeys.slug(repoKey));
        assertThat(memory.project()).contains(OTHER);
    }

    @Test
    void aClientWithoutRoots_isNeverAskedForThem_andGetsTheGlobalMemoryOnly() throws Exception {
        McpMemoryServer memory = connect(Optional.empty(), null);

        String instructions = client.getCurrentInitializationResult().instructions();
        McpSchema.CallToolResult listed = client.callTool(new CallToolRequest("memories_list", Map.of()));

        assertThat(listed.isError()).isFalse();
        assertThat(instructions).contains(GLOBAL_FACT).doesNotContain(PNPM_FACT).doesNotContain(NPM_FACT);
        assertThat(memory.project()).isEmpty();
    }

    @Test
    void aNoteTakenThroughARootsScopedServer_isFiledUnderThatProject() throws Exception {
        connect(Optional.empty(), List.of(root(repo)));

        McpSchema.CallToolResult noted = client.callTool(new CallToolRequest("memories_add_ad_hoc_note",
                Map.of("filename", "2026-12-02T09-00-00-use-pnpm.md", "note", "Always use pnpm 9 here.")));

        assertThat(noted.isError()).as(McpServerIT.text(noted)).isFalse();
        Path memories = home.resolve("memories");
        assertThat(MemoryTools.instructionsForFolder(memories, MemoriesConfig.defaults(), repoKey))
                .contains("Always use pnpm 9 here.");
        assertThat(MemoryTools.instructionsForFolder(memories, MemoriesConfig.defaults(), OTHER))
                .doesNotContain("Always use pnpm 9 here.");
    }
}
