package dev.mnemo.internal.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.internal.read.TokenTruncation;
import dev.mnemo.internal.sandbox.ConfinedRoot;
import dev.mnemo.internal.sandbox.ToolFailure;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The three read-only memory tools over the confined folder: {@value LocalMemoryTools#LIST},
 * {@value LocalMemoryTools#READ} and {@value LocalMemoryTools#SEARCH}. Each parses its arguments
 * strictly, resolves the path inside the folder (no symbolic links), applies the session's project
 * scope, and answers with Codex's fields, paged ({@link ResultPage}) or, for a read, cut to
 * {@link LocalMemoryTools#READ_MAX_TOKENS}. A refusal is a {@link ToolFailure} with the message the
 * model sees; {@link LocalMemoryTools} dispatches to these and writes the result as JSON. It holds
 * nothing but the folder, so the bound copies of the tools share one.
 */
final class FolderTools {

    /** The read's argument that starts within the line at {@code line_offset} (beyond Codex's schema). */
    static final String CHAR_OFFSET = "char_offset";
    /** Where a read within a line cut at its end reads on, as a {@value #CHAR_OFFSET}. */
    static final String NEXT_CHAR_OFFSET = "next_char_offset";

    private final MemoryPaths paths;
    private final MemorySearch search;

    FolderTools(ConfinedRoot root) {
        this.paths = new MemoryPaths(root);
        this.search = new MemorySearch(paths);
    }

    /**
     * The {@value LocalMemoryTools#LIST} tool, for a session in {@code projectSlug} (if any);
     * {@code confined}: the scope defaults to the project (see {@link ToolScope}).
     */
    ObjectNode list(String argumentsJson, Optional<String> projectSlug, boolean confined) {
        ToolArguments args = ToolArguments.parse(ToolJson.MAPPER, argumentsJson,
                List.of("path", "cursor", "max_results", "scope"));
        Optional<String> path = args.optionalString("path");
        Optional<String> cursor = args.optionalString("cursor");
        int maxResults = clamp(args.optionalCount("max_results"), LocalMemoryTools.MAX_LIST_RESULTS);
        ToolScope projects = ToolScope.of(projectSlug, args.optionalString("scope"), defaultScope(confined));

        MemoryPaths.Scoped scope = paths.resolve(path);
        if (projects.hidesPath(scope.display())) {
            throw new ToolFailure("path '" + scope.display() + "' belongs to another project; use scope `"
                    + ToolScope.ALL + "` to list it");
        }
        BasicFileAttributes attributes = existing(scope, path);
        List<MemoryPaths.Child> entries;
        if (attributes.isRegularFile()) {
            entries = List.of(new MemoryPaths.Child(scope.file(), scope.display(), false, attributes.size()));
        } else if (attributes.isDirectory()) {
            entries = paths.children(scope.file(), scope.display()).stream()
                    .filter(child -> !projects.hidesPath(child.display())).toList();
        } else {
            entries = List.of();
        }
        ObjectNode result = ToolJson.MAPPER.createObjectNode();
        ToolJson.putNullable(result, "path", path);
        ArrayNode out = result.putArray("entries");
        ResultPage page = ResultPage.of(cursor, entries.size(), maxResults);
        for (MemoryPaths.Child entry : entries.subList(page.start(), page.end())) {
            out.addObject().put("path", entry.display()).put("entry_type", entry.directory() ? "directory" : "file");
        }
        page.writeTo(result);
        return result;
    }

    /**
     * The {@value LocalMemoryTools#READ} tool; {@code confined} to {@code projectSlug}, it takes a
     * {@code scope} and, unless that is {@value ToolScope#ALL}, refuses a file the project scope hides.
     */
    ObjectNode read(String argumentsJson, Optional<String> projectSlug, boolean confined) {
        ToolArguments args = ToolArguments.parse(ToolJson.MAPPER, argumentsJson, confined
                ? List.of("path", "line_offset", "max_lines", "scope", CHAR_OFFSET)
                : List.of("path", "line_offset", "max_lines", CHAR_OFFSET));
        ToolScope projects = confined ? ToolScope.of(projectSlug, args.optionalString("scope"), ToolScope.PROJECT)
                : ToolScope.of(projectSlug, Optional.of(ToolScope.ALL));
        String path = args.requiredString("path");
        int lineOffset = args.optionalCount("line_offset").orElse(1);
        Optional<Integer> maxLines = args.optionalCount("max_lines");
        Optional<Integer> charOffset = args.optionalCount(CHAR_OFFSET);
        if (lineOffset == 0) {
            throw new ToolFailure("line_offset must be a 1-indexed line number");
        }
        if (maxLines.isPresent() && maxLines.get() == 0) {
            throw new ToolFailure("max_lines must be a positive integer");
        }
        MemoryPaths.Scoped scope = paths.resolve(Optional.of(path));
        if (projects.hidesPath(scope.display())) {
            throw outsideProject(path);
        }
        BasicFileAttributes attributes = existing(scope, Optional.of(path));
        if (!attributes.isRegularFile()) {
            throw new ToolFailure("path '" + path + "' is not a file");
        }
        String text = MemorySearch.readUtf8(scope.file()).orElseThrow(
                () -> new ToolFailure("I/O error while reading memories: " + scope.display() + " is not valid UTF-8"));
        if (projects.hidesFile(scope.display(), text)) {
            throw outsideProject(path);
        }
        int start = 0;
        for (int line = 1; line < lineOffset; line++) {
            int newline = text.indexOf('\n', start);
            if (newline < 0) {
                throw new ToolFailure("line_offset exceeds file length");
            }
            start = newline + 1;
        }
        if (charOffset.isPresent()) {
            return readWithinLine(path, text, start, lineOffset, charOffset.get());
        }
        int end = text.length();
        if (maxLines.isPresent()) {
            int cursor = start;
            for (int kept = 0; kept < maxLines.get() && cursor < text.length(); kept++) {
                int newline = text.indexOf('\n', cursor);
                cursor = newline < 0 ? text.length() : newline + 1;
            }
            end = cursor;
        }
        String slice = text.substring(start, end);
        String content = TokenTruncation.truncateMiddle(slice, LocalMemoryTools.READ_MAX_TOKENS);
        ObjectNode result = ToolJson.MAPPER.createObjectNode();
        result.put("path", path);
        result.put("start_line_number", lineOffset);
        result.put("content", content);
        result.put("truncated", end < text.length() || !content.equals(slice));
        return result;
    }

    /**
     * The line at {@code lineOffset} (with its newline, as a read of one line returns it) from its
     * {@code charOffset}-th character (Unicode code point) on: for a reader that pages through a line
     * too long for one answer (the MCP server's {@value #CHAR_OFFSET}). Codex's read drops the middle
     * of what is over {@link LocalMemoryTools#READ_MAX_TOKENS}, which would leave offsets past the
     * first half pointing into text never shown; here what is over is cut at the end instead, and
     * {@value #NEXT_CHAR_OFFSET} says where the rest starts, so every offset counts into the line
     * as it is on disk.
     */
    private static ObjectNode readWithinLine(String path, String text, int start, int lineOffset, int charOffset) {
        int newline = text.indexOf('\n', start);
        String line = text.substring(start, newline < 0 ? text.length() : newline + 1);
        int length = line.codePointCount(0, line.length());
        if (charOffset > length) {
            throw new ToolFailure(CHAR_OFFSET + " " + charOffset + " is past the end of line " + lineOffset
                    + ", which has " + length + " characters");
        }
        String rest = line.substring(line.offsetByCodePoints(0, charOffset));
        int end = TokenTruncation.headEnd(rest, (long) LocalMemoryTools.READ_MAX_TOKENS * TokenTruncation.BYTES_PER_TOKEN);
        ObjectNode result = ToolJson.MAPPER.createObjectNode();
        result.put("path", path);
        result.put("start_line_number", lineOffset);
        result.put(CHAR_OFFSET, charOffset);
        result.put("content", rest.substring(0, end));
        result.put("truncated", end < rest.length() || start + line.length() < text.length());
        if (end < rest.length()) {
            result.put(NEXT_CHAR_OFFSET, charOffset + rest.codePointCount(0, end));
        }
        return result;
    }

    /**
     * The {@value LocalMemoryTools#SEARCH} tool, for a session in {@code projectSlug} (if any);
     * {@code confined}: the scope defaults to the project.
     */
    ObjectNode search(String argumentsJson, Optional<String> projectSlug, boolean confined) {
        ToolArguments args = ToolArguments.parse(ToolJson.MAPPER, argumentsJson, List.of("queries", "match_mode",
                "path", "cursor", "context_lines", "case_sensitive", "normalized", "max_results", "scope"));
        List<String> queries = args.requiredStringList("queries").stream().map(String::strip).toList();
        Optional<JsonNode> modeNode = args.node("match_mode");
        MemorySearch.MatchMode mode = modeNode.map(this::matchMode).orElse(new MemorySearch.Any());
        Optional<String> path = args.optionalString("path");
        Optional<String> cursor = args.optionalString("cursor");
        int contextLines = args.optionalCount("context_lines").orElse(0);
        boolean caseSensitive = args.optionalBoolean("case_sensitive").orElse(true);
        boolean normalized = args.optionalBoolean("normalized").orElse(false);
        int maxResults = clamp(args.optionalCount("max_results"), LocalMemoryTools.MAX_SEARCH_RESULTS);
        ToolScope projects = ToolScope.of(projectSlug, args.optionalString("scope"), defaultScope(confined));
        if (queries.isEmpty() || queries.stream().anyMatch(String::isEmpty)) {
            throw new ToolFailure(LocalMemoryTools.EMPTY_QUERY);
        }
        if (mode instanceof MemorySearch.AllWithinLines within && within.lineCount() == 0) {
            throw new ToolFailure("all_within_lines.line_count must be a positive integer");
        }

        MemoryPaths.Scoped scope = paths.resolve(path);
        BasicFileAttributes attributes = existing(scope, path);
        List<MemorySearch.Match> matches = attributes.isRegularFile() || attributes.isDirectory()
                ? search.search(scope, attributes,
                        new MemorySearch.Request(queries, mode, contextLines, caseSensitive, normalized), projects)
                : List.of();
        ObjectNode result = ToolJson.MAPPER.createObjectNode();
        ArrayNode queryArray = result.putArray("queries");
        queries.forEach(queryArray::add);
        result.set("match_mode", modeJson(mode));
        ToolJson.putNullable(result, "path", path);
        ArrayNode out = result.putArray("matches");
        ResultPage page = ResultPage.of(cursor, matches.size(), maxResults);
        for (MemorySearch.Match match : matches.subList(page.start(), page.end())) {
            ObjectNode node = out.addObject()
                    .put("path", match.path())
                    .put("match_line_number", match.matchLineNumber())
                    .put("content_start_line_number", match.contentStartLineNumber())
                    .put("content", match.content());
            ArrayNode matched = node.putArray("matched_queries");
            match.matchedQueries().forEach(matched::add);
        }
        page.writeTo(result);
        return result;
    }

    private MemorySearch.MatchMode matchMode(JsonNode node) {
        ToolArguments peek = ToolArguments.of(node, "match_mode", List.of("type", "line_count"));
        String type = peek.requiredString("type");
        Function<List<String>, ToolArguments> strict = fields -> ToolArguments.of(node, "match_mode", fields);
        return switch (type) {
            case "any" -> {
                strict.apply(List.of("type"));
                yield new MemorySearch.Any();
            }
            case "all_on_same_line" -> {
                strict.apply(List.of("type"));
                yield new MemorySearch.AllOnSameLine();
            }
            case "all_within_lines" -> new MemorySearch.AllWithinLines(
                    peek.optionalCount("line_count").orElseThrow(() -> peek.missing("line_count")));
            default -> throw new ToolFailure("unknown variant `" + type
                    + "` for `match_mode.type`, expected one of `any`, `all_on_same_line`, `all_within_lines`");
        };
    }

    private ObjectNode modeJson(MemorySearch.MatchMode mode) {
        ObjectNode node = ToolJson.MAPPER.createObjectNode();
        if (mode instanceof MemorySearch.AllWithinLines within) {
            node.put("type", "all_within_lines").put("line_count", within.lineCount());
        } else {
            node.put("type", mode instanceof MemorySearch.AllOnSameLine ? "all_on_same_line" : "any");
        }
        return node;
    }

    private static String defaultScope(boolean confined) {
        return confined ? ToolScope.PROJECT : ToolScope.ALL;
    }

    /** The refusal of a read the project scope hides: the model learns how to ask for it anyway. */
    private static ToolFailure outsideProject(String path) {
        return new ToolFailure("'" + path + "' belongs to another project (or mixes every project's memory); this"
                + " session sees its own project's memory and the global memory. Only if you really need another"
                + " project's memory, call again with \"scope\": \"" + ToolScope.ALL + "\".");
    }

    /** Attributes of an existing, non-symlink scope; the root is checked too when it is the scope. */
    private static BasicFileAttributes existing(MemoryPaths.Scoped scope, Optional<String> requested) {
        BasicFileAttributes attributes = MemoryPaths.attributesOf(scope.file())
                .orElseThrow(() -> ToolFailure.notFound(requested.orElse("")));
        if (attributes.isSymbolicLink()) {
            throw ToolFailure.invalidPath(scope.display(), "must not be a symlink");
        }
        return attributes;
    }

    private static int clamp(Optional<Integer> requested, int max) {
        return Math.max(1, Math.min(requested.orElse(max), max));
    }
}
