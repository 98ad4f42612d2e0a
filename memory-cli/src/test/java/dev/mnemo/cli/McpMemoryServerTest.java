package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.testkit.ManualClock;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link McpMemoryServer}'s calls in process, with a clock the test moves. */
class McpMemoryServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-02T09:00:00Z"));

    private McpMemoryServer server(boolean allowNotes) throws Exception {
        Path home = MnemoJar.homeWithMemories(dir.resolve("home"));
        return new McpMemoryServer(new McpMemoryServer.Settings(home, allowNotes, OutputBudget.DEFAULT_MAX_TOKENS,
                "test"), clock, JSON, new JacksonMcpJsonMapper(JSON));
    }

    @Test
    void note_fileNameGetsTheTimeOfEachCall_notTheTimeTheServerStarted() throws Exception {
        McpMemoryServer server = server(true);

        CallToolResult first = server.call("memories_add_ad_hoc_note",
                Map.of("filename", "2025-01-31T09-30-00-prefer-maven.md", "note", "We moved to Maven."));
        clock.advance(Duration.ofHours(3).plusSeconds(5));
        CallToolResult second = server.call("memories_add_ad_hoc_note",
                Map.of("filename", "2025-01-31T09-30-00-prefer-maven.md", "note", "Still Maven."));

        Path notes = dir.resolve("home/memories/extensions/ad_hoc/notes");
        assertThat(first.isError()).isFalse();
        assertThat(answer(first).path("filename").asText()).isEqualTo("2026-12-02T09-00-00-prefer-maven.md");
        assertThat(notes.resolve("2026-12-02T09-00-00-prefer-maven.md")).hasContent("We moved to Maven.");
        assertThat(answer(second).path("filename").asText()).isEqualTo("2026-12-02T12-00-05-prefer-maven.md");
        assertThat(notes.resolve("2026-12-02T12-00-05-prefer-maven.md")).hasContent("Still Maven.");
        assertThat(notes.resolve("2025-01-31T09-30-00-prefer-maven.md")).doesNotExist();
    }

    @Test
    void note_sameNameInTheSameSecond_isRefusedAsAlreadyExisting() throws Exception {
        McpMemoryServer server = server(true);
        Map<String, Object> note = Map.of("filename", "2026-12-02T09-00-00-x.md", "note", "once");

        assertThat(server.call("memories_add_ad_hoc_note", note).isError()).isFalse();
        CallToolResult again = server.call("memories_add_ad_hoc_note", note);

        assertThat(again.isError()).isTrue();
        assertThat(McpServerIT.text(again)).contains("already exists");
    }

    @Test
    void note_nameWithoutTimestamp_goesToTheToolWhichRefusesIt() throws Exception {
        CallToolResult result = server(true).call("memories_add_ad_hoc_note", Map.of("filename", "x.md", "note", "x"));

        assertThat(result.isError()).isTrue();
        assertThat(Files.exists(dir.resolve("home/memories/extensions"))).isFalse();
    }

    @Test
    void read_aLineLongerThanTheBudget_isCut_andCharOffsetReadsOnThroughTheServer() throws Exception {
        McpMemoryServer server = server(false);
        String line = "é".repeat(6_000) + "z".repeat(6_000);
        Files.writeString(dir.resolve("home/memories/long.md"), line + "\n");

        CallToolResult first = server.call("memories_read", Map.of("path", "long.md"));
        int next = answer(first).path("next_char_offset").asInt();
        CallToolResult second = server.call("memories_read", Map.of("path", "long.md", "char_offset", next));

        assertThat(first.isError()).isFalse();
        assertThat(next).isPositive();
        assertThat(McpServerIT.text(first).length()).isLessThanOrEqualTo(OutputBudget.DEFAULT_MAX_TOKENS * 4);
        assertThat(second.isError()).isFalse();
        assertThat(answer(second).path("char_offset").asInt()).isEqualTo(next);
        assertThat(line.substring(next)).startsWith(answer(second).path("content").asText().substring(0, 100));
    }

    private static JsonNode answer(CallToolResult result) throws Exception {
        return JSON.readTree(McpServerIT.text(result));
    }
}
