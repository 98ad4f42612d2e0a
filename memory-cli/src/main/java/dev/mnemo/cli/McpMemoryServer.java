package dev.mnemo.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.MemoryTools;
import dev.mnemo.ProjectKeys;
import dev.mnemo.llm.ToolSpec;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The memory folder of a Mnemo home as an MCP server, built on the MCP Java SDK. It only
 * translates: the tools, their schemas, path rules, limits and error texts are those of
 * {@link MemoryTools}; a tool's JSON error becomes a tool result marked {@code isError}, and so
 * does a call of a tool the server does not serve ({@link UnknownToolAnswers}). Search and list
 * also answer with structured output ({@link McpToolOutput}). The resources, the summary and
 * handbook of the global memory and of the session's project, are read through the same read tool;
 * a client may subscribe to them and is told when a consolidation rewrote one
 * ({@link ResourceWatcher}). Three additions, for what MCP clients do: the
 * {@linkplain McpInstructions instructions} carry the memory summary; answers come in pages that
 * fit the {@linkplain OutputBudget output budget}; and the note tool, served only with
 * {@code --allow-notes}, asks the model to confirm each note with the user and stamps the file
 * name with the time of the call.
 *
 * <p>The tools serve the {@linkplain McpScope project} of {@code --project} (or
 * {@code --project-from-cwd}), else of the client's roots, beside the global memory, and keep to
 * them unless a call says {@code scope: all}; the instructions carry that project's summary only
 * when the command line named it (they go out before the client's roots can be asked for).
 *
 * <p>A home that does not exist is never created: every call then answers with a tool error
 * saying so, and the server keeps serving (the home may appear later).
 */
final class McpMemoryServer {

    static final String ADD_NOTE_TOOL = "memories_add_ad_hoc_note";
    static final String READ_TOOL = "memories_read";
    static final String RESOURCE_PREFIX = "mnemo://memories/";
    static final List<String> RESOURCE_FILES = List.of("memory_summary.md", "MEMORY.md");

    private static final DateTimeFormatter NOTE_TIMESTAMP = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH-mm-ss");
    private static final Pattern NOTE_FILENAME_TIME =
            Pattern.compile("^\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}(?=-)");

    static final String NOTE_FILENAME_DESCRIPTION = "File name of the new note: YYYY-MM-DDTHH-MM-SS-<slug>.md, the"
            + " slug 1 to 80 lowercase ASCII letters, digits or hyphens, e.g. 2025-01-31T09-30-00-remember-review-style.md."
            + " A name, not a path. The server writes the current UTC time over the timestamp, whatever it was.";
    static final String NOTE_CONFIRMATION = " Writes to the user's long-term memory at once, whatever the client's"
            + " sandbox or approval settings: before each call, show the user the note and ask them to confirm it.";

    /**
     * What a server serves.
     *
     * @param home the Mnemo home; its memory folder is {@code <home>/memories}
     * @param allowNotes also serve the (writing) ad-hoc note tool
     * @param maxOutputTokens the most a tool answer may hold (see {@link OutputBudget})
     * @param version Mnemo's version, for the server info
     * @param project the project {@code --project} named, for the whole session; empty to take it
     *     from the client's roots, if it sends any
     */
    record Settings(Path home, boolean allowNotes, int maxOutputTokens, String version, Optional<String> project) {

        /** A server whose project comes from the client's roots, if it sends any. */
        Settings(Path home, boolean allowNotes, int maxOutputTokens, String version) {
            this(home, allowNotes, maxOutputTokens, version, Optional.empty());
        }
    }

    private final Path home;
    private final Path memoryRoot;
    private final McpScope scope;
    private final Settings settings;
    private final OutputBudget budget;
    private final Clock clock;
    private final ObjectMapper json;
    private final McpJsonMapper mapper;
    private final McpToolOutput toolOutput;
    /** How often the resources' files are looked at, for subscribed clients. */
    private final Duration watchInterval;

    McpMemoryServer(Settings settings, Clock clock, ObjectMapper json, McpJsonMapper mapper) {
        this(settings, clock, json, mapper, ResourceWatcher.DEFAULT_INTERVAL);
    }

    /** A server that looks at its resources' files every {@code watchInterval}, for subscribed clients. */
    McpMemoryServer(Settings settings, Clock clock, ObjectMapper json, McpJsonMapper mapper, Duration watchInterval) {
        this.home = settings.home();
        this.memoryRoot = home.resolve("memories");
        this.scope = McpScope.of(memoryRoot, settings.project());
        this.settings = settings;
        this.budget = new OutputBudget(settings.maxOutputTokens(), json);
        this.clock = clock;
        this.json = json;
        this.mapper = mapper;
        this.toolOutput = new McpToolOutput(json);
        this.watchInterval = watchInterval;
    }

    /**
     * Builds the server on {@code transport}; it serves until the transport's input ends. Closing the
     * server stops the watching of its resources.
     */
    McpSyncServer start(McpServerTransportProvider transport) {
        List<SyncToolSpecification> toolSpecs = servedTools().stream().map(this::tool).toList();
        Optional<String> project = scope.project();
        List<SyncResourceSpecification> resources = resourceFiles(project).stream().map(this::resource).toList();
        AtomicReference<McpSyncServer> built = new AtomicReference<>();
        ResourceWatcher watcher = new ResourceWatcher(watchInterval, file -> built.get().notifyResourcesUpdated(
                new McpSchema.ResourcesUpdatedNotification(RESOURCE_PREFIX + file)));
        // On the watcher's thread, after any poll: the resources follow the project the scope serves now.
        Runnable followProject = () -> {
            McpSyncServer server = built.get();
            if (server != null) {
                Optional<String> now = scope.project();
                servedResources(server, now);
                watcher.watchOnly(watched(now));
            }
        };
        scope.onChange(changed -> watcher.execute(followProject));
        McpSyncServer server;
        try {
            server = McpServer.sync(new UnknownToolAnswers(transport, this::unknownTool, watcher::close))
                    .serverInfo(McpSchema.Implementation.builder("mnemo", settings.version()).title("Mnemo")
                            .description("Long-term memory for AI agents: the memory folder of " + home).build())
                    .instructions(McpInstructions.render(home, settings.allowNotes(), settings.project()))
                    .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(true, true).build())
                    .jsonMapper(mapper)
                    .jsonSchemaValidator(new DefaultJsonSchemaValidator(json))
                    // The memory tools check their own arguments, with the messages their models know.
                    .validateToolInputs(false)
                    .tools(toolSpecs)
                    .resources(resources)
                    .rootsChangeHandler((exchange, roots) -> scope.rootsChanged(roots))
                    .requestTimeout(McpScope.ROOTS_TIMEOUT)
                    .build();
        } catch (RuntimeException e) {
            watcher.close();
            throw e;
        }
        watcher.watchOnly(watched(project));
        built.set(server);
        watcher.execute(followProject); // in case the client's roots brought a project while the server was built
        return server;
    }

    /**
     * The specs of the tools served: the memory tools, without the note tool unless
     * {@code --allow-notes}, as they are {@linkplain MemoryTools#confinedToProject confined} to a
     * project (the read tool takes a scope) whether a project is known yet or not: the client lists
     * them once, and its roots may bring a project later. The specs do not depend on which project.
     */
    private List<ToolSpec> servedTools() {
        return MemoryTools.forFolder(memoryRoot).confinedToProject(scope.project().orElse("specs")).specs().stream()
                .filter(spec -> settings.allowNotes() || !ADD_NOTE_TOOL.equals(spec.name()))
                .toList();
    }

    /**
     * The answer to a call of a tool the server does not serve: a tool error naming those it does,
     * and why the note tool is not one of them when that is the one called.
     */
    CallToolResult unknownTool(String name) {
        List<String> served = servedTools().stream().map(ToolSpec::name).toList();
        String message = "unknown tool '" + name + "'; this server's tools are " + String.join(", ", served)
                + (ADD_NOTE_TOOL.equals(name) ? " (" + ADD_NOTE_TOOL + " is served only when the server was started"
                        + " with --allow-notes)" : "");
        return CallToolResult.builder().addTextContent(json.createObjectNode().put("error", message).toString())
                .isError(true).build();
    }

    /**
     * The files served as resources, relative to the memory folder: the global summary and
     * handbook, and those of {@code project} when there is one.
     */
    static List<String> resourceFiles(Optional<String> project) {
        List<String> files = new ArrayList<>(RESOURCE_FILES);
        project.map(ProjectKeys::slug).ifPresent(slug -> RESOURCE_FILES.forEach(
                file -> files.add(ProjectKeys.FOLDER + "/" + slug + "/" + file)));
        return files;
    }

    private Map<String, Path> watched(Optional<String> project) {
        Map<String, Path> files = new LinkedHashMap<>();
        resourceFiles(project).forEach(file -> files.put(file, memoryRoot.resolve(file)));
        return files;
    }

    /** Makes {@code server}'s resources those of {@code project}; the SDK tells the client the list changed. */
    private void servedResources(McpSyncServer server, Optional<String> project) {
        List<String> wanted = resourceFiles(project);
        for (McpSchema.Resource served : server.listResources()) {
            if (!wanted.contains(served.uri().substring(RESOURCE_PREFIX.length()))) {
                server.removeResource(served.uri());
            }
        }
        List<String> present = server.listResources().stream().map(McpSchema.Resource::uri).toList();
        wanted.stream().filter(file -> !present.contains(RESOURCE_PREFIX + file))
                .forEach(file -> server.addResource(resource(file)));
    }

    /** The project the tools serve now, if any. */
    Optional<String> project() {
        return scope.project();
    }

    /** Tells {@code listener} each project the client's roots scope the tools to from now on. */
    void onProjectChange(Consumer<Optional<String>> listener) {
        scope.onChange(listener);
    }

    /**
     * Runs one tool call as the memory tools answer it, in pages that fit the output budget; a note's
     * file name gets the current time at each call.
     */
    CallToolResult call(String name, Map<String, Object> arguments) {
        String answer;
        if (homeMissing()) {
            answer = missingHomeError();
        } else if (ADD_NOTE_TOOL.equals(name)) {
            answer = addNote(arguments);
        } else {
            answer = budget.fit(name, toJson(withoutReadScopeOutsideProjects(name, arguments)),
                    args -> scope.tools().call(name, args));
        }
        CallToolResult.Builder result = CallToolResult.builder().addTextContent(answer).isError(isError(answer));
        if (!isError(answer)) {
            toolOutput.content(name, parse(answer)).ifPresent(result::structuredContent);
        }
        return result.build();
    }

    /**
     * The arguments of a call, but for a read outside any project without its {@code scope}: the
     * read tool's schema offers one for sessions in a project, and outside one every file is served.
     */
    private Map<String, Object> withoutReadScopeOutsideProjects(String name, Map<String, Object> arguments) {
        if (!READ_TOOL.equals(name) || arguments == null || !arguments.containsKey("scope")
                || scope.project().isPresent()) {
            return arguments;
        }
        Object value = arguments.get("scope");
        if (!"all".equals(value) && !"project".equals(value)) {
            return arguments; // the read tool refuses it, naming the field
        }
        Map<String, Object> without = new LinkedHashMap<>(arguments);
        without.remove("scope");
        return without;
    }

    /**
     * Adds a note whose file name's timestamp is now, by the server's clock (a client lists the tools
     * once, so no time in their description stays current, and a model rarely knows the time); the
     * answer names the file written. A name without a timestamp goes to the tool as it is, which
     * refuses it.
     */
    private String addNote(Map<String, Object> arguments) {
        Map<String, Object> stamped = arguments == null ? Map.of() : new LinkedHashMap<>(arguments);
        String written = null;
        if (stamped.get("filename") instanceof String filename) {
            Matcher matcher = NOTE_FILENAME_TIME.matcher(filename);
            if (matcher.find()) {
                written = matcher.replaceFirst(LocalDateTime.ofInstant(clock.instant(), ZoneOffset.UTC)
                        .format(NOTE_TIMESTAMP));
                stamped.put("filename", written);
            }
        }
        String answer = scope.tools().call(ADD_NOTE_TOOL, toJson(stamped));
        JsonNode node = parse(answer);
        if (written == null || isError(answer) || !(node instanceof ObjectNode object)) {
            return answer;
        }
        return object.put("filename", written).toString();
    }

    private SyncToolSpecification tool(ToolSpec spec) {
        boolean writes = ADD_NOTE_TOOL.equals(spec.name());
        McpSchema.Tool.Builder tool = McpSchema.Tool.builder(spec.name(), mapper, writes
                        ? withoutStartTime(spec.parametersJsonSchema())
                        : budget.servedSchema(spec.name(), spec.parametersJsonSchema()))
                .description(writes ? spec.description() + NOTE_CONFIRMATION : spec.description())
                .annotations(new McpSchema.ToolAnnotations.Builder().readOnlyHint(!writes).destructiveHint(false)
                        .idempotentHint(!writes).openWorldHint(false).build());
        toolOutput.schema(spec.name()).ifPresent(tool::outputSchema);
        return new SyncToolSpecification(tool.build(), (exchange, request) -> {
            scope.beforeToolCall(exchange);
            return call(request.name(), request.arguments());
        });
    }

    /**
     * The note schema without the time the server started at, which the memory tools write into the
     * file name's description: a client lists the tools once, and the time would only grow stale.
     */
    private String withoutStartTime(String schema) {
        try {
            ObjectNode node = (ObjectNode) json.readTree(schema);
            ((ObjectNode) node.path("properties").path("filename")).put("description", NOTE_FILENAME_DESCRIPTION);
            return json.writeValueAsString(node);
        } catch (JsonProcessingException | ClassCastException e) {
            throw new IllegalStateException("the note tool's schema is not the expected object: " + schema, e);
        }
    }

    private SyncResourceSpecification resource(String file) {
        String uri = RESOURCE_PREFIX + file;
        String whose = file.startsWith(ProjectKeys.FOLDER + "/") ? " of this session's project" : " of the global memory";
        McpSchema.Resource resource = McpSchema.Resource.builder(uri, file)
                .description(file.endsWith("MEMORY.md") ? "The memory handbook" + whose
                        + ": what past sessions taught, grep-able."
                        : "The memory summary" + whose + ": the short overview agents get in their instructions.")
                .mimeType("text/markdown")
                .build();
        return new SyncResourceSpecification(resource, (exchange, request) -> read(uri, file));
    }

    /** A resource's text through the read tool; a missing file is "resource not found". */
    private ReadResourceResult read(String uri, String file) {
        String answer = homeMissing() ? missingHomeError() : scope.tools().call(READ_TOOL,
                json.createObjectNode().put("path", file).toString());
        JsonNode node = parse(answer);
        if (isError(answer)) {
            boolean missing = homeMissing() || !Files.exists(memoryRoot.resolve(file), LinkOption.NOFOLLOW_LINKS);
            throw McpError.builder(missing ? McpSchema.ErrorCodes.RESOURCE_NOT_FOUND : McpSchema.ErrorCodes.INTERNAL_ERROR)
                    .message(node.path("error").asText()).data(uri).build();
        }
        return ReadResourceResult.builder(List.of(TextResourceContents.builder(uri, node.path("content").asText())
                .mimeType("text/markdown").build())).build();
    }

    private boolean homeMissing() {
        return !Files.isDirectory(home);
    }

    private String missingHomeError() {
        return json.createObjectNode().put("error", "the Mnemo home '" + home + "' does not exist; start an agent "
                + "with Mnemo (or `mnemo --home " + home + " run`) to create it").toString();
    }

    /** A memory tool's error is an object whose only field is {@code error}. */
    private boolean isError(String answer) {
        JsonNode node = parse(answer);
        return node.isObject() && node.size() == 1 && node.has("error");
    }

    private JsonNode parse(String answer) {
        try {
            return json.readTree(answer);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a memory tool answered with malformed JSON: " + answer, e);
        }
    }

    private String toJson(Map<String, Object> arguments) {
        try {
            return arguments == null ? "{}" : json.writeValueAsString(arguments);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the tool arguments as JSON", e);
        }
    }
}
