package dev.mnemo.langchain4j;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.store.sqlite.SqliteMemoryStore;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import dev.mnemo.workspace.git.GitMemoryWorkspace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * A Mnemo home with a real SQLite store and git workspace whose pipeline runs on a LangChain4j
 * {@link OpenAiChatModel} (through {@link MnemoLangChain4j#languageModel}) talking HTTP to its own
 * in-process server: Phase 1 requests are answered with a memory, Phase 2's agent writes
 * {@code MEMORY.md} and {@code memory_summary.md} with {@code write_file} calls. The assistant under
 * test talks to a separate server, so background pipeline calls never take its scripted replies.
 */
final class MemoryHome implements AutoCloseable {

    /** When the past session was recorded. */
    static final Instant RECORDED = Instant.parse("2026-03-02T08:00:00Z");
    /** When the engine runs: past the past session's idle window. */
    static final Instant NOW = RECORDED.plus(Duration.ofHours(7));
    static final String PAST_THREAD = "past-deploy-chat";
    static final String RAW_MEMORY = "- deploys go out with `make ship` from the release branch";

    private static final ObjectMapper JSON = new ObjectMapper();

    final Path home;
    final OpenAiWireServer modelServer = OpenAiWireServer.start(MemoryHome::pipelineReply);
    final LanguageModel model;
    final SqliteMemoryStore store;
    final GitMemoryWorkspace workspace;
    final MemoryEngine engine;
    private final MemoriesConfig config;

    /**
     * @param engineOpensItsStore whether the engine opens its own store and workspace in the home,
     *     and so keeps thread logs ({@code logs.sqlite}); {@link #store} is then a second connection
     *     to the same database, and {@link #workspace} null
     */
    private MemoryHome(Path home, MemoriesConfig config, boolean engineOpensItsStore) {
        this.home = home;
        this.config = config;
        this.model = MnemoLangChain4j.languageModel(OpenAiChatModel.builder()
                .baseUrl(modelServer.baseUrl().toString()).apiKey("test-key").modelName("pipeline-model")
                .maxRetries(0).strictJsonSchema(true).build());
        recordPastSession();
        MemoryEngine.Builder builder = MemoryEngine.builder().home(home).config(config).model(model).clock(at(NOW))
                .closeTimeout(Duration.ofSeconds(2));
        if (engineOpensItsStore) {
            this.engine = builder.build();
            this.store = SqliteMemoryStore.open(home.resolve("mnemo.sqlite"));
            this.workspace = null;
        } else {
            this.store = SqliteMemoryStore.open(home.resolve("mnemo.sqlite"));
            this.workspace = GitMemoryWorkspace.open(home.resolve("memories"), at(NOW));
            this.engine = builder.store(store).workspace(workspace).build();
        }
    }

    /** A home whose past session was extracted and consolidated: the summary names it. */
    static MemoryHome consolidated(Path home) {
        return consolidated(home, MemoriesConfig.builder().minRolloutIdleHours(1).build());
    }

    /** The same, with {@code config} ({@code min_rollout_idle_hours} should stay below 7). */
    static MemoryHome consolidated(Path home, MemoriesConfig config) {
        return consolidate(new MemoryHome(home, config, false));
    }

    /** A consolidated home whose engine opened its own store, so it keeps thread logs. */
    static MemoryHome consolidatedWithThreadLogs(Path home) {
        return consolidate(new MemoryHome(home, MemoriesConfig.builder().minRolloutIdleHours(1).build(), true));
    }

    private static MemoryHome consolidate(MemoryHome h) {
        h.engine.admin().runPhase1("setup");
        h.engine.admin().runPhase2();
        return h;
    }

    Path memoryRoot() {
        return home.resolve("memories");
    }

    /** The lines of a conversation's rollout. */
    List<String> rollout(String threadId) {
        Path path = engine.threads().get(threadId).orElseThrow(() -> new AssertionError("no thread " + threadId))
                .rolloutPath();
        try {
            return Files.readAllLines(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The user and assistant messages of a conversation's rollout, in order, as {@code "user: ..."}
     * and {@code "assistant: ..."}: what tests compare whole exchanges with.
     */
    List<String> messages(String threadId) {
        List<String> messages = new ArrayList<>();
        for (String line : rollout(threadId)) {
            JsonNode item = json(line);
            JsonNode payload = item.path("payload");
            if (item.path("type").asText().equals("response_item") && payload.path("type").asText().equals("message")
                    && !payload.path("role").asText().equals("developer")) {
                StringBuilder text = new StringBuilder();
                payload.path("content").forEach(part -> text.append(part.path("text").asText()));
                messages.add(payload.path("role").asText() + ": " + text);
            }
        }
        return messages;
    }

    private static JsonNode json(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    long usageCount(String threadId) {
        return store.stage1Output(threadId).orElseThrow().usageCount();
    }

    /** An answer citing the past session's memory. */
    static String citing(String visible) {
        return visible + "<oai-mem-citation>\n<citation_entries>\nMEMORY.md:1-3|note=[deploy command]\n"
                + "</citation_entries>\n<rollout_ids>\n" + PAST_THREAD + "\n</rollout_ids>\n</oai-mem-citation>";
    }

    private void recordPastSession() {
        try (SqliteMemoryStore seedStore = SqliteMemoryStore.open(home.resolve("mnemo.sqlite"));
                GitMemoryWorkspace seedWorkspace = GitMemoryWorkspace.open(home.resolve("memories"), at(RECORDED));
                MemoryEngine seed = MemoryEngine.builder().home(home).config(config).model(model)
                        .clock(at(RECORDED)).store(seedStore).workspace(seedWorkspace).build();
                RecordedSession session = seed.sessions().start(SessionContext.root(PAST_THREAD))) {
            session.userMessage("How do we deploy the service?");
            session.assistantMessage("Run `make ship` from the release branch.");
        }
    }

    private static Clock at(Instant instant) {
        return Clock.fixed(instant, ZoneOffset.UTC);
    }

    /** Phase 1: the memory; Phase 2: write both artifacts, then stop. */
    private static WireReply pipelineReply(WireRequest request) {
        if (request.responseFormatType().equals("json_schema")) {
            ObjectNode reply = JSON.createObjectNode().put("raw_memory", RAW_MEMORY)
                    .put("rollout_summary", "# Deploying\nThe service ships with make ship.")
                    .put("rollout_slug", "deploy");
            return WireReply.text(reply.toString());
        }
        if (request.toolNames().contains("write_file")) {
            List<String> roles = request.roles();
            if (roles.get(roles.size() - 1).equals("tool")) {
                return WireReply.text("consolidated");
            }
            return new WireReply.ToolCalls(List.of(
                    writeFile("w1", "MEMORY.md", "# Task Group: deploying\n\n" + RAW_MEMORY + "\n"),
                    writeFile("w2", "memory_summary.md", "v1\n\n## User Profile\nShips a service.\n\n"
                            + "## What's in Memory\n- deploying: `make ship` (" + PAST_THREAD + ")\n")));
        }
        return WireReply.failure(500, "{\"error\":{\"message\":\"the pipeline server got an unexpected request\","
                + "\"type\":\"server_error\"}}");
    }

    private static WireReply.Call writeFile(String id, String path, String content) {
        return new WireReply.Call(id, "write_file",
                JSON.createObjectNode().put("path", path).put("content", content).toString());
    }

    @Override
    public void close() {
        engine.close();
        if (workspace != null) {
            workspace.close();
        }
        store.close();
        modelServer.close();
    }
}
