package dev.mnemo.internal.tools;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.MemoryTools;
import dev.mnemo.ProjectKeys;
import dev.mnemo.internal.redact.DefaultSecretRedactor;
import dev.mnemo.internal.sandbox.ConfinedRoot;
import dev.mnemo.internal.sandbox.ToolFailure;
import dev.mnemo.spi.SecretRedactor;
import dev.mnemo.llm.ToolSpec;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
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
 *
 * <p>This class holds the tools' surface: the specs, the dispatch with its error contract, and the
 * note tool with its gate. The read-only tools over the folder are {@link FolderTools}.
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

    /** The read-only tools over the folder. */
    private final FolderTools folder;
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
    /** Whether they are confined to that project ({@link #confinedToProject}). */
    private final boolean confined;

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
        this.folder = new FolderTools(root);
        this.notes = new AdHocNotes(root, Objects.requireNonNull(redactor, "redactor"));
        this.projectSlug = Optional.empty();
        this.confined = false;
    }

    /** The same tools bound to a project (confined to it or not) and a conversation. */
    private LocalMemoryTools(LocalMemoryTools tools, Optional<String> projectSlug, boolean confined,
            Optional<String> conversation, BooleanSupplier externalContext) {
        this.noteAdded = tools.noteAdded;
        this.gate = tools.gate;
        this.clock = tools.clock;
        this.folder = tools.folder;
        this.notes = tools.notes;
        this.projectSlug = projectSlug;
        this.confined = confined;
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
        return new LocalMemoryTools(this, projectSlug, confined, Optional.of(Objects.requireNonNull(threadId, "threadId")),
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
     * @return the file written
     * @throws IllegalArgumentException when the name is invalid or already taken
     */
    public Path writeApprovedNote(String filename, Optional<String> projectSlug, String note,
            Optional<String> conversation) {
        try {
            Path written = notes.write(filename, note, projectSlug, conversation);
            if (!noteAdded.test(written)) {
                throw new IllegalArgumentException("ad-hoc note '" + filename + "' already exists");
            }
            return written;
        } catch (ToolFailure e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    @Override
    public LocalMemoryTools inProject(String projectKey) {
        return new LocalMemoryTools(this, Optional.of(ProjectKeys.slug(projectKey)), false, conversation,
                externalContext);
    }

    @Override
    public LocalMemoryTools confinedToProject(String projectKey) {
        return new LocalMemoryTools(this, Optional.of(ProjectKeys.slug(projectKey)), true, conversation,
                externalContext);
    }

    @Override
    public List<ToolSpec> specs() {
        return ToolJson.SCHEMAS.specs(LocalDateTime.ofInstant(clock.instant(), ZoneOffset.UTC).format(NOTE_TIMESTAMP),
                confined);
    }

    @Override
    public String call(String toolName, String argumentsJson) {
        try {
            ObjectNode result = switch (String.valueOf(toolName)) {
                case LIST -> folder.list(argumentsJson, projectSlug, confined);
                case READ -> folder.read(argumentsJson, projectSlug, confined);
                case SEARCH -> folder.search(argumentsJson, projectSlug, confined);
                case ADD_AD_HOC_NOTE -> addAdHocNote(argumentsJson);
                default -> throw new ToolFailure("unknown tool '" + toolName + "'; the memory tools are " + LIST
                        + ", " + READ + ", " + SEARCH + " and " + ADD_AD_HOC_NOTE);
            };
            return ToolJson.MAPPER.writeValueAsString(result);
        } catch (ToolFailure e) {
            LOG.debug("Memory tool {} refused the call: {}", toolName, e.getMessage());
            return error(e.getMessage());
        } catch (RuntimeException | JsonProcessingException e) {
            // The exception's text may hold absolute paths: the model sees only its kind, the log the rest.
            LOG.warn("Memory tool {} failed unexpectedly", toolName, e);
            return error("memory tool " + toolName + " failed: " + e.getClass().getSimpleName());
        }
    }

    private ObjectNode addAdHocNote(String argumentsJson) {
        ToolArguments args = ToolArguments.parse(ToolJson.MAPPER, argumentsJson, List.of("filename", "note", "scope"));
        String filename = args.requiredString("filename");
        String note = args.requiredString("note");
        Optional<String> scope = noteScope(args.optionalString("scope"));
        String prepared = notes.prepare(filename, note);
        if (gate != null) {
            Optional<String> held = gate.admit(new NoteRequest(filename, scope, prepared, conversation,
                    conversation.isPresent() && externalContext.getAsBoolean()));
            if (held.isPresent()) {
                return ToolJson.MAPPER.createObjectNode().put("status", "awaiting_approval")
                        .put("pending_id", held.get());
            }
        }
        Path written = notes.write(filename, prepared, scope, conversation);
        if (!noteAdded.test(written)) {
            throw new ToolFailure("ad-hoc note '" + filename + "' already exists");
        }
        return ToolJson.MAPPER.createObjectNode();
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

    private String error(String message) {
        try {
            return ToolJson.MAPPER.writeValueAsString(ToolJson.MAPPER.createObjectNode().put("error", message));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise an error message", e);
        }
    }
}
