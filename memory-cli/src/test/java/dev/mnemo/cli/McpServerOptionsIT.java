package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code mnemo mcp} with {@code --allow-notes}, and on a home that does not exist. */
@Timeout(120)
class McpServerOptionsIT {

    @TempDir
    Path dir;

    @Test
    void allowNotes_servesTheNoteToolWhichWritesTheNote() throws Exception {
        Path home = MnemoJar.homeWithMemories(dir.resolve("home"));
        McpSyncClient client = McpServerIT.connect(home, "--allow-notes");
        try {
            McpSchema.Tool note = client.listTools().tools().stream()
                    .filter(t -> t.name().equals("memories_add_ad_hoc_note")).findFirst().orElseThrow();
            assertThat(note.annotations().readOnlyHint()).isFalse();

            CallToolResult added = client.callTool(new CallToolRequest("memories_add_ad_hoc_note",
                    Map.of("filename", "2026-12-01T08-00-00-prefer-maven.md", "note", "We moved to Maven.")));
            CallToolResult again = client.callTool(new CallToolRequest("memories_add_ad_hoc_note",
                    Map.of("filename", "2026-12-01T08-00-00-prefer-maven.md", "note", "Twice.")));

            assertThat(added.isError()).isFalse();
            assertThat(McpServerIT.text(added)).isEqualTo("{}");
            assertThat(home.resolve("memories/extensions/ad_hoc/notes/2026-12-01T08-00-00-prefer-maven.md"))
                    .hasContent("We moved to Maven.");
            assertThat(again.isError()).isTrue();
            assertThat(McpServerIT.text(again)).contains("already exists");
        } finally {
            client.close();
        }
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
