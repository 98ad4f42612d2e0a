package dev.mnemo.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.MemoryTools;
import dev.mnemo.llm.TokenCounter;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * Keeps each memory tool answer within what MCP clients pass on to their model, so that a client
 * never cuts one silently (Codex keeps about 12 KB of a tool's output by default, and a whole
 * {@code memories_read} page can be 80 KB). An answer over the budget is asked for again, smaller,
 * with the tool's own paging: fewer {@code max_results} for list and search (their
 * {@code next_cursor} leads on), fewer {@code max_lines} for read, whose answer then also carries
 * {@code next_line_offset}, the {@code line_offset} of the next page. Answers are never cut here:
 * only a single search match or file line larger than the budget can still exceed it.
 *
 * <p>Tokens are counted as Codex estimates them, by Mnemo's one estimate ({@link TokenCounter}): four
 * bytes of UTF-8 per token, rounded up.
 */
final class OutputBudget {

    /** The default: fits Codex's default tool-output limit with room for its own wrapping. */
    static final int DEFAULT_MAX_TOKENS = 2_000;
    /** Below this, a page could not hold one ordinary search match or file line. */
    static final int MIN_MAX_TOKENS = 256;
    /** Room for {@code ,"next_line_offset":N} added to a read page. */
    private static final int NEXT_LINE_OFFSET_BYTES = 32;

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
     * Runs {@code tool} with {@code arguments} through {@code call} (the memory tools), again with a
     * smaller page while the answer is over the budget. Errors and answers that fit pass unchanged.
     */
    String fit(String tool, String arguments, Function<String, String> call) {
        String answer = call.apply(arguments);
        if (fits(answer)) {
            return answer;
        }
        ObjectNode args = parseObject(arguments);
        JsonNode result = parse(answer);
        if (args == null || result == null || !result.isObject() || result.has("error")) {
            return answer;
        }
        return switch (tool) {
            case MemoryTools.LIST -> fewerResults(args, answer, result, "entries", call);
            case MemoryTools.SEARCH -> fewerResults(args, answer, result, "matches", call);
            case MemoryTools.READ -> fewerLines(args, answer, result, call);
            default -> answer;
        };
    }

    boolean fits(String answer) {
        return tokens(answer) <= maxTokens;
    }

    static long tokens(String text) {
        return TokenCounter.estimateTokens(text);
    }

    /** Lowers {@code max_results} in proportion to the overshoot until the page fits or holds one item. */
    private String fewerResults(ObjectNode args, String answer, JsonNode result, String items,
            Function<String, String> call) {
        int shown = result.path(items).size();
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
     * Lowers {@code max_lines} to the lines whose text fits (less the answer's own fields), then
     * adds {@code next_line_offset} when lines are left.
     */
    private String fewerLines(ObjectNode args, String answer, JsonNode result, Function<String, String> call) {
        int start = result.path("start_line_number").asInt(1);
        String content = result.path("content").asText();
        long overhead = answer.getBytes(StandardCharsets.UTF_8).length - jsonBytes(content) + NEXT_LINE_OFFSET_BYTES;
        int lines = linesWithin(content, Math.max(1, (long) maxTokens * TokenCounter.BYTES_PER_TOKEN - overhead));
        if (args.path("max_lines").canConvertToInt() && args.path("max_lines").asInt() > 0) {
            lines = Math.min(lines, args.path("max_lines").asInt());
        }
        JsonNode page = result;
        while (true) {
            args.put("max_lines", lines);
            answer = call.apply(args.toString());
            page = parse(answer);
            long withNext = tokens(answer) + NEXT_LINE_OFFSET_BYTES / TokenCounter.BYTES_PER_TOKEN;
            if (withNext <= maxTokens || lines == 1 || page == null || page.has("error")) {
                break;
            }
            lines = (int) Math.max(1, Math.min(lines - 1, lines * maxTokens / withNext));
        }
        if (page == null || !page.path("truncated").asBoolean()) {
            return answer;
        }
        ObjectNode withNext = (ObjectNode) page;
        withNext.put("next_line_offset", start + countLines(page.path("content").asText()));
        return withNext.toString();
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
            used += jsonBytes(text.substring(from, end));
            if (used > bytes) {
                break;
            }
            lines++;
            from = end;
        }
        return Math.max(1, lines);
    }

    private static long jsonBytes(String line) {
        long bytes = line.getBytes(StandardCharsets.UTF_8).length;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '\n' || c == '"' || c == '\\' || c == '\t' || c == '\r') {
                bytes++;
            } else if (c < 0x20) {
                bytes += 5; // a six-byte escape
            }
        }
        return bytes;
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
