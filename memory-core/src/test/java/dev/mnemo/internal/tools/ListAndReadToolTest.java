package dev.mnemo.internal.tools;

import static dev.mnemo.internal.tools.LocalMemoryTools.LIST;
import static dev.mnemo.internal.tools.LocalMemoryTools.READ;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Ports the list/read backend tests of Codex's {@code local_tests.rs} (read sheet §7.1, 1–13, 27). */
class ListAndReadToolTest extends ToolsFixture {

    private static List<String> paths(JsonNode listResult) {
        List<String> paths = new ArrayList<>();
        listResult.get("entries").forEach(entry -> paths.add(entry.get("path").asText()));
        return paths;
    }

    @Test
    void list_returnsShallowMemoryPaths() {
        mkdirs("skills/example");
        mkdirs(".git");
        write("MEMORY.md", "summary");
        write(".DS_Store", "metadata");
        write("skills/example/SKILL.md", "skill");

        JsonNode result = ok(LIST, "{}");

        assertThat(result).isEqualTo(json("{'path':null,'entries':[{'path':'MEMORY.md','entry_type':'file'},"
                + "{'path':'skills','entry_type':'directory'}],'next_cursor':null,'truncated':false}"));
    }

    @Test
    void list_supportsPagination() {
        mkdirs("skills");
        mkdirs("rollout_summaries");
        write("MEMORY.md", "summary");
        write("memory_summary.md", "summary");

        JsonNode page1 = ok(LIST, "{\"max_results\":2}");
        JsonNode page2 = ok(LIST, "{\"max_results\":2,\"cursor\":\"2\"}");

        assertThat(paths(page1)).containsExactly("MEMORY.md", "memory_summary.md");
        assertThat(page1.get("next_cursor").asText()).isEqualTo("2");
        assertThat(page1.get("truncated").asBoolean()).isTrue();
        assertThat(paths(page2)).containsExactly("rollout_summaries", "skills");
        assertThat(page2.get("next_cursor").isNull()).isTrue();
        assertThat(page2.get("truncated").asBoolean()).isFalse();
    }

    @Test
    void list_preservesByteWiseOrderForSiblings() {
        mkdirs("a");
        write("a.txt", "a");
        write("b.txt", "b");
        write("\u00e9.md", "e");
        write("Z.md", "z");

        assertThat(paths(ok(LIST, ""))).containsExactly("Z.md", "a", "a.txt", "b.txt", "\u00e9.md");
    }

    @Test
    void list_scopedDirectoryIsShallow() {
        mkdirs("skills/example");
        write("skills/README.md", "readme");
        write("skills/example/SKILL.md", "skill");

        JsonNode result = ok(LIST, "{\"path\":\"skills\"}");

        assertThat(result.get("path").asText()).isEqualTo("skills");
        assertThat(result.get("entries")).isEqualTo(json("[{'path':'skills/README.md','entry_type':'file'},"
                + "{'path':'skills/example','entry_type':'directory'}]"));
    }

    @Test
    void list_ofAFileGivesThatFile() {
        write("skills/README.md", "readme");

        assertThat(ok(LIST, "{\"path\":\"./skills//README.md\"}").get("entries"))
                .isEqualTo(json("[{'path':'skills/README.md','entry_type':'file'}]"));
    }

    @Test
    void list_rejectsHiddenScopedPaths() {
        mkdirs(".git");

        assertThat(error(LIST, "{\"path\":\".git\"}")).isEqualTo("path '.git' was not found");
    }

    @Test
    void list_rejectsInvalidCursor() {
        write("MEMORY.md", "summary");

        assertThat(error(LIST, "{\"cursor\":\"bogus\"}")).isEqualTo("cursor 'bogus' must be a non-negative integer");
        assertThat(error(LIST, "{\"cursor\":\"-1\"}")).isEqualTo("cursor '-1' must be a non-negative integer");
    }

    @Test
    void list_rejectsCursorPastEndButAcceptsCursorAtEnd() {
        write("MEMORY.md", "summary");

        assertThat(error(LIST, "{\"cursor\":\"2\"}")).isEqualTo("cursor '2' exceeds result count");
        assertThat(error(LIST, "{\"cursor\":\"99999999999999\"}")).contains("exceeds result count");
        JsonNode atEnd = ok(LIST, "{\"cursor\":\"1\"}");
        assertThat(atEnd.get("entries")).isEmpty();
        assertThat(atEnd.get("truncated").asBoolean()).isFalse();
    }

    @Test
    void list_clampsMaxResultsToAtLeastOne() {
        write("a.md", "a");
        write("b.md", "b");

        JsonNode result = ok(LIST, "{\"max_results\":0}");

        assertThat(paths(result)).containsExactly("a.md");
        assertThat(result.get("next_cursor").asText()).isEqualTo("1");
    }

    @Test
    void list_rejectsMissingScopedPathsAndMissingRoot() throws IOException {
        assertThat(error(LIST, "{\"path\":\"missing\"}")).isEqualTo("path 'missing' was not found");

        Files.delete(root);
        assertThat(error(LIST, "{}")).isEqualTo("path '' was not found");
    }

    @Test
    void read_returnsFileContentAndRejectsDirectory() {
        write("MEMORY.md", "remember this");

        assertThat(ok(READ, "{\"path\":\"MEMORY.md\"}")).isEqualTo(json(
                "{'path':'MEMORY.md','start_line_number':1,'content':'remember this','truncated':false}"));
        assertThat(error(READ, "{\"path\":\".\"}")).isEqualTo("path '.' is not a file");
    }

    @Test
    void read_rejectsMissingPaths() {
        assertThat(error(READ, "{\"path\":\"missing.md\"}")).isEqualTo("path 'missing.md' was not found");
        assertThat(error(READ, "{\"path\":\"nowhere/deeper/missing.md\"}"))
                .isEqualTo("path 'nowhere/deeper/missing.md' was not found");
    }

    @Test
    void read_supportsLineOffset() {
        write("MEMORY.md", "alpha\nbeta\ngamma\n");

        assertThat(ok(READ, "{\"path\":\"MEMORY.md\",\"line_offset\":2}")).isEqualTo(json(
                "{'path':'MEMORY.md','start_line_number':2,'content':'beta\\ngamma\\n','truncated':false}"));
    }

    @Test
    void read_rejectsHiddenPaths() {
        write(".git/HEAD", "ref: refs/heads/main\n");

        assertThat(error(READ, "{\"path\":\".git/HEAD\"}")).isEqualTo("path '.git/HEAD' was not found");
    }

    @Test
    void read_supportsMaxLines() {
        write("MEMORY.md", "alpha\nbeta\ngamma\n");

        assertThat(ok(READ, "{\"path\":\"MEMORY.md\",\"line_offset\":2,\"max_lines\":1}")).isEqualTo(json(
                "{'path':'MEMORY.md','start_line_number':2,'content':'beta\\n','truncated':true}"));
        assertThat(ok(READ, "{\"path\":\"MEMORY.md\",\"line_offset\":2,\"max_lines\":2}").get("truncated")
                .asBoolean()).isFalse();
    }

    @Test
    void read_rejectsInvalidLineRequests() {
        write("MEMORY.md", "only\n");

        assertThat(error(READ, "{\"path\":\"MEMORY.md\",\"line_offset\":0}"))
                .isEqualTo("line_offset must be a 1-indexed line number");
        assertThat(error(READ, "{\"path\":\"MEMORY.md\",\"max_lines\":0}"))
                .isEqualTo("max_lines must be a positive integer");
        assertThat(error(READ, "{\"path\":\"MEMORY.md\",\"line_offset\":3}"))
                .isEqualTo("line_offset exceeds file length");
        assertThat(ok(READ, "{\"path\":\"MEMORY.md\",\"line_offset\":2}").get("content").asText()).isEmpty();
    }

    @Test
    void read_capsContentAt20000TokensWithMiddleTruncation() {
        String big = "h".repeat(50_000) + "\u00e9".repeat(20_000) + "t".repeat(50_000);
        write("big.md", big);

        JsonNode result = ok(READ, "{\"path\":\"big.md\"}");

        String content = result.get("content").asText();
        assertThat(result.get("truncated").asBoolean()).isTrue();
        assertThat(content).startsWith("h".repeat(40_000)).endsWith("t".repeat(40_000))
                .contains("\u202615000 tokens truncated\u2026");
    }

    /**
     * Beyond Codex: {@code char_offset} reads one line from a character on, and a line over the read
     * limit is cut at its end (not in its middle) with {@code next_char_offset}, so paging through it
     * gives back every character, offsets counted in the line as it is on disk.
     */
    @Test
    void readWithCharOffset_pagesThroughALineOverTheLimit_cutAtItsEnd_losingNothing() {
        StringBuilder numbered = new StringBuilder();
        for (int i = 0; numbered.length() < 200_000; i++) {
            numbered.append(String.format("w%06d\u00e9 ", i));
        }
        String line = numbered + "\n";
        write("long.md", line + "next line\n");

        StringBuilder read = new StringBuilder();
        int offset = 0;
        int pages = 0;
        while (true) {
            JsonNode page = ok(READ, "{\"path\":\"long.md\",\"char_offset\":" + offset + "}");
            assertThat(page.get("char_offset").asInt()).isEqualTo(offset);
            assertThat(page.get("truncated").asBoolean()).isTrue(); // a cut, or the next line after
            read.append(page.get("content").asText());
            pages++;
            if (!page.has("next_char_offset")) {
                break;
            }
            offset = page.get("next_char_offset").asInt();
            assertThat(read.codePointCount(0, read.length())).isEqualTo(offset);
        }

        assertThat(read.toString()).isEqualTo(line);
        assertThat(pages).isEqualTo(3);
        assertThat(ok(READ, "{\"path\":\"long.md\",\"char_offset\":150000}").get("content").asText())
                .startsWith(line.substring(150_000, 150_040));
    }

    @Test
    void readWithCharOffset_readsTheRestOfOneLine_andRefusesAnOffsetPastItsEnd() {
        write("MEMORY.md", "# Summary\n- builds use gradle 8\n");

        JsonNode rest = ok(READ, "{\"path\":\"MEMORY.md\",\"line_offset\":2,\"char_offset\":2}");

        assertThat(rest.get("content").asText()).isEqualTo("builds use gradle 8\n");
        assertThat(rest.get("truncated").asBoolean()).isFalse();
        assertThat(rest.has("next_char_offset")).isFalse();
        assertThat(error(READ, "{\"path\":\"MEMORY.md\",\"char_offset\":11}"))
                .isEqualTo("char_offset 11 is past the end of line 1, which has 10 characters");
    }

    @Test
    void read_reportsNonUtf8FileAsError() throws IOException {
        Files.write(root.resolve("bin.md"), new byte[] {'o', 'k', (byte) 0xFF});

        assertThat(error(READ, "{\"path\":\"bin.md\"}")).startsWith("I/O error while reading memories:");
    }
}
