package dev.mnemo.internal.tools;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.MemoryTools;
import dev.mnemo.ProjectKeys;
import dev.mnemo.internal.redact.DefaultSecretRedactor;
import dev.mnemo.internal.sandbox.ConfinedRoot;
import dev.mnemo.internal.sandbox.ToolFailure;
import dev.mnemo.spi.SecretRedactor;
import dev.mnemo.llm.ToolSpec;
import dev.mnemo.internal.read.TokenTruncation;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memory tools over a local memory folder, behaving as Codex's {@code memories} tools (read
 * sheet §4): {@value #LIST}, {@value #READ}, {@value #SEARCH} and {@value #ADD_AD_HOC_NOTE}.
 *
 * <p>{@link #call} never throws on bad input: an unknown tool, malformed JSON, an unknown field, a
 * wrong type or a refused path yields {@code {"error": "<message>"}} with the message Codex shows
 * its model. Results are compact JSON with Codex's field names. Thread-safe: it holds no state
 * besides the root and the clock, which supplies the current time shown in the note tool's
 * file-name guidance.
 */
public final class LocalMemoryTools implements MemoryTools {

    /** Tool names, usable as OpenAI function names (the same as {@link MemoryTools}'s). */
    public static final String LIST = MemoryTools.LIST;
    public static final String READ = MemoryTools.READ;
    public static final String SEARCH = MemoryTools.SEARCH;
    public static final String ADD_AD_HOC_NOTE = MemoryTools.ADD_AD_HOC_NOTE;

    /** Codex's page limits (also the defaults) and the read budget. */
    public static final int MAX_LIST_RESULTS = 2_000;
    public static final int MAX_SEARCH_RESULTS = 200;
    public static final int READ_MAX_TOKENS = 20_000;

    static final String EMPTY_QUERY = "queries must not be empty or contain empty strings";
    private static final DateTimeFormatter NOTE_TIMESTAMP = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH-mm-ss");
    private static final Logger LOG = LoggerFactory.getLogger(LocalMemoryTools.class);

    private final MemoryPaths paths;
    private final MemorySearch search;
    private final AdHocNotes notes;
    private final Predicate<Path> noteAdded;
    /** Decides where each note goes (the engine's approval and rejections); null: notes are written at once. */
    private final NoteGate gate;
    /** The recorded conversation these tools serve, when bound to one ({@link #inConversation}). */
    private final Optional<String> conversation;
    /** Whether that conversation has seen external context (a web page, a search, an MCP tool). */
    private final BooleanSupplier externalContext;
    private final Clock clock;
    /** The slug of the session's project, when these tools are bound to one ({@link #inProject}). */
    private final Optional<String> projectSlug;

    /**
     * Tools whose ad-hoc notes pass through the built-in {@link DefaultSecretRedactor}.
     *
     * @param memoryRoot the memory folder; it need not exist yet (reads then report not found)
     * @param clock gives the current time suggested for note file names
     */
    public LocalMemoryTools(Path memoryRoot, Clock clock) {
        this(memoryRoot, clock, new DefaultSecretRedactor());
    }

    /**
     * @param memoryRoot the memory folder; it need not exist yet (reads then report not found); it
     *     may be a symbolic link, followed once per call (nothing inside it is followed)
     * @param clock gives the current time suggested for note file names
     * @param redactor applied to every ad-hoc note before it is written: notes are committed to the
     *     folder's history and read by the consolidation agent
     */
    public LocalMemoryTools(Path memoryRoot, Clock clock, SecretRedactor redactor) {
        this(memoryRoot, clock, redactor, note -> true);
    }

    /**
     * @param memoryRoot the memory folder, as for {@link #LocalMemoryTools(Path, Clock, SecretRedactor)}
     * @param clock gives the current time suggested for note file names
     * @param redactor applied to every ad-hoc note before it is written
     * @param noteAdded told of each note once its file is in place (the engine passes its
     *     workspace's {@link dev.mnemo.spi.MemoryWorkspace#noteAdded}); {@code false} means the name
     *     was taken meanwhile where the note is shared, and the call reports it as existing
     */
    public LocalMemoryTools(Path memoryRoot, Clock clock, SecretRedactor redactor, Predicate<Path> noteAdded) {
        this(memoryRoot, clock, redactor, noteAdded, (NoteGate) null);
    }

    /**
     * Notes wait in a queue for a person's approval instead of being written ({@code approval = "ask"}).
     *
     * @param approvalQueue takes each validated, redacted note; null writes notes at once
     */
    public LocalMemoryTools(Path memoryRoot, Clock clock, SecretRedactor redactor, Predicate<Path> noteAdded,
            ApprovalQueue approvalQueue) {
        this(memoryRoot, clock, redactor, noteAdded, approvalQueue == null ? null
                : request -> Optional.of(approvalQueue.submit(request.filename(), request.projectSlug(), request.note())));
    }

    /**
     * Notes pass the engine's {@link NoteGate}, which writes them at once, holds them for a person's
     * approval or refuses them.
     *
     * @param gate decides for each validated, redacted note; null writes notes at once
     */
    public LocalMemoryTools(Path memoryRoot, Clock clock, SecretRedactor redactor, Predicate<Path> noteAdded,
            NoteGate gate) {
        this.noteAdded = Objects.requireNonNull(noteAdded, "noteAdded");
        this.gate = gate;
        this.conversation = Optional.empty();
        this.externalContext = () -> false;
        ConfinedRoot root = new ConfinedRoot(Objects.requireNonNull(memoryRoot, "memoryRoot"));
        this.clock = Objects.requireNonNull(clock, "clock");
        this.paths = new MemoryPaths(root);
        this.search = new MemorySearch(paths);
        this.notes = new AdHocNotes(root, Objects.requireNonNull(redactor, "redactor"));
        this.projectSlug = Optional.empty();
    }

    /** The same tools bound to a project and a conversation. */
    private LocalMemoryTools(LocalMemoryTools tools, Optional<String> projectSlug, Optional<String> conversation,
            BooleanSupplier externalContext) {
        this.noteAdded = tools.noteAdded;
        this.gate = tools.gate;
        this.clock = tools.clock;
        this.paths = tools.paths;
        this.search = tools.search;
        this.notes = tools.notes;
        this.projectSlug = projectSlug;
        this.conversation = conversation;
        this.externalContext = externalContext;
    }

    /**
     * The same tools serving one recorded conversation: each note names it as its source, so
     * forgetting the conversation removes the note, and the gate learns whether it saw external context.
     *
     * @param threadId the conversation
     * @param externalContext asked at each note: has the conversation seen external context?
     */
    public LocalMemoryTools inConversation(String threadId, BooleanSupplier externalContext) {
        return new LocalMemoryTools(this, projectSlug, Optional.of(Objects.requireNonNull(threadId, "threadId")),
                Objects.requireNonNull(externalContext, "externalContext"));
    }

    /** One note on its way in, for the {@link NoteGate}. */
    public record NoteRequest(String filename, Optional<String> projectSlug, String note,
            Optional<String> conversation, boolean externalContext) {
        public NoteRequest {
            Objects.requireNonNull(filename, "filename");
            Objects.requireNonNull(projectSlug, "projectSlug");
            Objects.requireNonNull(note, "note");
            Objects.requireNonNull(conversation, "conversation");
        }
    }

    /** Decides where a note goes. */
    @FunctionalInterface
    public interface NoteGate {
        /**
         * Decides for one validated, redacted and neutralised note.
         *
         * @return empty to write it now; else the pending id under which it waits for a person
         * @throws ToolFailure to refuse it; the model is told the message
         */
        Optional<String> admit(NoteRequest request);
    }

    /**
     * Removes the notes of a forgotten conversation from the notes folder and tells {@code removed}
     * of each file.
     *
     * @return how many were removed
     */
    public int removeNotesOf(String threadId, Consumer<Path> removed) {
        List<Path> files = notes.removeNotesOf(Objects.requireNonNull(threadId, "threadId"));
        files.forEach(removed);
        return files.size();
    }

    /** Where notes wait for approval. */
    @FunctionalInterface
    public interface ApprovalQueue {
        /**
         * Keeps a note for a person to decide on.
         *
         * @param projectSlug the project folder it is for; empty for a global note
         * @return its pending id
         */
        String submit(String filename, Optional<String> projectSlug, String redactedNote);
    }

    /**
     * Writes a note a person approved, as the tool would have written it, and tells the workspace.
     *
     * @throws IllegalArgumentException when the name is invalid or already taken
     */
    public void writeApprovedNote(String filename, Optional<String> projectSlug, String note) {
        writeApprovedNote(filename, projectSlug, note, Optional.empty());
    }

    /**
     * The same, naming the recorded conversation that asked for the note in its header.
     *
     * @throws IllegalArgumentException when the name is invalid or already taken
     */
    public void writeApprovedNote(String filename, Optional<String> projectSlug, String note,
            Optional<String> conversation) {
        try {
            Path written = notes.write(filename, note, projectSlug, conversation);
            if (!noteAdded.test(written)) {
                throw new IllegalArgumentException("ad-hoc note '" + filename + "' already exists");
            }
        } catch (ToolFailure e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    @Override
    public LocalMemoryTools inProject(String projectKey) {
        return new LocalMemoryTools(this, Optional.of(ProjectKeys.slug(projectKey)), conversation, externalContext);
    }

    /**
     * The JSON mapper (configured once, then only read: safe to share) and the schemas, made when
     * a tool is first used rather than with every engine: most engines that are opened build
     * instructions and never call a tool, and Jackson's databind would be most of a cold start.
     */
    private static final class Json {
        static final ObjectMapper MAPPER = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        static final ToolSchemas SCHEMAS = new ToolSchemas(MAPPER);
    }

    @Override
    public List<ToolSpec> specs() {
        return Json.SCHEMAS.specs(LocalDateTime.ofInstant(clock.instant(), ZoneOffset.UTC).format(NOTE_TIMESTAMP));
    }

    @Override
    public String call(String toolName, String argumentsJson) {
        try {
            ObjectNode result = switch (String.valueOf(toolName)) {
                case LIST -> list(argumentsJson);
                case READ -> read(argumentsJson);
                case SEARCH -> search(argumentsJson);
                case ADD_AD_HOC_NOTE -> addAdHocNote(argumentsJson);
                default -> throw new ToolFailure("unknown tool '" + toolName + "'; the memory tools are " + LIST
                        + ", " + READ + ", " + SEARCH + " and " + ADD_AD_HOC_NOTE);
            };
            return Json.MAPPER.writeValueAsString(result);
        } catch (ToolFailure e) {
            LOG.debug("Memory tool {} refused the call: {}", toolName, e.getMessage());
            return error(e.getMessage());
        } catch (RuntimeException | JsonProcessingException e) {
            // The exception's text may hold absolute paths: the model sees only its kind, the log the rest.
            LOG.warn("Memory tool {} failed unexpectedly", toolName, e);
            return error("memory tool " + toolName + " failed: " + e.getClass().getSimpleName());
        }
    }

    private ObjectNode list(String argumentsJson) {
        ToolArguments args = ToolArguments.parse(Json.MAPPER, argumentsJson,
                List.of("path", "cursor", "max_results", "scope"));
        Optional<String> path = args.optionalString("path");
        Optional<String> cursor = args.optionalString("cursor");
        int maxResults = clamp(args.optionalCount("max_results"), MAX_LIST_RESULTS);
        ToolScope projects = ToolScope.of(projectSlug, args.optionalString("scope"));

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
        ObjectNode result = Json.MAPPER.createObjectNode();
        putNullable(result, "path", path);
        ArrayNode out = result.putArray("entries");
        Page page = Page.of(cursor, entries.size(), maxResults);
        for (MemoryPaths.Child entry : entries.subList(page.start(), page.end())) {
            out.addObject().put("path", entry.display()).put("entry_type", entry.directory() ? "directory" : "file");
        }
        page.writeTo(result);
        return result;
    }

    private ObjectNode read(String argumentsJson) {
        ToolArguments args = ToolArguments.parse(Json.MAPPER, argumentsJson, List.of("path", "line_offset", "max_lines"));
        String path = args.requiredString("path");
        int lineOffset = args.optionalCount("line_offset").orElse(1);
        Optional<Integer> maxLines = args.optionalCount("max_lines");
        if (lineOffset == 0) {
            throw new ToolFailure("line_offset must be a 1-indexed line number");
        }
        if (maxLines.isPresent() && maxLines.get() == 0) {
            throw new ToolFailure("max_lines must be a positive integer");
        }
        MemoryPaths.Scoped scope = paths.resolve(Optional.of(path));
        BasicFileAttributes attributes = existing(scope, Optional.of(path));
        if (!attributes.isRegularFile()) {
            throw new ToolFailure("path '" + path + "' is not a file");
        }
        String text = MemorySearch.readUtf8(scope.file()).orElseThrow(
                () -> new ToolFailure("I/O error while reading memories: " + scope.display() + " is not valid UTF-8"));
        int start = 0;
        for (int line = 1; line < lineOffset; line++) {
            int newline = text.indexOf('\n', start);
            if (newline < 0) {
                throw new ToolFailure("line_offset exceeds file length");
            }
            start = newline + 1;
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
        String content = TokenTruncation.truncateMiddle(slice, READ_MAX_TOKENS);
        ObjectNode result = Json.MAPPER.createObjectNode();
        result.put("path", path);
        result.put("start_line_number", lineOffset);
        result.put("content", content);
        result.put("truncated", end < text.length() || !content.equals(slice));
        return result;
    }

    private ObjectNode search(String argumentsJson) {
        ToolArguments args = ToolArguments.parse(Json.MAPPER, argumentsJson, List.of("queries", "match_mode", "path",
                "cursor", "context_lines", "case_sensitive", "normalized", "max_results", "scope"));
        List<String> queries = args.requiredStringList("queries").stream().map(String::strip).toList();
        Optional<JsonNode> modeNode = args.node("match_mode");
        MemorySearch.MatchMode mode = modeNode.map(this::matchMode).orElse(new MemorySearch.Any());
        Optional<String> path = args.optionalString("path");
        Optional<String> cursor = args.optionalString("cursor");
        int contextLines = args.optionalCount("context_lines").orElse(0);
        boolean caseSensitive = args.optionalBoolean("case_sensitive").orElse(true);
        boolean normalized = args.optionalBoolean("normalized").orElse(false);
        int maxResults = clamp(args.optionalCount("max_results"), MAX_SEARCH_RESULTS);
        ToolScope projects = ToolScope.of(projectSlug, args.optionalString("scope"));
        if (queries.isEmpty() || queries.stream().anyMatch(String::isEmpty)) {
            throw new ToolFailure(EMPTY_QUERY);
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
        ObjectNode result = Json.MAPPER.createObjectNode();
        ArrayNode queryArray = result.putArray("queries");
        queries.forEach(queryArray::add);
        result.set("match_mode", modeJson(mode));
        putNullable(result, "path", path);
        ArrayNode out = result.putArray("matches");
        Page page = Page.of(cursor, matches.size(), maxResults);
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
        ObjectNode node = Json.MAPPER.createObjectNode();
        if (mode instanceof MemorySearch.AllWithinLines within) {
            node.put("type", "all_within_lines").put("line_count", within.lineCount());
        } else {
            node.put("type", mode instanceof MemorySearch.AllOnSameLine ? "all_on_same_line" : "any");
        }
        return node;
    }

    private ObjectNode addAdHocNote(String argumentsJson) {
        ToolArguments args = ToolArguments.parse(Json.MAPPER, argumentsJson, List.of("filename", "note", "scope"));
        String filename = args.requiredString("filename");
        String note = args.requiredString("note");
        Optional<String> scope = noteScope(args.optionalString("scope"));
        String prepared = notes.prepare(filename, note);
        if (gate != null) {
            Optional<String> held = gate.admit(new NoteRequest(filename, scope, prepared, conversation,
                    conversation.isPresent() && externalContext.getAsBoolean()));
            if (held.isPresent()) {
                return Json.MAPPER.createObjectNode().put("status", "awaiting_approval").put("pending_id", held.get());
            }
        }
        Path written = notes.write(filename, prepared, scope, conversation);
        if (!noteAdded.test(written)) {
            throw new ToolFailure("ad-hoc note '" + filename + "' already exists");
        }
        return Json.MAPPER.createObjectNode();
    }

    /** The project a note is filed under: the session's unless the call says {@code global}. */
    private Optional<String> noteScope(Optional<String> scope) {
        String value = scope.orElse(projectSlug.isPresent() ? ToolScope.PROJECT : ToolScope.GLOBAL);
        return switch (value) {
            case ToolScope.GLOBAL -> Optional.empty();
            case ToolScope.PROJECT -> {
                if (projectSlug.isEmpty()) {
                    throw new ToolFailure("this session is in no project; leave scope out or use `" + ToolScope.GLOBAL
                            + "`");
                }
                yield projectSlug;
            }
            default -> throw new ToolFailure("unknown scope `" + value + "`, expected `" + ToolScope.PROJECT + "` or `"
                    + ToolScope.GLOBAL + "`");
        };
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

    private static void putNullable(ObjectNode node, String field, Optional<String> value) {
        value.ifPresentOrElse(v -> node.put(field, v), () -> node.putNull(field));
    }

    private String error(String message) {
        try {
            return Json.MAPPER.writeValueAsString(Json.MAPPER.createObjectNode().put("error", message));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise an error message", e);
        }
    }

    /** One page of results: {@code [start, end)} and the cursor of the next page, if any. */
    private record Page(int start, int end, Optional<String> nextCursor) {

        static Page of(Optional<String> cursor, int total, int maxResults) {
            int start = cursor.map(c -> parseCursor(c, total)).orElse(0);
            int end = (int) Math.min((long) start + maxResults, total);
            return new Page(start, end, end < total ? Optional.of(Integer.toString(end)) : Optional.empty());
        }

        private static int parseCursor(String cursor, int total) {
            String digits = cursor.startsWith("+") ? cursor.substring(1) : cursor;
            if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw ToolFailure.invalidCursor(cursor, "must be a non-negative integer");
            }
            String significant = digits.replaceFirst("^0+(?=.)", "");
            if (significant.length() > 10 || Long.parseLong(significant) > total) {
                throw ToolFailure.invalidCursor(significant, "exceeds result count");
            }
            return Integer.parseInt(significant);
        }

        void writeTo(ObjectNode result) {
            putNullable(result, "next_cursor", nextCursor);
            result.put("truncated", nextCursor.isPresent());
        }
    }
}
