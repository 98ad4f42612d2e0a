package dev.mnemo.cli;

import static dev.mnemo.testkit.ProjectMemories.GLOBAL_FACT;
import static dev.mnemo.testkit.ProjectMemories.NPM_FACT;
import static dev.mnemo.testkit.ProjectMemories.PNPM_FACT;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryTools;
import dev.mnemo.ProjectKeys;
import dev.mnemo.testkit.ManualClock;
import dev.mnemo.testkit.ProjectMemories;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * as {@code mnemo mcp} runs it, driven by the MCP SDK's own client over a loopback socket
 * ({@link InProcessMcp}). The
 * memory folder holds a global summary and two projects' memory with conflicting facts
 * ({@link ProjectMemories}); one project is a real git repository, whose folder a client names as
 * its root.
 */
@Timeout(60)
class McpProjectTest {

    static final String OTHER = "acme/other";

    @TempDir
    Path dir;

    Path home;
    Path repo;
    String repoKey;
    InProcessMcp mcp;
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
        if (mcp != null) {
            mcp.close();
        }
    }

    /** Starts the server and connects a client declaring {@code roots} (none: no roots capability). */
    McpMemoryServer connect(Optional<String> project, List<McpSchema.Root> roots) throws IOException {
        McpMemoryServer memory = new McpMemoryServer(new McpMemoryServer.Settings(home, true,
                OutputBudget.DEFAULT_MAX_TOKENS, "test", project), new ManualClock(Instant.parse("2026-12-02T09:00:00Z")),
                InProcessMcp.JSON, InProcessMcp.MAPPER);
        mcp = InProcessMcp.start(memory, spec -> roots == null ? spec
                : spec.capabilities(McpSchema.ClientCapabilities.builder().roots(true).build()).roots(roots));
        client = mcp.client;
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

    /** What {@code tool} answers to {@code arguments}, as text; {@code error}: whether it must be a tool error. */
    String call(String tool, Map<String, Object> arguments, boolean error) {
        McpSchema.CallToolResult result = client.callTool(new CallToolRequest(tool, arguments));
        assertThat(result.isError()).as(McpServerIT.text(result)).isEqualTo(error);
        return McpServerIT.text(result);
    }

    @Test
    void inAProject_searchAndListDefaultToItAndTheGlobalMemory_andScopeAllReachesOtherProjects() throws Exception {
        connect(Optional.of(OTHER), null);
        String projects = ProjectKeys.FOLDER;

        String found = call("memories_search", Map.of("queries", List.of("installs dependencies")), false);
        String listed = call("memories_list", Map.of("path", projects), false);

        assertThat(found).contains(NPM_FACT).doesNotContain(PNPM_FACT);
        assertThat(listed).contains(ProjectKeys.slug(OTHER)).doesNotContain(ProjectKeys.slug(repoKey));
        assertThat(call("memories_search", Map.of("queries", List.of("installs dependencies"), "scope", "all"), false))
                .contains(NPM_FACT, PNPM_FACT);
        assertThat(call("memories_list", Map.of("path", projects, "scope", "all"), false))
                .contains(ProjectKeys.slug(OTHER), ProjectKeys.slug(repoKey));
    }

    @Test
    void inAProject_readingAnotherProjectsFile_isRefusedWithHowToAskForIt_unlessScopeAll() throws Exception {
        connect(Optional.of(OTHER), null);
        String theirs = ProjectKeys.FOLDER + "/" + ProjectKeys.slug(repoKey) + "/MEMORY.md";

        String refused = call("memories_read", Map.of("path", theirs), true);

        assertThat(refused).contains("another project", "scope", "all").doesNotContain(PNPM_FACT);
        assertThat(call("memories_read", Map.of("path", theirs, "scope", "all"), false)).contains(PNPM_FACT);
        assertThat(call("memories_read", Map.of("path", ProjectKeys.FOLDER + "/" + ProjectKeys.slug(OTHER)
                + "/MEMORY.md"), false)).contains(NPM_FACT);
    }

    @Test
    void aProjectFromTheClientsRoots_confinesTheToolsToo() throws Exception {
        connect(Optional.empty(), List.of(root(repo)));

        String found = call("memories_search", Map.of("queries", List.of("installs dependencies")), false);

        assertThat(found).contains(PNPM_FACT).doesNotContain(NPM_FACT);
        assertThat(call("memories_read", Map.of("path", ProjectKeys.FOLDER + "/" + ProjectKeys.slug(OTHER)
                + "/MEMORY.md"), true)).contains("another project");
    }

    @Test
    void outsideAnyProject_searchSeesEveryProject_andAReadScopeIsAccepted() throws Exception {
        connect(Optional.empty(), null);

        assertThat(call("memories_search", Map.of("queries", List.of("installs dependencies")), false))
                .contains(NPM_FACT, PNPM_FACT);
        assertThat(call("memories_read", Map.of("path", ProjectKeys.FOLDER + "/" + ProjectKeys.slug(OTHER)
                + "/MEMORY.md", "scope", "all"), false)).contains(NPM_FACT);
        assertThat(call("memories_read", Map.of("path", "memory_summary.md", "scope", "project"), false))
                .contains(GLOBAL_FACT);
    }

    @Test
    void theReadToolsSchema_offersAScope_andSearchSaysTheProjectIsTheDefault() throws Exception {
        connect(Optional.empty(), List.of(root(repo)));

        Map<String, McpSchema.Tool> tools = new java.util.HashMap<>();
        client.listTools().tools().forEach(tool -> tools.put(tool.name(), tool));

        assertThat(InProcessMcp.JSON.valueToTree(tools.get("memories_read").inputSchema()).path("properties")
                .path("scope").path("enum").toString()).isEqualTo("[\"project\",\"all\"]");
        assertThat(InProcessMcp.JSON.valueToTree(tools.get("memories_search").inputSchema()).path("properties")
                .path("scope").path("description").asText()).contains("`project` (default in a project)");
    }

    @Test
    void projectFromCwd_inALinkedWorktree_isTheMainRepositorysProject() throws Exception {
        Path worktree = dir.resolve("web-feature");
        try (Git git = Git.open(repo.toFile())) {
            Files.writeString(repo.resolve("README.md"), "web\n");
            git.add().addFilepattern("README.md").call();
            git.commit().setMessage("first").setAuthor("t", "t@example.com").setCommitter("t", "t@example.com")
                    .setSign(false).call();
        }
        Process add = new ProcessBuilder("git", "-C", repo.toString(), "worktree", "add", "-q", worktree.toString())
                .redirectErrorStream(true).start();
        assertThat(add.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(add.exitValue()).as(new String(add.getInputStream().readAllBytes())).isZero();
        McpCommand command = new McpCommand();
        command.projectFromCwd = true;

        assertThat(command.projectKey(Files.createDirectories(worktree.resolve("src")))).contains(repoKey);
        assertThat(command.projectKey(repo)).contains(repoKey);
        assertThat(new McpCommand().projectKey(worktree)).isEmpty();
    }

    @Test
    void projectFromCwd_isInTheHelp() {
        MnemoCliTest.Result r = MnemoCliTest.run(dir, null, "mcp", "--help");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("--project-from-cwd", "Not with --project.");
    }

    @Test
    void projectFromCwd_withProject_isAUsageErrorNamingBoth() {
        MnemoCliTest.Result r = MnemoCliTest.run(dir, null, "--home", home.toString(), "mcp", "--project", OTHER,
                "--project-from-cwd");

        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--project and --project-from-cwd");
    }
}
