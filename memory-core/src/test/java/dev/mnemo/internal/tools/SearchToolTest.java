package dev.mnemo.internal.tools;

import static dev.mnemo.internal.tools.LocalMemoryTools.SEARCH;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** Ports the search tests of {@code local_tests.rs} and the extension tests 45–47 (read sheet §7). */
class SearchToolTest extends ToolsFixture {

    private static String match(String path, int line, int start, String content, String... queries) {
        StringBuilder matched = new StringBuilder();
        for (String query : queries) {
            matched.append(matched.length() == 0 ? "" : ",").append('\'').append(query).append('\'');
        }
        return "{'path':'" + path + "','match_line_number':" + line + ",'content_start_line_number':" + start
                + ",'content':'" + content + "','matched_queries':[" + matched + "]}";
    }

    private JsonNode matches(String arguments) {
        return ok(SEARCH, arguments).get("matches");
    }

    @Test
    void search_supportsDirectoryAndFileScopes() {
        write("MEMORY.md", "alpha\nneedle\n");
        write("rollout_summaries/a.jsonl", "needle again\n");

        JsonNode all = ok(SEARCH, "{\"queries\":[\"needle\"]}");
        assertThat(all.get("matches")).isEqualTo(json("[" + match("MEMORY.md", 2, 2, "needle", "needle") + ","
                + match("rollout_summaries/a.jsonl", 1, 1, "needle again", "needle") + "]"));
        assertThat(all.get("next_cursor").isNull()).isTrue();
        assertThat(all.get("truncated").asBoolean()).isFalse();

        assertThat(matches("{\"queries\":[\"needle\"],\"path\":\"MEMORY.md\"}"))
                .isEqualTo(json("[" + match("MEMORY.md", 2, 2, "needle", "needle") + "]"));
    }

    @Test
    void search_supportsPagination() {
        write("MEMORY.md", "needle one\nneedle two\n");
        write("rollout_summaries/a.jsonl", "needle three\n");

        JsonNode page1 = ok(SEARCH, "{\"queries\":[\"needle\"],\"max_results\":2}");
        JsonNode page2 = ok(SEARCH, "{\"queries\":[\"needle\"],\"max_results\":2,\"cursor\":\"2\"}");

        assertThat(page1.get("matches")).isEqualTo(json("[" + match("MEMORY.md", 1, 1, "needle one", "needle") + ","
                + match("MEMORY.md", 2, 2, "needle two", "needle") + "]"));
        assertThat(page1.get("next_cursor").asText()).isEqualTo("2");
        assertThat(page1.get("truncated").asBoolean()).isTrue();
        assertThat(page2.get("matches"))
                .isEqualTo(json("[" + match("rollout_summaries/a.jsonl", 1, 1, "needle three", "needle") + "]"));
        assertThat(page2.get("next_cursor").isNull()).isTrue();
    }

    @Test
    void search_preservesGlobalByteWisePathOrder() {
        write("a/child.md", "needle in child\n");
        write("a.txt", "needle in sibling\n");

        assertThat(matches("{\"queries\":[\"needle\"]}")).isEqualTo(json("["
                + match("a.txt", 1, 1, "needle in sibling", "needle") + ","
                + match("a/child.md", 1, 1, "needle in child", "needle") + "]"));
    }

    @Test
    void search_skipsHiddenPathsAndNonUtf8Files() throws IOException {
        write("MEMORY.md", "needle visible\n");
        write(".git/HEAD", "needle hidden\n");
        write(".hidden", "needle hidden\n");
        Files.write(root.resolve("binary.md"), new byte[] {'n', 'e', 'e', 'd', 'l', 'e', (byte) 0xC3});

        assertThat(matches("{\"queries\":[\"needle\"]}"))
                .isEqualTo(json("[" + match("MEMORY.md", 1, 1, "needle visible", "needle") + "]"));
    }

    @Test
    void search_rejectsHiddenAndMissingScopedPaths() {
        mkdirs(".git");

        assertThat(error(SEARCH, "{\"queries\":[\"needle\"],\"path\":\".git\"}")).isEqualTo("path '.git' was not found");
        assertThat(error(SEARCH, "{\"queries\":[\"needle\"],\"path\":\"missing\"}"))
                .isEqualTo("path 'missing' was not found");
    }

    @Test
    void search_supportsContextLines() {
        write("MEMORY.md", "alpha\nneedle\nomega\nneedle again\n");

        assertThat(matches("{\"queries\":[\"needle\"],\"context_lines\":1}")).isEqualTo(json("["
                + match("MEMORY.md", 2, 1, "alpha\\nneedle\\nomega", "needle") + ","
                + match("MEMORY.md", 4, 3, "omega\\nneedle again", "needle") + "]"));
    }

    @Test
    void search_supportsCaseInsensitiveMatching() {
        write("MEMORY.md", "Needle\nneedle\nNEEDLE\n");

        assertThat(matches("{\"queries\":[\"needle\"]}"))
                .isEqualTo(json("[" + match("MEMORY.md", 2, 2, "needle", "needle") + "]"));
        assertThat(matches("{\"queries\":[\"needle\"],\"case_sensitive\":false}")).isEqualTo(json("["
                + match("MEMORY.md", 1, 1, "Needle", "needle") + "," + match("MEMORY.md", 2, 2, "needle", "needle")
                + "," + match("MEMORY.md", 3, 3, "NEEDLE", "needle") + "]"));
    }

    @Test
    void search_supportsNormalizedMatching() {
        write("MEMORY.md", "MultiAgentV2\ncold-resume\n");

        assertThat(matches("{\"queries\":[\"multi agent v2\",\"cold resume\"]}")).isEmpty();
        assertThat(matches("{\"queries\":[\"multi agent v2\",\"cold resume\"],\"case_sensitive\":false,"
                + "\"normalized\":true}")).isEqualTo(json("["
                + match("MEMORY.md", 1, 1, "MultiAgentV2", "multi agent v2") + ","
                + match("MEMORY.md", 2, 2, "cold-resume", "cold resume") + "]"));
    }

    @Test
    void search_rejectsQueriesThatAreOrNormalizeToEmpty() {
        write("MEMORY.md", "needle\n");

        assertThat(error(SEARCH, "{\"queries\":[\"-\"],\"normalized\":true}")).isEqualTo(LocalMemoryTools.EMPTY_QUERY);
        assertThat(error(SEARCH, "{\"queries\":[]}")).isEqualTo("queries must not be empty or contain empty strings");
        assertThat(error(SEARCH, "{\"queries\":[\"ok\",\"  \"]}")).isEqualTo(LocalMemoryTools.EMPTY_QUERY);
    }

    @Test
    void search_supportsAnyAndAllOnSameLineMatchModes() {
        write("MEMORY.md", "alpha needle beta\nalpha only\nneedle only\n");

        assertThat(matches("{\"queries\":[\"alpha\",\"needle\"]}")).isEqualTo(json("["
                + match("MEMORY.md", 1, 1, "alpha needle beta", "alpha", "needle") + ","
                + match("MEMORY.md", 2, 2, "alpha only", "alpha") + ","
                + match("MEMORY.md", 3, 3, "needle only", "needle") + "]"));
        assertThat(matches("{\"queries\":[\"alpha\",\"needle\"],\"match_mode\":{\"type\":\"all_on_same_line\"}}"))
                .isEqualTo(json("[" + match("MEMORY.md", 1, 1, "alpha needle beta", "alpha", "needle") + "]"));
    }

    @Test
    void search_supportsAllWithinLinesMatchMode() {
        write("MEMORY.md", "alpha first\nmiddle\nneedle later\nalpha again needle together\n");

        assertThat(matches("{\"queries\":[\"alpha\",\"needle\"],\"context_lines\":1,"
                + "\"match_mode\":{\"type\":\"all_within_lines\",\"line_count\":3}}")).isEqualTo(json("["
                + match("MEMORY.md", 1, 1, "alpha first\\nmiddle\\nneedle later\\nalpha again needle together",
                        "alpha", "needle") + ","
                + match("MEMORY.md", 4, 3, "needle later\\nalpha again needle together", "alpha", "needle") + "]"));
    }

    @Test
    void search_rejectsZeroLineWindow() {
        write("MEMORY.md", "needle\n");

        assertThat(error(SEARCH, "{\"queries\":[\"needle\"],\"match_mode\":{\"type\":\"all_within_lines\","
                + "\"line_count\":0}}")).isEqualTo("all_within_lines.line_count must be a positive integer");
    }

    @Test
    void search_rejectsInvalidCursor() {
        write("MEMORY.md", "needle\n");

        assertThat(error(SEARCH, "{\"queries\":[\"needle\"],\"cursor\":\"bogus\"}"))
                .isEqualTo("cursor 'bogus' must be a non-negative integer");
        assertThat(error(SEARCH, "{\"queries\":[\"needle\"],\"cursor\":\"2\"}"))
                .isEqualTo("cursor '2' exceeds result count");
    }

    @Test
    void searchTool_acceptsMultipleQueriesWithFullResponse() {
        write("MEMORY.md", "alpha only\nneedle only\nalpha needle\n");

        assertThat(ok(SEARCH, "{\"queries\":[\"alpha\",\"needle\"],\"case_sensitive\":false}")).isEqualTo(json(
                "{'queries':['alpha','needle'],'match_mode':{'type':'any'},'path':null,'matches':["
                        + match("MEMORY.md", 1, 1, "alpha only", "alpha") + ","
                        + match("MEMORY.md", 2, 2, "needle only", "needle") + ","
                        + match("MEMORY.md", 3, 3, "alpha needle", "alpha", "needle")
                        + "],'next_cursor':null,'truncated':false}"));
    }

    @Test
    void searchTool_acceptsWindowedAllMatchMode() {
        write("MEMORY.md", "alpha\nmiddle\nneedle\n");

        assertThat(ok(SEARCH, "{\"queries\":[\"alpha\",\"needle\"],"
                + "\"match_mode\":{\"type\":\"all_within_lines\",\"line_count\":3}}")).isEqualTo(json(
                "{'queries':['alpha','needle'],'match_mode':{'type':'all_within_lines','line_count':3},'path':null,"
                        + "'matches':[" + match("MEMORY.md", 1, 1, "alpha\\nmiddle\\nneedle", "alpha", "needle")
                        + "],'next_cursor':null,'truncated':false}"));
    }

    @Test
    void searchTool_rejectsLegacySingleQuery() {
        assertThat(error(SEARCH, "{\"query\":\"needle\"}")).contains("unknown field").contains("`query`");
    }

    @Test
    void search_trimsQueriesAndHandlesCrlfLines() {
        write("notes.md", "first\r\nthe needle\r\nlast");

        JsonNode result = ok(SEARCH, "{\"queries\":[\"  needle \"],\"context_lines\":5}");

        assertThat(result.get("queries")).isEqualTo(json("['needle']"));
        assertThat(result.get("matches")).isEqualTo(json("["
                + match("notes.md", 2, 1, "first\\nthe needle\\nlast", "needle") + "]"));
    }

    @Test
    void search_rejectsUnknownMatchModeAndExtraModeFields() {
        assertThat(error(SEARCH, "{\"queries\":[\"a\"],\"match_mode\":{\"type\":\"some\"}}"))
                .contains("unknown variant `some`");
        assertThat(error(SEARCH, "{\"queries\":[\"a\"],\"match_mode\":{\"type\":\"any\",\"line_count\":2}}"))
                .contains("unknown field `line_count`");
        assertThat(error(SEARCH, "{\"queries\":[\"a\"],\"match_mode\":{\"type\":\"all_within_lines\"}}"))
                .isEqualTo("missing field `match_mode.line_count`");
        assertThat(error(SEARCH, "{\"queries\":[\"a\"],\"match_mode\":\"any\"}"))
                .contains("invalid type: string \"any\", expected an object");
    }
}
