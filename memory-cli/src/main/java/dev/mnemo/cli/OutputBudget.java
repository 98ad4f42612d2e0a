package dev.mnemo.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.MemoryTools;
import dev.mnemo.llm.TokenCounter;
import java.util.function.Function;

/**
 * Keeps every memory tool answer within what MCP clients pass on to their model, so that a client
 * never cuts one silently (Codex keeps about 12 KB of a tool's output by default, and a whole
 * {@code memories_read} page can be 80 KB). In order:
 *
 * <ol>
 *   <li>An answer that fits passes unchanged.
 *   <li>A search's echo of the {@code queries} (and each match's {@code matched_queries}) is cut to
 *       a share of the budget: long queries to their start with a marker, the rest counted in a
 *       final {@code "…[N more]"} element.
 *   <li>A page is asked for again, smaller, with the tool's own paging: fewer {@code max_results}
 *       for list and search (their {@code next_cursor} leads on), fewer {@code max_lines} for
 *       read, whose answer then carries {@code next_line_offset}, the {@code line_offset} of the
 *       next page.
 *   <li>A single search match or file line still over the budget is cut, with a marker in its
 *       text and a cursor: a match gets {@code read_on}, the {@code memories_read} arguments
 *       ({@code path}, {@code line_offset}, {@code char_offset}) that read on from the cut; a read
 *       page gets {@code next_char_offset}. {@value #CHAR_OFFSET}, which only the MCP server's
 *       {@code memories_read} takes, reads the line at {@code line_offset} from that character
 *       (Unicode code points, counted in the line as {@code memories_read} returns it).
 *   <li>Anything else still over (an error echoing a huge argument, say) has its longest strings
 *       cut, with a marker; should even that fail, a short error says so.
 * </ol>
 *
 * <p>Tokens are counted as Codex estimates them, by Mnemo's one estimate ({@link TokenCounter}): four
 * bytes of UTF-8 per token, rounded up.
 */
final class OutputBudget {

    /** The default: fits Codex's default tool-output limit with room for its own wrapping. */
    static final int DEFAULT_MAX_TOKENS = 2_000;
    /** Below this, a page could not hold one ordinary search match or file line. */
    static final int MIN_MAX_TOKENS = 256;
    /** The argument of {@code memories_read} that reads on within a line. */
    static final String CHAR_OFFSET = "char_offset";
    static final String NEXT_CHAR_OFFSET = "next_char_offset";
    static final String CHAR_OFFSET_DESCRIPTION = "Start this many characters (Unicode code points) into the line at"
            + " line_offset and read that one line on: the next_char_offset of a page cut inside a line, or the"
            + " char_offset of a search match's read_on.";
    /** Room for the fields a cut adds ({@code next_char_offset}, {@code read_on}'s numbers) and rounding. */
    private static final int CURSOR_BYTES = 96;

    private final int maxTokens;
    private final ObjectMapper json;

    OutputBudget(int maxTokens, ObjectMapper json) {
        if (maxTokens < MIN_MAX_TOKENS) {
            throw new IllegalArgumentException("--max-output-tokens must be at least " + MIN_MAX_TOKENS + ", was "
                    + maxTokens);
        }
        this.maxTokens = maxTokens;
        this.json = json;
    }

    int maxTokens() {
        return maxTokens;
    }

    /**
     * The schema the MCP server serves for {@code tool}: the memory tools' own, and for
     * {@code memories_read} also {@value #CHAR_OFFSET}.
     */
    String servedSchema(String tool, String schema) {
        if (!MemoryTools.READ.equals(tool)) {
            return schema;
        }
        ObjectNode node = parseObject(schema);
        if (node == null || !(node.get("properties") instanceof ObjectNode properties)) {
            throw new IllegalStateException("the read tool's schema is not the expected object: " + schema);
        }
        properties.putObject(CHAR_OFFSET).put("type", "integer").put("minimum", 0)
                .put("description", CHAR_OFFSET_DESCRIPTION);
        return node.toString();
    }

    /**
     * Runs {@code tool} with {@code arguments} through {@code call} (the memory tools), in pages and
     * cuts that fit the budget. Answers that fit pass unchanged.
     */
    String fit(String tool, String arguments, Function<String, String> call) {
        ObjectNode args = parseObject(arguments);
        if (MemoryTools.READ.equals(tool) && args != null && args.has(CHAR_OFFSET)) {
            return withinBudget(withinLine(args, call));
        }
        String answer = call.apply(arguments);
        if (fits(answer)) {
            return answer;
        }
        JsonNode result = parse(answer);
        if (args != null && result instanceof ObjectNode && !result.has("error")) {
            answer = switch (tool) {
                case MemoryTools.LIST -> fewerResults(args, answer, "entries", call);
                case MemoryTools.SEARCH -> cutMatch(fewerResults(args, shortenEchoes(answer), "matches",
                        call.andThen(this::shortenEchoes)));
                case MemoryTools.READ -> fewerLines(args, (ObjectNode) result, call);
                default -> answer;
            };
        }
        return withinBudget(answer);
    }

    boolean fits(String answer) {
        return tokens(answer) <= maxTokens;
    }

    static long tokens(String text) {
        return TokenCounter.estimateTokens(text);
    }

    private long maxBytes() {
        return (long) maxTokens * TokenCounter.BYTES_PER_TOKEN;
    }

    /** {@code answer}, or the last resort's cut of it. */
    private String withinBudget(String answer) {
        if (fits(answer)) {
            return answer;
        }
        JsonNode tree = parse(answer);
        JsonNode shrinkable = tree != null ? tree : json.createObjectNode().put("error", answer);
        return AnswerCuts.shrink(shrinkable, maxBytes(), maxTokens);
    }

    /** A search answer whose echoed queries take at most an eighth of the budget, each match's a sixteenth. */
    private String shortenEchoes(String answer) {
        if (fits(answer) || !(parse(answer) instanceof ObjectNode result) || result.has("error")) {
            return answer;
        }
        boolean changed = result.get("queries") instanceof ArrayNode queries
                && AnswerCuts.shortenStrings(queries, maxBytes() / 8);
        for (JsonNode match : result.path("matches")) {
            if (match.get("matched_queries") instanceof ArrayNode matched) {
                changed |= AnswerCuts.shortenStrings(matched, maxBytes() / 16);
            }
        }
        return changed ? result.toString() : answer;
    }

    /** Lowers {@code max_results} in proportion to the overshoot until the page fits or holds one item. */
    private String fewerResults(ObjectNode args, String answer, String items, Function<String, String> call) {
        JsonNode result = parse(answer);
        int shown = result == null ? 0 : result.path(items).size();
        while (!fits(answer) && shown > 1) {
            shown = (int) Math.max(1, Math.min(shown - 1, shown * maxTokens / tokens(answer)));
            args.put("max_results", shown);
            answer = call.apply(args.toString());
            JsonNode page = parse(answer);
            shown = page == null ? 0 : page.path(items).size();
        }
        return answer;
    }

    /**
     * A search page of one match still over the budget, with that match's content cut and a
     * {@code read_on} cursor for {@code memories_read} at the cut.
     */
    private String cutMatch(String answer) {
        if (fits(answer) || !(parse(answer) instanceof ObjectNode page) || page.path("matches").size() != 1) {
            return answer;
        }
        ObjectNode match = (ObjectNode) page.path("matches").get(0);
        String content = match.path("content").asText();
        int firstLine = match.path("content_start_line_number").asInt(1);
        match.put("content", "");
        long room = maxBytes() - AnswerCuts.utf8Bytes(page.toString()) - CURSOR_BYTES
                - AnswerCuts.jsonBytes(match.path("path").asText());
        Cut cut = Cut.of(content, 0, room);
        int line = firstLine + cut.line();
        match.put("content", content.substring(0, cut.end()) + "…[match cut here: " + MemoryTools.READ
                + " with the arguments in read_on reads on]");
        match.putObject("read_on").put("path", match.path("path").asText()).put("line_offset", line)
                .put(CHAR_OFFSET, cut.charOffset());
        return page.toString();
    }

    /**
     * Lowers {@code max_lines} to the lines whose text fits (less the answer's own fields), then
     * adds {@code next_line_offset} when lines are left; a single line still over the budget is cut.
     */
    private String fewerLines(ObjectNode args, ObjectNode result, Function<String, String> call) {
        int start = result.path("start_line_number").asInt(1);
        String content = result.path("content").asText();
        long overhead = AnswerCuts.utf8Bytes(result.toString()) - AnswerCuts.jsonBytes(content) + CURSOR_BYTES;
        int lines = linesWithin(content, Math.max(1, maxBytes() - overhead));
        if (args.path("max_lines").canConvertToInt() && args.path("max_lines").asInt() > 0) {
            lines = Math.min(lines, args.path("max_lines").asInt());
        }
        String answer;
        JsonNode page;
        while (true) {
            args.put("max_lines", lines);
            answer = call.apply(args.toString());
            page = parse(answer);
            long withNext = tokens(answer) + CURSOR_BYTES / TokenCounter.BYTES_PER_TOKEN;
            if (withNext <= maxTokens || lines == 1 || !(page instanceof ObjectNode) || page.has("error")) {
                break;
            }
            lines = (int) Math.max(1, Math.min(lines - 1, lines * maxTokens / withNext));
        }
        if (!(page instanceof ObjectNode withNext) || page.has("error")) {
            return answer;
        }
        if (lines == 1 && tokens(answer) + CURSOR_BYTES / TokenCounter.BYTES_PER_TOKEN > maxTokens) {
            args.remove("max_lines");
            args.put(CHAR_OFFSET, 0); // the line as it is on disk: the plain read drops a long line's middle
            return withinLine(args, call);
        }
        if (!page.path("truncated").asBoolean()) {
            return answer;
        }
        withNext.put("next_line_offset", start + countLines(page.path("content").asText()));
        return withNext.toString();
    }

    /**
     * Reads the line at {@code line_offset} from {@value #CHAR_OFFSET}: the memory tools read that one
     * line from that character on (cut at its end, never in its middle, past their own read limit),
     * and the page is cut again when it is still over the budget.
     */
    private String withinLine(ObjectNode args, Function<String, String> call) {
        JsonNode offsetNode = args.get(CHAR_OFFSET);
        if (!offsetNode.isIntegralNumber() || !offsetNode.canConvertToInt() || offsetNode.asInt() < 0) {
            return error(CHAR_OFFSET + " must be a non-negative integer");
        }
        args.remove("max_lines");
        String answer = call.apply(args.toString());
        if (!(parse(answer) instanceof ObjectNode page) || page.has("error")) {
            return answer;
        }
        int line = page.path("start_line_number").asInt(1);
        if (page.has(NEXT_CHAR_OFFSET)) { // cut by the tools themselves: cut again, with the marker
            return cutLine(page, line, page.path(CHAR_OFFSET).asInt());
        }
        if (page.path("truncated").asBoolean()) {
            page.put("next_line_offset", line + 1); // the line's rest is whole; more lines follow
        }
        return fits(page.toString()) ? page.toString() : cutLine(page, line, page.path(CHAR_OFFSET).asInt());
    }

    /**
     * A read page of one line with that line cut to fit, a marker, and {@code next_char_offset}
     * (from the start of the line) where the next page starts.
     */
    private String cutLine(ObjectNode page, int line, int startOffset) {
        String content = page.path("content").asText();
        page.remove("next_line_offset");
        page.put("content", "");
        page.put("truncated", true);
        long room = maxBytes() - AnswerCuts.utf8Bytes(page.toString()) - CURSOR_BYTES;
        Cut cut = Cut.of(content, startOffset, room);
        int next = startOffset + content.codePointCount(0, cut.end());
        page.put("content", content.substring(0, cut.end()) + "…[line cut here: " + MemoryTools.READ
                + " with line_offset " + line + " and " + CHAR_OFFSET + " " + next + " reads on]");
        page.put(NEXT_CHAR_OFFSET, next);
        return page.toString();
    }

    /**
     * Where {@code text} is cut to leave {@code room} JSON bytes (less its marker): the end index,
     * the line of the cut counted from the text's first line (0), and the cut's character offset in
     * that line, counting from {@code firstLineOffset} in the first.
     */
    private record Cut(int end, int line, int charOffset) {
        /** The longest marker a cut adds, numbers included. */
        private static final int MARKER_BYTES = 120;

        static Cut of(String text, int firstLineOffset, long room) {
            int end = AnswerCuts.prefixEnd(text, 0, Math.max(0, room - MARKER_BYTES));
            int line = 0;
            int lineStart = 0;
            for (int i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) {
                line++;
                lineStart = i + 1;
            }
            int offset = text.codePointCount(lineStart, end) + (line == 0 ? firstLineOffset : 0);
            return new Cut(end, line, offset);
        }
    }

    /** How many whole lines from the start of {@code text} fit in {@code bytes}; at least one. */
    static int linesWithin(String text, long bytes) {
        int lines = 0;
        long used = 0;
        int from = 0;
        while (from < text.length()) {
            int newline = text.indexOf('\n', from);
            int end = newline < 0 ? text.length() : newline + 1;
            // JSON escapes a newline, a quote or a backslash in two bytes: count the line as sent.
            used += AnswerCuts.jsonBytes(text.substring(from, end));
            if (used > bytes) {
                break;
            }
            lines++;
            from = end;
        }
        return Math.max(1, lines);
    }

    private static int countLines(String content) {
        if (content.isEmpty()) {
            return 0;
        }
        int lines = 0;
        for (int i = 0; i < content.length(); i++) {
            if (content.charAt(i) == '\n') {
                lines++;
            }
        }
        return content.endsWith("\n") ? lines : lines + 1;
    }

    private String error(String message) {
        return json.createObjectNode().put("error", message).toString();
    }

    private ObjectNode parseObject(String text) {
        JsonNode node = parse(text);
        return node instanceof ObjectNode object ? object : null;
    }

    private JsonNode parse(String text) {
        try {
            return json.readTree(text);
        } catch (JsonProcessingException e) {
            return null;
        }
    }
}
