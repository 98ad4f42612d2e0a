package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.ProjectKeys;
import dev.mnemo.testkit.ProjectMemories;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.eclipse.jgit.api.Git;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mnemo mcp} with {@code --allow-notes}, in a project ({@code --project}, or the client's
 * roots), and on a home that does not exist.
 */
@Timeout(120)
class McpServerOptionsIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void allowNotes_servesTheNoteToolWhichWritesTheNoteUnderTheTimeOfTheCall() throws Exception {
        Path home = MnemoJar.homeWithMemories(dir.resolve("home"));
        McpSyncClient client = McpServerIT.connect(home, "--allow-notes");
        try {
            McpSchema.Tool note = client.listTools().tools().stream()
                    .filter(t -> t.name().equals("memories_add_ad_hoc_note")).findFirst().orElseThrow();
            assertThat(note.annotations().readOnlyHint()).isFalse();
            assertThat(note.description()).contains("ask them to confirm");
            assertThat(JSON.valueToTree(note.inputSchema()).path("properties").path("filename").path("description")
                    .asText()).doesNotContain("now ").contains("current UTC time");

            CallToolResult added = client.callTool(new CallToolRequest("memories_add_ad_hoc_note",
                    Map.of("filename", "2025-01-31T09-30-00-prefer-maven.md", "note", "We moved to Maven.")));

            assertThat(added.isError()).isFalse();
            String written = JSON.readTree(McpServerIT.text(added)).path("filename").asText();
            assertThat(written).endsWith("-prefer-maven.md").doesNotStartWith("2025-01-31");
            assertThat(home.resolve("memories/extensions/ad_hoc/notes").resolve(written))
                    .hasContent("We moved to Maven.");
        } finally {
            client.close();
        }
    }

    @Test
    void project_theInstructionsCarryThatProjectsSummary_andTheToolsServeThatProject() throws Exception {
        Path home = dir.resolve("home");
        ProjectMemories.plant(home, "acme/web", "acme/api");
        McpSyncClient client = McpServerIT.connect(home, "--project", "acme/web");
        try {
            String instructions = client.getCurrentInitializationResult().instructions();
            String found = McpServerIT.text(client.callTool(new CallToolRequest("memories_search",
                    Map.of("queries", List.of("installs dependencies"), "scope", "project"))));

            assertThat(instructions).contains(ProjectMemories.PNPM_FACT, ProjectMemories.GLOBAL_FACT)
                    .doesNotContain(ProjectMemories.NPM_FACT);
            assertThat(found).contains(ProjectKeys.slug("acme/web")).doesNotContain(ProjectKeys.slug("acme/api"));
        } finally {
            client.close();
        }
    }

    @Test
    void projectFromCwd_theRepositoryTheServerIsStartedIn_isTheProject_andOtherProjectsStayOut() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("src/web"));
        Git.init().setDirectory(repo.toFile()).call().close();
        Path home = dir.resolve("home");
        ProjectMemories.plant(home, ProjectKeys.forDirectory(repo), "acme/api");
        McpSyncClient client = McpServerIT.connectIn(Files.createDirectories(repo.resolve("packages/ui")), home,
                "--project-from-cwd");
        try {
            String found = McpServerIT.text(client.callTool(new CallToolRequest("memories_search",
                    Map.of("queries", List.of("installs dependencies")))));

            assertThat(client.getCurrentInitializationResult().instructions())
                    .contains(ProjectMemories.PNPM_FACT, ProjectMemories.GLOBAL_FACT)
                    .doesNotContain(ProjectMemories.NPM_FACT);
            assertThat(found).contains(ProjectMemories.PNPM_FACT).doesNotContain(ProjectMemories.NPM_FACT);
        } finally {
            client.close();
        }
    }

    @Test
    void roots_aClientsFirstFileRoot_scopesTheToolsOfTheServerProcess() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("src/web"));
        Git.init().setDirectory(repo.toFile()).call().close();
        Path home = dir.resolve("home");
        ProjectMemories.plant(home, ProjectKeys.forDirectory(repo), "acme/api");
        McpSyncClient client = McpServerIT.connect(home, spec -> spec
                .capabilities(McpSchema.ClientCapabilities.builder().roots(true).build())
                .roots(new McpSchema.Root(repo.toUri().toString(), "web")));
        try {
            String found = McpServerIT.text(client.callTool(new CallToolRequest("memories_search",
                    Map.of("queries", List.of("installs dependencies"), "scope", "project"))));

            assertThat(client.getCurrentInitializationResult().instructions()).contains(ProjectMemories.GLOBAL_FACT)
                    .doesNotContain(ProjectMemories.PNPM_FACT);
            assertThat(found).contains(ProjectKeys.slug(ProjectKeys.forDirectory(repo)))
                    .doesNotContain(ProjectKeys.slug("acme/api"));
        } finally {
            client.close();
        }
    }

    @Test
    void instructions_carryTheSummaryCappedBySummaryTokenLimit() throws Exception {
        Path home = MnemoJar.homeWithMemories(dir.resolve("home"));
        Files.writeString(home.resolve("config.toml"), "[memories]\nsummary_token_limit = 500\n");
        StringBuilder summary = new StringBuilder("SUMMARY-START\n");
        for (int i = 0; i < 3_000; i++) {
            summary.append("- filler line ").append(i).append(i == 1_500 ? " SUMMARY-MIDDLE" : "").append('\n');
        }
        Files.writeString(home.resolve("memories/memory_summary.md"), summary.append("SUMMARY-END\n"));

        McpSyncClient client = McpServerIT.connect(home);
        try {
            String instructions = client.getCurrentInitializationResult().instructions();

            assertThat(instructions).contains("SUMMARY-START", "SUMMARY-END").doesNotContain("SUMMARY-MIDDLE");
            assertThat(instructions.length()).isLessThan(10_000);
        } finally {
            client.close();
        }
    }

    @Test
    void read_largeFile_comesInPagesWithinTheDefaultBudget_thatTogetherHoldTheWholeFile() throws Exception {
        Path home = MnemoJar.homeWithMemories(dir.resolve("home"));
        String handbook = bigHandbook();
        Files.writeString(home.resolve("memories/MEMORY.md"), handbook);
        McpSyncClient client = McpServerIT.connect(home);
        try {
            StringBuilder pages = new StringBuilder();
            int offset = 1;
            int calls = 0;
            while (offset > 0) {
                String text = McpServerIT.text(client.callTool(new CallToolRequest("memories_read",
                        Map.of("path", "MEMORY.md", "line_offset", offset))));
                assertThat(text.getBytes(StandardCharsets.UTF_8).length)
                        .isLessThanOrEqualTo(OutputBudget.DEFAULT_MAX_TOKENS * 4);
                JsonNode page = JSON.readTree(text);
                pages.append(page.path("content").asText());
                offset = page.path("next_line_offset").asInt(0);
                assertThat(page.path("truncated").asBoolean()).isEqualTo(offset > 0);
                calls++;
            }

            assertThat(pages.toString()).isEqualTo(handbook);
            assertThat(calls).isGreaterThan(10);
        } finally {
            client.close();
        }
    }

    @Test
    void search_manyMatches_comeInPagesWithinTheBudget_whoseCursorsReachEveryMatch() throws Exception {
        Path home = MnemoJar.homeWithMemories(dir.resolve("home"));
        Files.writeString(home.resolve("memories/MEMORY.md"), bigHandbook());
        McpSyncClient client = McpServerIT.connect(home, "--max-output-tokens", "4000");
        try {
            int matches = 0;
            String cursor = null;
            int largest = 0;
            do {
                Map<String, Object> args = new java.util.HashMap<>(Map.of("queries", List.of("gradle")));
                if (cursor != null) {
                    args.put("cursor", cursor);
                }
                String text = McpServerIT.text(client.callTool(new CallToolRequest("memories_search", args)));
                largest = Math.max(largest, text.getBytes(StandardCharsets.UTF_8).length);
                JsonNode page = JSON.readTree(text);
                matches += page.path("matches").size();
                cursor = page.path("next_cursor").isTextual() ? page.path("next_cursor").asText() : null;
            } while (cursor != null);

            assertThat(matches).isEqualTo(2_001); // and the summary's line

            assertThat(largest).isLessThanOrEqualTo(4_000 * 4).isGreaterThan(OutputBudget.DEFAULT_MAX_TOKENS * 4);
        } finally {
            client.close();
        }
    }

    /** 2,000 lines of about 90 bytes, each naming gradle: about 180 KB. */
    private static String bigHandbook() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 2_000; i++) {
            text.append("- line ").append(i).append(": the build uses gradle 8 with \"quotes\" and a long tail of words\n");
        }
        return text.toString();
    }

    @Test
    void missingHome_everyCallIsAToolErrorAndTheHomeIsNotCreated() {
        Path home = dir.resolve("no-such-home");
        McpSyncClient client = McpServerIT.connect(home, "--allow-notes");
        try {
            assertThat(client.listTools().tools()).hasSize(4);
            for (CallToolRequest call : List.of(new CallToolRequest("memories_list", Map.of()),
                    new CallToolRequest("memories_search", Map.of("queries", List.of("x"))),
                    new CallToolRequest("memories_add_ad_hoc_note",
                            Map.of("filename", "2026-12-01T08-00-00-x.md", "note", "x")))) {
                CallToolResult result = client.callTool(call);
                assertThat(result.isError()).as(call.name()).isTrue();
                assertThat(McpServerIT.text(result)).contains("does not exist");
            }
            Assertions.assertThatThrownBy(() -> client.readResource(
                    new ReadResourceRequest("mnemo://memories/MEMORY.md")))
                    .isInstanceOf(McpError.class)
                    .satisfies(e -> assertThat(((McpError) e).getJsonRpcError().code())
                            .isEqualTo(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND));
        } finally {
            client.close();
        }
        assertThat(Files.exists(home)).isFalse();
    }
}
