package dev.mnemo.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mnemo.MemoryTools;
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
import java.util.List;
import java.util.Map;

/**
 * The memory folder of a Mnemo home as an MCP server, built on the MCP Java SDK. It only
 * translates: the tools, their schemas, path rules, limits and error texts are those of
 * {@link MemoryTools}; a tool's JSON error becomes a tool result marked {@code isError}. The two
 * resources are read through the same read tool.
 *
 * <p>A home that does not exist is never created: every call then answers with a tool error
 * saying so, and the server keeps serving (the home may appear later).
 */
final class McpMemoryServer {

    static final String ADD_NOTE_TOOL = "memories_add_ad_hoc_note";
    static final String READ_TOOL = "memories_read";
    static final String RESOURCE_PREFIX = "mnemo://memories/";
    static final List<String> RESOURCE_FILES = List.of("memory_summary.md", "MEMORY.md");

    private static final String INSTRUCTIONS = "Long-term memory from past sessions, kept by Mnemo: "
            + "memory_summary.md is the overview, MEMORY.md the handbook. Search the memory folder before "
            + "answering questions about earlier work, and read the files a match points to.";

    private final Path home;
    private final Path memoryRoot;
    private final MemoryTools tools;
    private final boolean allowNotes;
    private final String version;
    private final ObjectMapper json;
    private final McpJsonMapper mapper;

    /**
     * @param home the Mnemo home; its memory folder is {@code <home>/memories}
     * @param allowNotes also serve the (writing) ad-hoc note tool
     * @param version Mnemo's version, for the server info
     */
    McpMemoryServer(Path home, boolean allowNotes, String version, ObjectMapper json, McpJsonMapper mapper) {
        this.home = home;
        this.memoryRoot = home.resolve("memories");
        this.tools = MemoryTools.forFolder(memoryRoot);
        this.allowNotes = allowNotes;
        this.version = version;
        this.json = json;
        this.mapper = mapper;
    }

    /** Builds the server on {@code transport}; it serves until the transport's input ends. */
    McpSyncServer start(McpServerTransportProvider transport) {
        List<SyncToolSpecification> toolSpecs = tools.specs().stream()
                .filter(spec -> allowNotes || !ADD_NOTE_TOOL.equals(spec.name()))
                .map(this::tool)
                .toList();
        List<SyncResourceSpecification> resources = RESOURCE_FILES.stream().map(this::resource).toList();
        return McpServer.sync(transport)
                .serverInfo(McpSchema.Implementation.builder("mnemo", version).title("Mnemo")
                        .description("Long-term memory for AI agents: the memory folder of " + home).build())
                .instructions(INSTRUCTIONS)
                .capabilities(McpSchema.ServerCapabilities.builder().tools(false).resources(false, false).build())
                .jsonMapper(mapper)
                .jsonSchemaValidator(new DefaultJsonSchemaValidator(json))
                // The memory tools check their own arguments, with the messages their models know.
                .validateToolInputs(false)
                .tools(toolSpecs)
                .resources(resources)
                .build();
    }

    /** Runs one tool call as the memory tools answer it. */
    CallToolResult call(String name, Map<String, Object> arguments) {
        String answer = homeMissing() ? missingHomeError() : tools.call(name, toJson(arguments));
        return CallToolResult.builder().addTextContent(answer).isError(isError(answer)).build();
    }

    private SyncToolSpecification tool(ToolSpec spec) {
        boolean writes = ADD_NOTE_TOOL.equals(spec.name());
        McpSchema.Tool tool = McpSchema.Tool.builder(spec.name(), mapper, spec.parametersJsonSchema())
                .description(spec.description())
                .annotations(new McpSchema.ToolAnnotations.Builder().readOnlyHint(!writes).destructiveHint(false)
                        .idempotentHint(!writes).openWorldHint(false).build())
                .build();
        return new SyncToolSpecification(tool, (exchange, request) -> call(request.name(), request.arguments()));
    }

    private SyncResourceSpecification resource(String file) {
        String uri = RESOURCE_PREFIX + file;
        McpSchema.Resource resource = McpSchema.Resource.builder(uri, file)
                .description(file.equals("MEMORY.md") ? "The memory handbook: what past sessions taught, grep-able."
                        : "The memory summary: the short overview agents get in their instructions.")
                .mimeType("text/markdown")
                .build();
        return new SyncResourceSpecification(resource, (exchange, request) -> read(uri, file));
    }

    /** A resource's text through the read tool; a missing file is "resource not found". */
    private ReadResourceResult read(String uri, String file) {
        String answer = homeMissing() ? missingHomeError() : tools.call(READ_TOOL,
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
