package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.mnemo.StartupReport;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real LangChain4j {@code AiServices} assistant on {@code OpenAiChatModel}, talking HTTP to an
 * in-process Chat Completions server, with Mnemo's hooks over a real SQLite store and git workspace.
 */
class AiServicesTest {

    static final String SYSTEM = "You are the team's helpful assistant.";

    interface Assistant {
        @dev.langchain4j.service.SystemMessage(SYSTEM)
        String chat(@MemoryId String conversation, @UserMessage String text);
    }

    interface PlainAssistant {
        String chat(@MemoryId String conversation, @UserMessage String text);
    }

    @TempDir
    Path home;

    private MemoryHome memory;
    private OpenAiWireServer server;
    private final Map<Object, ChatMemory> chatMemories = new ConcurrentHashMap<>();

    @BeforeEach
    void setUp() {
        memory = MemoryHome.consolidated(home);
    }

    @AfterEach
    void tearDown() {
        if (server != null) {
            server.close();
        }
        memory.close();
    }

    private OpenAiChatModel.OpenAiChatModelBuilder chatModel() {
        return OpenAiChatModel.builder().baseUrl(server.baseUrl().toString()).apiKey("test-key")
                .modelName("assistant-model").maxRetries(0);
    }

    private <T> AiServices<T> services(Class<T> type, OpenAiChatModel model) {
        return AiServices.builder(type).chatModel(model)
                .chatMemoryProvider(id -> chatMemories.computeIfAbsent(id, k -> MessageWindowChatMemory.withMaxMessages(50)));
    }

    private Assistant configuredAssistant() {
        return MnemoLangChain4j.create(memory.engine).configure(services(Assistant.class, chatModel().build())).build();
    }

    @Test
    void toolLoop_everyModelCallCarriesTheSummary_butTheChatMemoryNeverHoldsIt() {
        server = OpenAiWireServer.start();
        server.enqueue(WireReply.toolCall("call_s1", "memories_search", "{\"queries\":[\"make ship\"]}"));
        server.enqueue(WireReply.text("Run make ship."));

        String answer = configuredAssistant().chat("alice", "How do I deploy?");

        assertThat(answer).isEqualTo("Run make ship.");
        assertThat(server.requests()).hasSize(2).allSatisfy(request -> assertThat(request.systemText())
                .startsWith(SYSTEM).contains("MEMORY_SUMMARY BEGINS", "`make ship` (" + MemoryHome.PAST_THREAD + ")"));
        assertThat(server.requests().get(0).toolNames())
                .contains("memories_search", "memories_read", "memories_list", "memories_add_ad_hoc_note");
        assertThat(server.requests().get(1).toolOutputs()).singleElement().asString().contains("MEMORY.md");
        List<ChatMessage> remembered = chatMemories.get("alice").messages();
        assertThat(remembered.get(0)).isEqualTo(SystemMessage.from(SYSTEM));
        assertThat(remembered).noneMatch(m -> m.toString().contains("MEMORY_SUMMARY"));
    }

    @Test
    void memoryToolCall_runsAndIsRecordedInItsConversation_withTheTurn() {
        server = OpenAiWireServer.start();
        server.enqueue(WireReply.toolCall("call_r1", "memories_read", "{\"path\":\"MEMORY.md\"}"));
        server.enqueue(WireReply.text("It says make ship."));

        configuredAssistant().chat("bob", "What does the handbook say?");

        assertThat(server.requests().get(1).toolOutputs()).singleElement().asString().contains("make ship");
        List<String> rollout = memory.rollout("bob");
        assertThat(rollout).anyMatch(l -> l.contains("\"function_call\"") && l.contains("\"call_id\":\"call_r1\"")
                && l.contains("memories_read"));
        assertThat(rollout).anyMatch(l -> l.contains("\"function_call_output\"") && l.contains("\"call_id\":\"call_r1\""));
        assertThat(rollout).anyMatch(l -> l.contains("What does the handbook say?"));
        assertThat(rollout).anyMatch(l -> l.contains("\"output_text\",\"text\":\"It says make ship.\""));
    }

    @Test
    void citedAnswer_comesBackVisible_andTheCitedMemoryIsCountedOnce() {
        server = OpenAiWireServer.start();
        server.enqueue(WireReply.text(MemoryHome.citing("Use make ship.")));

        String answer = configuredAssistant().chat("carol", "How do I deploy?");

        assertThat(answer).isEqualTo("Use make ship.");
        assertThat(memory.usageCount(MemoryHome.PAST_THREAD)).isEqualTo(1);
        assertThat(memory.rollout("carol")).anyMatch(l -> l.contains("\"text\":\"Use make ship.\""))
                .noneMatch(l -> l.contains("oai-mem-citation"));
        // The chat memory keeps the model's own words, as Codex's history does.
        assertThat(((AiMessage) chatMemories.get("carol").messages().get(2)).text()).contains("<oai-mem-citation>");
    }

    @Test
    void twoConversationsInParallel_keepSeparateRollouts() throws Exception {
        // Each question first lists the memory folder, then gets its answer; call ids name the question.
        server = OpenAiWireServer.start(request -> {
            String question = request.lastUserText();
            List<String> roles = request.roles();
            return roles.get(roles.size() - 1).equals("user")
                    ? WireReply.toolCall("call_" + question.replaceAll("\\W", "_"), "memories_list", "{}")
                    : WireReply.text("answer to " + question);
        });
        Assistant assistant = configuredAssistant();
        int turns = 4;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<List<String>>> runs = new ArrayList<>();
            for (String who : List.of("dana", "erik")) {
                runs.add(pool.submit(() -> {
                    go.await();
                    List<String> answers = new ArrayList<>();
                    for (int i = 0; i < turns; i++) {
                        answers.add(assistant.chat(who, who + " question " + i));
                    }
                    return answers;
                }));
            }
            go.countDown();
            for (Future<List<String>> run : runs) {
                assertThat(run.get(60, TimeUnit.SECONDS)).hasSize(turns);
            }
        } finally {
            pool.shutdownNow();
        }

        for (String who : List.of("dana", "erik")) {
            String other = who.equals("dana") ? "erik" : "dana";
            List<String> rollout = memory.rollout(who);
            for (int i = 0; i < turns; i++) {
                String question = who + " question " + i;
                assertThat(rollout).anyMatch(l -> l.contains("\"text\":\"" + question + "\""))
                        .anyMatch(l -> l.contains("\"text\":\"answer to " + question + "\""))
                        .anyMatch(l -> l.contains("\"function_call_output\"")
                                && l.contains("call_" + question.replace(' ', '_')));
            }
            assertThat(rollout).noneMatch(l -> l.contains(other));
        }
        assertThat(server.requests()).allSatisfy(r -> assertThat(r.systemText()).contains("MEMORY_SUMMARY BEGINS"));
    }

    @Test
    void listenersAlone_recordTheTurnCountCitations_andStartTheStartupTask() throws Exception {
        server = OpenAiWireServer.start();
        server.enqueue(WireReply.text(MemoryHome.citing("Use make ship.")));
        MnemoLangChain4j mnemo = MnemoLangChain4j.create(memory.engine);
        PlainAssistant assistant = services(PlainAssistant.class, chatModel().build())
                .registerListeners(mnemo.listeners()).build();

        String answer = assistant.chat("frank", "How do I deploy?");

        assertThat(answer).as("without the guardrail the caller gets the raw text").contains("<oai-mem-citation>");
        assertThat(memory.rollout("frank")).anyMatch(l -> l.contains("\"text\":\"How do I deploy?\""))
                .anyMatch(l -> l.contains("\"text\":\"Use make ship.\"")).noneMatch(l -> l.contains("oai-mem-citation"));
        assertThat(memory.usageCount(MemoryHome.PAST_THREAD)).isEqualTo(1);
        StartupReport report = memory.engine.conversation("frank").startupTask().completion().get(30, TimeUnit.SECONDS);
        assertThat(report).isNotNull();
        assertThat(server.requests().get(0).systemText()).as("no transformer, no instructions").isEmpty();
    }

    @Test
    void requestTransformerAlone_addsASystemMessageWhenTheServiceHasNone() {
        server = OpenAiWireServer.start();
        server.enqueue(WireReply.text("ok"));
        MnemoLangChain4j mnemo = MnemoLangChain4j.create(memory.engine);
        PlainAssistant assistant = services(PlainAssistant.class, chatModel().build())
                .chatRequestTransformer(mnemo.requestTransformer()).build();

        assistant.chat("gina", "hi");

        WireRequest request = server.requests().get(0);
        assertThat(request.roles()).containsExactly("system", "user");
        assertThat(request.systemText()).isEqualTo(memory.engine.conversation("gina").developerInstructions());
        assertThat(chatMemories.get("gina").messages()).noneMatch(m -> m instanceof SystemMessage);
    }

    @Test
    void strictTools_sendStrictFunctions_andNullOptionalArgumentsAreReadAsAbsent() {
        server = OpenAiWireServer.start();
        server.enqueue(WireReply.toolCall("call_x", "memories_read",
                "{\"path\":\"MEMORY.md\",\"line_offset\":null,\"max_lines\":null}"));
        server.enqueue(WireReply.text("done"));
        Assistant assistant = MnemoLangChain4j.create(memory.engine)
                .configure(services(Assistant.class, chatModel().strictTools(true).build())).build();

        assistant.chat("hugo", "read the handbook");

        assertThat(server.requests().get(0).json()).contains("\"strict\":true");
        assertThat(server.requests().get(1).toolOutputs()).singleElement().asString().contains("make ship")
                .doesNotContain("\"error\"");
    }
}
