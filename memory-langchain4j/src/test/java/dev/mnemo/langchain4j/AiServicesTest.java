package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.mnemo.ConversationBusyException;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
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

    interface Greeter {
        String chat(@MemoryId String conversation, @UserMessage String text);

        default String greet(String name) {
            return chat(name, "hello, I am " + name);
        }
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
    void listenersAlone_recordTheWholeExchangeInOrder_andCountItsCitation() {
        server = OpenAiWireServer.start();
        server.enqueue(WireReply.text(MemoryHome.citing("Use make ship.")));
        server.enqueue(WireReply.text("Anytime."));
        MnemoLangChain4j mnemo = MnemoLangChain4j.create(memory.engine);
        PlainAssistant assistant = services(PlainAssistant.class, chatModel().build())
                .registerListeners(mnemo.listeners()).build();

        String answer = assistant.chat("frank", "How do I deploy?");
        assistant.chat("frank", "Thanks!");

        assertThat(answer).as("without the guardrail the caller gets the raw text").contains("<oai-mem-citation>");
        assertThat(memory.messages("frank")).as("recorded by the listeners alone; nothing else opened the conversation")
                .containsExactly("user: How do I deploy?", "assistant: Use make ship.", "user: Thanks!",
                        "assistant: Anytime.");
        assertThat(memory.rollout("frank")).noneMatch(l -> l.contains("oai-mem-citation"));
        assertThat(memory.usageCount(MemoryHome.PAST_THREAD)).isEqualTo(1);
        assertThat(server.requests().get(0).systemText()).as("no transformer, no instructions").isEmpty();
    }

    @Test
    void secondCallOnABusyConversation_isRefused_beforeAnythingOfItIsRecordedOrSent() throws Exception {
        CountDownLatch firstArrived = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        server = OpenAiWireServer.start(request -> {
            firstArrived.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return WireReply.text("answer to " + request.lastUserText());
        });
        Assistant assistant = configuredAssistant();
        CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> assistant.chat("olga", "first"));
        assertThat(firstArrived.await(30, TimeUnit.SECONDS)).isTrue();

        assertThatThrownBy(() -> assistant.chat("olga", "second")).isInstanceOf(ConversationBusyException.class)
                .hasMessageContaining("'olga'").hasMessageContaining("refused before anything was recorded");
        release.countDown();

        assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo("answer to first");
        assertThat(server.requests()).hasSize(1);
        assertThat(chatMemories.get("olga").messages()).noneMatch(m -> m.toString().contains("second"));
        assertThat(memory.messages("olga")).containsExactly("user: first", "assistant: answer to first");
        assertThat(assistant.chat("olga", "third")).isEqualTo("answer to third");
    }

    @Test
    void listenersAlone_onABusyConversation_recordNothingOfTheSecondCall_andTheToolProviderRefusesIt()
            throws Exception {
        CountDownLatch firstArrived = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        server = OpenAiWireServer.start(request -> {
            if (request.lastUserText().equals("first")) {
                firstArrived.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return WireReply.text("answer to " + request.lastUserText());
        });
        MnemoLangChain4j mnemo = MnemoLangChain4j.create(memory.engine);
        PlainAssistant listened = services(PlainAssistant.class, chatModel().build())
                .registerListeners(mnemo.listeners()).build();
        PlainAssistant withTools = services(PlainAssistant.class, chatModel().build())
                .registerListeners(mnemo.listeners()).toolProvider(mnemo.toolProvider()).build();
        CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> listened.chat("pia", "first"));
        assertThat(firstArrived.await(30, TimeUnit.SECONDS)).isTrue();

        assertThat(listened.chat("pia", "second")).as("LangChain4j ignores what a listener throws")
                .isEqualTo("answer to second");
        assertThatThrownBy(() -> withTools.chat("pia", "third")).isInstanceOf(ConversationBusyException.class);
        release.countDown();

        assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo("answer to first");
        assertThat(memory.messages("pia")).containsExactly("user: first", "assistant: answer to first");
    }

    @Test
    void serviceBuiltFromTheBuilderConfigureWasGiven_failsItsFirstCall_namingConfigure() {
        server = OpenAiWireServer.start();
        server.enqueue(WireReply.text("never sent"));
        AiServices<Assistant> builder = services(Assistant.class, chatModel().build());
        MnemoLangChain4j.create(memory.engine).configure(builder);

        Assistant bypassing = builder.build();

        assertThatThrownBy(() -> bypassing.chat("quinn", "hi"))
                .hasMessageContaining("build it from the AiServices that configure(..) returns");
        assertThat(server.requests()).isEmpty();
        assertThat(memory.engine.threads().get("quinn")).as("nothing recorded").isEmpty();
    }

    @Test
    void defaultMethodsOfTheService_callBackThroughMnemosProxy() {
        server = OpenAiWireServer.start(request -> WireReply.text(MemoryHome.citing("hi " + request.lastUserText())));
        Greeter greeter = MnemoLangChain4j.create(memory.engine).configure(services(Greeter.class, chatModel().build()))
                .build();

        assertThat(greeter.greet("rae")).isEqualTo("hi hello, I am rae");
        assertThat(memory.messages("rae")).containsExactly("user: hello, I am rae", "assistant: hi hello, I am rae");
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
