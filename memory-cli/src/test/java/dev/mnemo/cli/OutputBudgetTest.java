package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.MemoryTools;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OutputBudget} over the real memory tools in a temporary folder: every answer, whatever its
 * shape, fits the budget and stays valid JSON, and what is cut says so and says how to read on.
 */
class OutputBudgetTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int[] BUDGETS = {OutputBudget.MIN_MAX_TOKENS, 300, 1_000, OutputBudget.DEFAULT_MAX_TOKENS,
        10_000};
    /** Letters of one to four UTF-8 bytes, and characters JSON escapes. */
    private static final String MIXED = "aé中😀\"\\\tz";

    @TempDir
    Path root;

    private MemoryTools tools;
    private String longLine;
    private String hugeLine;

    @BeforeEach
    void plantFolder() throws Exception {
        tools = MemoryTools.forFolder(root);
        Files.writeString(root.resolve("memory_summary.md"), "# Summary\n- builds use gradle 8\n");
        StringBuilder handbook = new StringBuilder("# Handbook\n");
        for (int i = 0; i < 3_000; i++) {
            handbook.append("- gradle fact ").append(i).append(": ").append(MIXED.repeat(i % 7)).append('\n');
        }
        Files.writeString(root.resolve("MEMORY.md"), handbook);
        longLine = "NEEDLE " + MIXED.repeat(2_500);
        Files.writeString(root.resolve("one-line.md"), longLine + "\nsecond line NEEDLE\n");
        hugeLine = "NEEDLE " + "x".repeat(200_000) + " END";
        Files.writeString(root.resolve("huge-line.md"), hugeLine);
        Files.createDirectories(root.resolve("rollout_summaries"));
        for (int i = 0; i < 400; i++) {
            Files.writeString(root.resolve("rollout_summaries/2026-01-01T00-00-00-session-" + i + ".md"),
                    "gradle run " + i + "\n");
        }
    }

    private String fit(int budget, String tool, String arguments) {
        return new OutputBudget(budget, JSON).fit(tool, arguments, args -> tools.call(tool, args));
    }

    private static String searchOf(List<String> queries, String extra) {
        ArrayNode array = JSON.createArrayNode();
        queries.forEach(array::add);
        return "{\"queries\":" + array + extra + "}";
    }

    /** The shapes the property test runs: tool and arguments. */
    private List<String[]> shapes() {
        List<String> manyQueries = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            manyQueries.add("query-" + i);
        }
        manyQueries.add("gradle");
        Random random = new Random(40);
        StringBuilder randomQuery = new StringBuilder();
        for (int i = 0; i < 2_000; i++) {
            randomQuery.appendCodePoint(MIXED.codePointAt(MIXED.offsetByCodePoints(0, random.nextInt(8))));
        }
        String megabyte = "q".repeat(1_000_000);
        return List.of(
                new String[] {MemoryTools.SEARCH, searchOf(List.of(megabyte), "")},
                new String[] {MemoryTools.SEARCH, searchOf(List.of("NEEDLE", megabyte), "")},
                new String[] {MemoryTools.SEARCH, searchOf(manyQueries, ",\"path\":\"memory_summary.md\"")},
                new String[] {MemoryTools.SEARCH, searchOf(List.of("NEEDLE"), "")},
                new String[] {MemoryTools.SEARCH, searchOf(List.of("NEEDLE"), ",\"path\":\"huge-line.md\"")},
                new String[] {MemoryTools.SEARCH, searchOf(List.of("gradle"), ",\"context_lines\":40")},
                new String[] {MemoryTools.SEARCH, searchOf(List.of("😀", "中"), ",\"match_mode\":{\"type\":\"all_on_same_line\"}")},
                new String[] {MemoryTools.SEARCH, searchOf(List.of(randomQuery.toString(), "gradle"), "")},
                new String[] {MemoryTools.READ, "{\"path\":\"MEMORY.md\"}"},
                new String[] {MemoryTools.READ, "{\"path\":\"one-line.md\"}"},
                new String[] {MemoryTools.READ, "{\"path\":\"huge-line.md\"}"},
                new String[] {MemoryTools.READ, "{\"path\":\"one-line.md\",\"char_offset\":5}"},
                new String[] {MemoryTools.READ, "{\"path\":\"huge-line.md\",\"char_offset\":100000}"},
                new String[] {MemoryTools.READ, "{\"path\":\"MEMORY.md\",\"line_offset\":2000,\"max_lines\":500}"},
                new String[] {MemoryTools.READ, "{\"path\":\"" + megabyte + "\"}"},
                new String[] {MemoryTools.LIST, "{\"path\":\"rollout_summaries\"}"},
                new String[] {MemoryTools.LIST, "{\"path\":\"" + megabyte + "\"}"},
                new String[] {MemoryTools.READ, "{\"path\":\"MEMORY.md\",\"" + "k".repeat(40_000) + "\":1}"},
                new String[] {"memories_unknown", "{\"path\":\"" + megabyte + "\"}"});
    }

    @Test
    void everyAnswer_ofEveryShape_fitsEveryBudget_andIsAJsonObject() throws Exception {
        for (int budget : BUDGETS) {
            for (String[] shape : shapes()) {
                String answer = fit(budget, shape[0], shape[1]);
                String what = shape[0] + " " + shape[1].substring(0, Math.min(80, shape[1].length())) + " at " + budget;

                assertThat(OutputBudget.tokens(answer)).as(what).isLessThanOrEqualTo(budget);
                assertThat(JSON.readTree(answer).isObject()).as(what).isTrue();
            }
        }
    }

    @Test
    void hugeQuery_echoIsShortenedWithAMarker() throws Exception {
        JsonNode answer = JSON.readTree(fit(OutputBudget.DEFAULT_MAX_TOKENS, MemoryTools.SEARCH,
                searchOf(List.of("q".repeat(1_000_000)), "")));

        assertThat(answer.path("queries")).hasSize(1);
        assertThat(answer.path("queries").get(0).asText()).startsWith("qqqq").endsWith("[cut: 1000000 characters in all]");
        assertThat(answer.path("matches")).isEmpty();
    }

    @Test
    void twentyThousandQueries_echoShowsTheFirstAndCountsTheRest_matchesStillPage() throws Exception {
        List<String> queries = new ArrayList<>(List.of("gradle"));
        for (int i = 0; i < 20_000; i++) {
            queries.add("query-" + i);
        }

        JsonNode answer = JSON.readTree(fit(OutputBudget.DEFAULT_MAX_TOKENS, MemoryTools.SEARCH,
                searchOf(queries, ",\"path\":\"rollout_summaries\"")));

        JsonNode echoed = answer.path("queries");
        assertThat(echoed.get(0).asText()).isEqualTo("gradle");
        assertThat(echoed.get(echoed.size() - 1).asText()).matches("…\\[\\d+ more]");
        assertThat(answer.path("matches").size()).isGreaterThan(1);
        assertThat(answer.path("next_cursor").asText()).isNotEmpty();
    }

    @Test
    void hugeLineInAMatch_isCut_andReadOnLeadsMemoriesReadToTheRestOfThatLine() throws Exception {
        JsonNode answer = JSON.readTree(fit(OutputBudget.DEFAULT_MAX_TOKENS, MemoryTools.SEARCH,
                searchOf(List.of("NEEDLE"), ",\"path\":\"huge-line.md\"")));

        JsonNode match = answer.path("matches").get(0);
        String content = match.path("content").asText();
        assertThat(content).startsWith("NEEDLE xxx").contains("…[match cut here: memories_read with the arguments in"
                + " read_on reads on]");
        String shown = content.substring(0, content.indexOf("…[match cut here"));
        JsonNode readOn = match.path("read_on");
        assertThat(readOn.path("path").asText()).isEqualTo("huge-line.md");
        assertThat(readOn.path("line_offset").asInt()).isEqualTo(1);
        assertThat(readOn.path("char_offset").asInt()).isEqualTo(shown.length());

        JsonNode next = JSON.readTree(fit(OutputBudget.DEFAULT_MAX_TOKENS, MemoryTools.READ, readOn.toString()));
        assertThat(hugeLine.substring(shown.length())).startsWith(beforeMarker(next.path("content").asText()));
        assertThat(next.path("next_char_offset").asInt()).isGreaterThan(shown.length());
    }

    @Test
    void longSingleLine_readsWhole_pageByPageWithCharOffsets_multiByteIntact() throws Exception {
        for (int budget : new int[] {OutputBudget.MIN_MAX_TOKENS, OutputBudget.DEFAULT_MAX_TOKENS}) {
            StringBuilder read = new StringBuilder();
            ObjectNode args = JSON.createObjectNode().put("path", "one-line.md");
            int pages = 0;
            while (true) {
                String text = fit(budget, MemoryTools.READ, args.toString());
                JsonNode page = JSON.readTree(text);
                assertThat(OutputBudget.tokens(text)).isLessThanOrEqualTo(budget);
                pages++;
                if (!page.has("next_char_offset")) {
                    read.append(page.path("content").asText());
                    assertThat(page.path("next_line_offset").asInt()).isEqualTo(2);
                    break;
                }
                read.append(beforeMarker(page.path("content").asText()));
                assertThat(page.path("content").asText()).endsWith("and char_offset " + page.path("next_char_offset")
                        .asInt() + " reads on]");
                args.put("char_offset", page.path("next_char_offset").asInt());
            }
            assertThat(read.toString()).as("budget %d", budget).isEqualTo(longLine + "\n");
            assertThat(pages).isGreaterThan(2);
        }
    }

    /**
     * A line over the tools' own read limit (80 KB), read page by page: the memory tools drop the
     * middle of such a line in a plain read, so the pages and their offsets come from a read within
     * the line, which never does. Every character comes back once, in order.
     */
    @Test
    void lineOverTheToolsReadLimit_readsWhole_pageByPage_offsetsCountedOnDisk() throws Exception {
        StringBuilder numbered = new StringBuilder();
        for (int i = 0; numbered.length() < 120_000; i++) {
            numbered.append(String.format("w%06d ", i));
        }
        Files.writeString(root.resolve("numbered.md"), numbered + "\nnext\n");
        int budget = 10_000;

        StringBuilder read = new StringBuilder();
        ObjectNode args = JSON.createObjectNode().put("path", "numbered.md");
        while (true) {
            String text = fit(budget, MemoryTools.READ, args.toString());
            JsonNode page = JSON.readTree(text);
            assertThat(OutputBudget.tokens(text)).isLessThanOrEqualTo(budget);
            if (!page.has("next_char_offset")) {
                read.append(page.path("content").asText());
                assertThat(page.path("next_line_offset").asInt()).isEqualTo(2);
                break;
            }
            read.append(beforeMarker(page.path("content").asText()));
            args.put("char_offset", page.path("next_char_offset").asInt());
        }

        assertThat(read.toString()).isEqualTo(numbered + "\n");
        JsonNode deep = JSON.readTree(fit(OutputBudget.DEFAULT_MAX_TOKENS, MemoryTools.READ,
                "{\"path\":\"numbered.md\",\"char_offset\":100000}"));
        assertThat(numbered.substring(100_000)).startsWith(beforeMarker(deep.path("content").asText()));
    }

    @Test
    void charOffset_badOrPastTheLine_isAToolError() throws Exception {
        assertThat(fit(2_000, MemoryTools.READ, "{\"path\":\"one-line.md\",\"char_offset\":-1}"))
                .contains("\"error\":\"char_offset must be a non-negative integer\"");
        assertThat(fit(2_000, MemoryTools.READ, "{\"path\":\"one-line.md\",\"char_offset\":\"3\"}"))
                .contains("char_offset must be a non-negative integer");
        assertThat(fit(2_000, MemoryTools.READ, "{\"path\":\"memory_summary.md\",\"char_offset\":500}"))
                .contains("char_offset 500 is past the end of line 1, which has 10 characters");
    }

    @Test
    void charOffset_onAShortLine_readsItsRest_andPointsToTheNextLine() throws Exception {
        JsonNode page = JSON.readTree(fit(2_000, MemoryTools.READ,
                "{\"path\":\"memory_summary.md\",\"char_offset\":2}"));

        assertThat(page.path("content").asText()).isEqualTo("Summary\n");
        assertThat(page.path("next_line_offset").asInt()).isEqualTo(2);
        assertThat(page.path("truncated").asBoolean()).isTrue();
    }

    @Test
    void answersThatFit_passUnchanged() {
        String arguments = searchOf(List.of("gradle 8"), ",\"path\":\"memory_summary.md\"");

        assertThat(fit(2_000, MemoryTools.SEARCH, arguments)).isEqualTo(tools.call(MemoryTools.SEARCH, arguments));
    }

    @Test
    void anErrorEchoingAHugeArgument_isCutWithAMarker() throws Exception {
        JsonNode answer = JSON.readTree(fit(OutputBudget.MIN_MAX_TOKENS, MemoryTools.READ,
                "{\"path\":\"MEMORY.md\",\"" + "p".repeat(40_000) + "\":1}"));

        assertThat(answer.path("error").asText()).contains("ppp", "characters in all]");
    }

    private static String beforeMarker(String content) {
        int marker = Math.max(content.lastIndexOf("…[line cut here"), content.lastIndexOf("…[match cut here"));
        return marker < 0 ? content : content.substring(0, marker);
    }
}
