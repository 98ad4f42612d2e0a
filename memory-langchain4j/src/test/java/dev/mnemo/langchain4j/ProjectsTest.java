package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static dev.mnemo.testkit.ProjectMemories.GLOBAL_FACT;
import static dev.mnemo.testkit.ProjectMemories.NPM_FACT;
import static dev.mnemo.testkit.ProjectMemories.PNPM_FACT;

import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.ProjectKeys;
import dev.mnemo.TenantHomes;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.ProjectMemories;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ProjectResolver}: a real {@code AiServices} assistant on {@code OpenAiChatModel} over HTTP
 * to the in-process wire server, a real home whose memory folder holds a global summary and two
 * projects' summaries with conflicting facts. A conversation in a project is sent its project's
 * fact and the global one, never the other project's.
 */
class ProjectsTest {

    static final String WEB = "acme/web";
    static final String API = "acme/api";

    interface Assistant {
        String chat(@MemoryId ChatId conversation, @UserMessage String text);
    }

    /** An application's own memory-id type: the workspace the chat belongs to, and the chat. */
    record ChatId(String workspace, String chat) {}

    /** The project of a chat: its workspace, when it has one. */
    static final ProjectResolver WORKSPACE = memoryId -> Optional.ofNullable(((ChatId) memoryId).workspace());

    @TempDir
    Path root;

    private final OpenAiWireServer pipelineServer = OpenAiWireServer.start();
    private OpenAiWireServer assistantServer = OpenAiWireServer.start(r -> WireReply.text("ok: " + r.lastUserText()));
    private MemoryEngine engine;

    @BeforeEach
    void setUp() {
        ProjectMemories.plant(root.resolve("home"), WEB, API);
        engine = MemoryEngine.builder().home(root.resolve("home")).model(MnemoLangChain4j.languageModel(pipelineModel()))
                .closeTimeout(Duration.ofSeconds(2)).build();
    }

    @AfterEach
    void tearDown() {
        engine.close();
        pipelineServer.close();
        assistantServer.close();
    }

    private OpenAiChatModel pipelineModel() {
        return OpenAiChatModel.builder().baseUrl(pipelineServer.baseUrl().toString()).apiKey("k").modelName("m")
                .maxRetries(0).build();
    }

    private Assistant assistant(MnemoLangChain4j mnemo) {
        return mnemo.configure(AiServices.builder(Assistant.class).chatModel(OpenAiChatModel.builder()
                .baseUrl(assistantServer.baseUrl().toString()).apiKey("k").modelName("m").maxRetries(0).build())
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20))).build();
    }

    private WireRequest requestFor(String question) {
        return assistantServer.requests().stream().filter(r -> r.lastUserText().equals(question)).findFirst()
                .orElseThrow(() -> new AssertionError("no request asked " + question));
    }

    @Test
    void aConversationInAProject_isSentThatProjectsFactAndTheGlobalOne_neverTheOtherProjects() {
        Assistant assistant = assistant(MnemoLangChain4j.create(engine, WORKSPACE));

        assistant.chat(new ChatId(WEB, "1"), "How do I install the web app?");
        assistant.chat(new ChatId(API, "2"), "How do I install the api?");

        assertThat(requestFor("How do I install the web app?").systemText()).contains(PNPM_FACT, GLOBAL_FACT)
                .doesNotContain(NPM_FACT);
        assertThat(requestFor("How do I install the api?").systemText()).contains(NPM_FACT, GLOBAL_FACT)
                .doesNotContain(PNPM_FACT);
        assertThat(engine.conversation(new ChatId(WEB, "1").toString()).project()).contains(WEB);
    }

    @Test
    void aConversationWithoutAProject_isSentTheGlobalFact_andNeitherProjectsFact() {
        Assistant assistant = assistant(MnemoLangChain4j.create(engine, WORKSPACE));

        assistant.chat(new ChatId(null, "3"), "How do I install anything?");

        assertThat(requestFor("How do I install anything?").systemText()).contains(GLOBAL_FACT)
                .doesNotContain(PNPM_FACT).doesNotContain(NPM_FACT);
        assertThat(engine.conversation(new ChatId(null, "3").toString()).project()).isEmpty();
    }

    @Test
    void withoutAProjectResolver_everyConversationSeesTheGlobalMemoryOnly() {
        Assistant assistant = assistant(MnemoLangChain4j.create(engine));

        assistant.chat(new ChatId(WEB, "4"), "Unresolved: how do I install?");

        assertThat(requestFor("Unresolved: how do I install?").systemText()).contains(GLOBAL_FACT)
                .doesNotContain(PNPM_FACT).doesNotContain(NPM_FACT);
    }

    @Test
    void theMemoryToolsOfAConversationInAProject_searchThatProjectAndGlobalMemory_only() throws IOException {
        assistantServer.close();
        assistantServer = OpenAiWireServer.start();
        assistantServer.enqueue(WireReply.toolCall("call_p1", "memories_search",
                "{\"queries\":[\"installs dependencies\"],\"scope\":\"project\"}"));
        assistantServer.enqueue(WireReply.text("Use pnpm."));
        ChatId id = new ChatId(WEB, "5");

        String answer = assistant(MnemoLangChain4j.create(engine, WORKSPACE)).chat(id, "Search: how do I install?");

        assertThat(answer).isEqualTo("Use pnpm.");
        assertThat(assistantServer.requests()).hasSize(2);
        assertThat(assistantServer.requests().get(1).toolOutputs()).singleElement().asString()
                .contains(ProjectKeys.slug(WEB)).doesNotContain(ProjectKeys.slug(API));
        Path rollout = engine.threads().get(id.toString()).orElseThrow().rolloutPath();
        assertThat(Files.readString(rollout)).contains("call_p1").contains(ProjectKeys.slug(WEB));
    }

    @Test
    void aConversationStillOpenInOneProject_isRefusedInAnother_beforeTheModelIsAsked() {
        ProjectResolver moved = memoryId -> Optional.of(API);
        assistant(MnemoLangChain4j.create(engine, WORKSPACE)).chat(new ChatId(WEB, "6"), "First: how do I install?");

        assertThatThrownBy(() -> assistant(MnemoLangChain4j.create(engine, moved))
                .chat(new ChatId(WEB, "6"), "Second: how do I install?"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(assistantServer.requests()).noneMatch(r -> r.lastUserText().equals("Second: how do I install?"));
    }

    @Test
    void withOneMemoryPerTenant_aConversationGetsItsProjectInItsTenantsMemory() {
        Path users = root.resolve("users");
        ProjectMemories.plant(TenantHomes.home(users, "alice"), WEB, API);
        MemoryEngines engines = MemoryEngines.builder().engineFactory(TenantHomes.under(users, () -> MemoryEngine
                .builder().model(MnemoLangChain4j.languageModel(pipelineModel())).closeTimeout(Duration.ofSeconds(2))))
                .build();
        try (engines) {
            Assistant assistant = assistant(MnemoLangChain4j.create(engines, memoryId -> "alice", WORKSPACE));

            assistant.chat(new ChatId(API, "7"), "Alice: how do I install?");

            assertThat(requestFor("Alice: how do I install?").systemText()).contains(NPM_FACT, GLOBAL_FACT)
                    .doesNotContain(PNPM_FACT);
            assertThat(engines.forTenant("alice").conversation(new ChatId(API, "7").toString()).project())
                    .contains(API);
        }
    }
}
