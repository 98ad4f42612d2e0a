package dev.mnemo.internal.agent;

import static dev.mnemo.internal.agent.ToolLoopConsolidationAgentTest.call;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What each file tool does inside the memory folder, on real files. */
class AgentToolsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path root;

    private AgentTools tools;

    @BeforeEach
    void createTools() throws IOException {
        Files.writeString(root.resolve("MEMORY.md"), "# Task Group: a\n- tabs\n# Task Group: b\n- tabs\n");
        Files.createDirectories(root.resolve("rollout_summaries"));
        Files.writeString(root.resolve("rollout_summaries/one.md"), "thread_id=1\nthe user prefers tabs\n");
        Files.createDirectories(root.resolve(".git"));
        Files.writeString(root.resolve(".git/HEAD"), "ref: refs/heads/main\n");
        tools = new AgentTools(root);
    }

    @Test
    void listFiles_showsTypesAndSizesSortedAndHidesHiddenEntries() throws IOException {
        JsonNode top = ok("list_files", Map.of());
        assertThat(top.path("path").asText()).isEqualTo(".");
        assertThat(top.path("entries").toString())
                .isEqualTo("[{\"path\":\"MEMORY.md\",\"type\":\"file\",\"size\":46},"
                        + "{\"path\":\"rollout_summaries\",\"type\":\"dir\"}]");
        assertThat(top.path("truncated").asBoolean()).isFalse();

        JsonNode all = ok("list_files", Map.of("path", ".", "recursive", true));
        assertThat(all.path("entries").findValuesAsText("path"))
                .containsExactly("MEMORY.md", "rollout_summaries", "rollout_summaries/one.md");
    }

    @Test
    void listFiles_isBoundedAndSaysSo() throws IOException {
        Files.createDirectories(root.resolve("many"));
        for (int i = 0; i < SandboxedFiles.MAX_LIST_ENTRIES + 5; i++) {
            Files.writeString(root.resolve("many/f" + i + ".md"), "x");
        }
        JsonNode listing = ok("list_files", Map.of("path", "many"));
        assertThat(listing.path("entries")).hasSize(SandboxedFiles.MAX_LIST_ENTRIES);
        assertThat(listing.path("truncated").asBoolean()).isTrue();
        assertThat(listing.path("note").asText()).contains("listing stopped");
    }

    @Test
    void readFile_returnsARangeOfLinesWithTotals() throws IOException {
        Files.writeString(root.resolve("lines.md"), "one\ntwo\nthree\nfour\n");

        JsonNode slice = ok("read_file", Map.of("path", "lines.md", "start_line", 2, "max_lines", 2));

        assertThat(slice.path("content").asText()).isEqualTo("two\nthree\n");
        assertThat(slice.path("start_line").asInt()).isEqualTo(2);
        assertThat(slice.path("end_line").asInt()).isEqualTo(3);
        assertThat(slice.path("total_lines").asInt()).isEqualTo(4);
        assertThat(slice.path("truncated").asBoolean()).isTrue();
        assertThat(slice.path("note").asText()).contains("start_line 4");
    }

    @Test
    void readFile_cutsLongOutputWithANote() throws IOException {
        String line = "x".repeat(999);
        Files.writeString(root.resolve("big.md"), (line + "\n").repeat(300));

        JsonNode slice = ok("read_file", Map.of("path", "big.md"));

        assertThat(slice.path("content").asText().length()).isLessThanOrEqualTo(SandboxedFiles.MAX_READ_CHARS);
        assertThat(slice.path("end_line").asInt()).isEqualTo(100);
        assertThat(slice.path("truncated").asBoolean()).isTrue();
        assertThat(slice.path("note").asText()).contains("start_line 101");
        assertThat(error("read_file", Map.of("path", "big.md", "start_line", 301))).contains("past the end");
        assertThat(error("read_file", Map.of("path", "rollout_summaries"))).contains("is not a file");
        assertThat(error("read_file", Map.of("path", "nope.md"))).contains("'nope.md' was not found");
    }

    @Test
    void searchFiles_answersPathLineTextAndSkipsHiddenFiles() throws IOException {
        JsonNode found = ok("search_files", Map.of("query", "tabs"));
        List<String> matches = texts(found.path("matches"));
        assertThat(matches).containsExactly("MEMORY.md:2:- tabs", "MEMORY.md:4:- tabs",
                "rollout_summaries/one.md:2:the user prefers tabs");
        assertThat(texts(ok("search_files", Map.of("query", "refs/heads")).path("matches"))).isEmpty();
        assertThat(texts(ok("search_files", Map.of("query", "tabs", "path", "rollout_summaries/one.md"))
                .path("matches"))).containsExactly("rollout_summaries/one.md:2:the user prefers tabs");
        assertThat(error("search_files", Map.of("query", ""))).contains("query must not be empty");
    }

    @Test
    void searchFiles_isBounded() throws IOException {
        Files.writeString(root.resolve("hits.md"), "needle\n".repeat(SandboxedFiles.MAX_SEARCH_MATCHES + 10));
        JsonNode found = ok("search_files", Map.of("query", "needle"));
        assertThat(found.path("matches")).hasSize(SandboxedFiles.MAX_SEARCH_MATCHES);
        assertThat(found.path("truncated").asBoolean()).isTrue();
    }

    @Test
    void writeFile_createsParentsReplacesAtomicallyAndLeavesNoTempFiles() throws IOException {
        JsonNode created = ok("write_file", Map.of("path", "skills/deploy/SKILL.md", "content", "---\nname: deploy\n---\n"));
        assertThat(created.path("created").asBoolean()).isTrue();
        JsonNode replaced = ok("write_file", Map.of("path", "MEMORY.md", "content", "memory\n"));
        assertThat(replaced.path("created").asBoolean()).isFalse();
        assertThat(replaced.path("bytes").asLong()).isEqualTo(7);

        assertThat(Files.readString(root.resolve("skills/deploy/SKILL.md"))).isEqualTo("---\nname: deploy\n---\n");
        assertThat(Files.readString(root.resolve("MEMORY.md"))).isEqualTo("memory\n");
        try (Stream<Path> all = Files.walk(root)) {
            assertThat(all.map(p -> p.getFileName().toString())).noneMatch(name -> name.startsWith(".mnemo"));
        }
        assertThat(error("write_file", Map.of("path", "rollout_summaries", "content", "x"))).contains("is a folder");
        assertThat(error("write_file", Map.of("path", "MEMORY.md/child.md", "content", "x"))).contains("is a file");
    }

    @Test
    void editFile_replacesTextThatMatchesExactlyOnce() throws IOException {
        ok("edit_file", Map.of("path", "rollout_summaries/one.md", "old_string", "tabs", "new_string", "spaces"));

        assertThat(Files.readString(root.resolve("rollout_summaries/one.md")))
                .isEqualTo("thread_id=1\nthe user prefers spaces\n");
    }

    @Test
    void editFile_refusesTextThatMatchesTwiceOrNeverAndLeavesTheFileAlone() throws IOException {
        String before = Files.readString(root.resolve("MEMORY.md"));

        assertThat(error("edit_file", Map.of("path", "MEMORY.md", "old_string", "- tabs", "new_string", "- spaces")))
                .contains("matches 2 times", "exactly once");
        assertThat(error("edit_file", Map.of("path", "MEMORY.md", "old_string", "- Tabs", "new_string", "x")))
                .contains("was not found");
        assertThat(error("edit_file", Map.of("path", "MEMORY.md", "old_string", "", "new_string", "x")))
                .contains("must not be empty");
        assertThat(Files.readString(root.resolve("MEMORY.md"))).isEqualTo(before);

        ok("edit_file", Map.of("path", "MEMORY.md", "old_string", "a\n- tabs", "new_string", "a\n- spaces"));
        assertThat(Files.readString(root.resolve("MEMORY.md")))
                .isEqualTo("# Task Group: a\n- spaces\n# Task Group: b\n- tabs\n");
    }

    @Test
    void deleteFile_removesFilesAndOnlyEmptyFolders() throws IOException {
        assertThat(error("delete_file", Map.of("path", "rollout_summaries"))).contains("not empty");
        ok("delete_file", Map.of("path", "rollout_summaries/one.md"));
        ok("delete_file", Map.of("path", "rollout_summaries"));
        assertThat(root.resolve("rollout_summaries")).doesNotExist();
        assertThat(error("delete_file", Map.of("path", "rollout_summaries"))).contains("was not found");
        assertThat(error("delete_file", Map.of("path", "."))).contains("memory folder itself");
    }

    @Test
    void moveFile_renamesButOverwritesOnlyWhenAsked() throws IOException {
        Files.writeString(root.resolve("notes.md"), "notes\n");

        assertThat(error("move_file", Map.of("from", "notes.md", "to", "MEMORY.md"))).contains("already exists");
        assertThat(Files.readString(root.resolve("notes.md"))).isEqualTo("notes\n");

        JsonNode moved = ok("move_file", Map.of("from", "notes.md", "to", "MEMORY.md", "overwrite", true));
        assertThat(moved.path("replaced").asBoolean()).isTrue();
        assertThat(Files.readString(root.resolve("MEMORY.md"))).isEqualTo("notes\n");
        assertThat(root.resolve("notes.md")).doesNotExist();

        ok("move_file", Map.of("from", "rollout_summaries", "to", "archive/summaries"));
        assertThat(root.resolve("archive/summaries/one.md")).exists();
        assertThat(error("move_file", Map.of("from", "archive", "to", "archive/inner"))).contains("into itself");
        assertThat(error("move_file", Map.of("from", "missing.md", "to", "x.md"))).contains("was not found");
    }

    private JsonNode ok(String tool, Map<String, ?> arguments) throws IOException {
        JsonNode reply = JSON.readTree(tools.run(call("id", tool, arguments)));
        assertThat(reply.has("error")).as("%s %s answered %s", tool, arguments, reply).isFalse();
        return reply;
    }

    private String error(String tool, Map<String, ?> arguments) throws IOException {
        JsonNode reply = JSON.readTree(tools.run(call("id", tool, arguments)));
        assertThat(reply.has("error")).as("%s %s answered %s", tool, arguments, reply).isTrue();
        assertThat(reply.size()).isEqualTo(1);
        return reply.get("error").asText();
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(node -> out.add(node.asText()));
        return out;
    }
}
