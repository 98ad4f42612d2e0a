package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.TokenStream;
import dev.langchain4j.service.UserMessage;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The defaults a multi-user server gets from {@code configure}: no shared {@code "default"}
 * conversation, no conversation named by an identity hash, the memory tools on, and no path on this
 * machine in anything sent to the model provider.
 */
class SafeDefaultsTest {

    interface NoMemoryId {
        String chat(@UserMessage String text);
    }

    interface AnyMemoryId {
        String chat(@MemoryId Object conversation, @UserMessage String text);
    }

    /** A session type without its own {@code toString()}. */
    static final class Session {}

    interface SessionMemoryId {
        String chat(@MemoryId Session session, @UserMessage String text);
    }

    interface StreamsAndStructured {
        TokenStream chat(@MemoryId String conversation, @UserMessage String text);

        List<String> steps(@MemoryId String conversation, @UserMessage String text);
    }

    interface Assistant {
        @dev.langchain4j.service.SystemMessage("You help.")
        String chat(@MemoryId String conversation, @UserMessage String text);
    }

    @TempDir
    Path home;

    private MemoryHome memory;
    private OpenAiWireServer server;

    @AfterEach
    void tearDown() {
        if (server != null) {
            server.close();
        }
        if (memory != null) {
            memory.close();
        }
    }

    private <T> AiServices<T> services(Class<T> type) {
        return AiServices.builder(type).chatModel(OpenAiChatModel.builder().baseUrl(server.baseUrl().toString())
                .apiKey("test-key").modelName("assistant-model").maxRetries(0).build())
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(50));
    }

    @Test
    void configure_refusesAServiceMethodWithoutMemoryId_soUsersAreNeverMergedIntoDefault() {
        memory = MemoryHome.consolidated(home);
        server = OpenAiWireServer.start();
        MnemoLangChain4j mnemo = MnemoLangChain4j.create(memory.engine);

        assertThatThrownBy(() -> mnemo.configure(AiServices.builder(NoMemoryId.class)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NoMemoryId.chat has no @MemoryId parameter")
                .hasMessageContaining("every user would share one conversation");
    }

    @Test
    void configure_refusesAMemoryIdTypeWithoutItsOwnToString() {
        memory = MemoryHome.consolidated(home);
        server = OpenAiWireServer.start();

        assertThatThrownBy(() -> MnemoLangChain4j.create(memory.engine).configure(AiServices.builder(SessionMemoryId.class)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("SessionMemoryId.chat: its @MemoryId type " + Session.class.getName());
    }

    @Test
    void configure_refusesStructuredAnswersBesideStreamingMethods() {
        memory = MemoryHome.consolidated(home);
        server = OpenAiWireServer.start();

        assertThatThrownBy(() -> MnemoLangChain4j.create(memory.engine).configure(AiServices
                .builder(StreamsAndStructured.class).streamingChatModel(OpenAiStreamingChatModel.builder()
                        .baseUrl(server.baseUrl().toString()).apiKey("k").modelName("m").build())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("StreamsAndStructured.steps returns java.util.List<java.lang.String>");
    }

    static Stream<Arguments> unstableMemoryIds() {
        Supplier<String> lambda = () -> "x";
        return Stream.of(Arguments.of("an Object", new Object(), "has no stable toString()"),
                Arguments.of("a lambda", lambda, "has no stable toString()"),
                Arguments.of("an array", new String[] {"a"}, "has no stable toString()"),
                Arguments.of("LangChain4j's default", "default", "a @MemoryId parameter"),
                Arguments.of("a blank id", " ", "blank"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("unstableMemoryIds")
    void aMemoryIdThatCannotNameAConversation_isRefusedBeforeAnythingIsRecordedOrSent(String what, Object memoryId,
            String message) {
        memory = MemoryHome.consolidated(home);
        server = OpenAiWireServer.start(request -> WireReply.text("answered"));
        AnyMemoryId assistant = MnemoLangChain4j.create(memory.engine).configure(services(AnyMemoryId.class)).build();

        assertThatThrownBy(() -> assistant.chat(memoryId, "hello")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
        assertThat(server.requests()).isEmpty();
        assertThat(memory.engine.threads().get(memoryId.toString())).isEmpty();
    }

    static Stream<Arguments> configs() {
        return Stream.of(Arguments.of("defaults", MemoriesConfig.builder().minRolloutIdleHours(1).build()),
                Arguments.of("dedicated_tools = false",
                        MemoriesConfig.builder().minRolloutIdleHours(1).dedicatedTools(false).build()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("configs")
    void memoryToolsAreOn_andNoRequestToTheProviderNamesAPathOnThisMachine(String what, MemoriesConfig config)
            throws Exception {
        memory = MemoryHome.consolidated(home, config);
        String recap;
        try (Stream<Path> recaps = Files.list(memory.memoryRoot().resolve("rollout_summaries"))) {
            recap = "rollout_summaries/" + recaps.findFirst().orElseThrow().getFileName();
        }
        assertThat(Files.readString(memory.memoryRoot().resolve(recap))).as("what the memory files hold")
                .contains("rollout_path: " + home);
        server = OpenAiWireServer.start();
        server.enqueue(WireReply.toolCall("call_l", "memories_list", "{}"));
        server.enqueue(WireReply.toolCall("call_s", "memories_search", "{\"queries\":[\"make ship\",\"rollout\"]}"));
        server.enqueue(WireReply.toolCall("call_m", "memories_read", "{\"path\":\"MEMORY.md\"}"));
        server.enqueue(WireReply.toolCall("call_w", "memories_read", "{\"path\":\"raw_memories.md\"}"));
        server.enqueue(WireReply.toolCall("call_r", "memories_read", "{\"path\":\"" + recap + "\"}"));
        server.enqueue(WireReply.text("Run make ship."));
        Assistant assistant = MnemoLangChain4j.create(memory.engine).configure(services(Assistant.class)).build();

        assertThat(assistant.chat("sam", "How do I deploy?")).isEqualTo("Run make ship.");

        List<WireRequest> requests = server.requests();
        assertThat(requests).hasSize(6);
        assertThat(requests.get(0).toolNames())
                .contains("memories_list", "memories_read", "memories_search", "memories_add_ad_hoc_note");
        assertThat(requests.get(0).systemText()).contains("MEMORY_SUMMARY BEGINS", "memories_search");
        assertThat(requests.get(5).toolOutputs()).hasSize(5).anyMatch(output -> output.contains("make ship"))
                .anyMatch(output -> output.contains(
                        "rollout_path: <mnemo-home>/sessions/2026/03/02/rollout-2026-03-02T08-00-00-past-deploy-chat.jsonl"));
        for (String path : List.of(home.toAbsolutePath().toString(), home.toRealPath().toString(),
                memory.memoryRoot().toAbsolutePath().toString())) {
            assertThat(requests).allSatisfy(request -> assertThat(request.json()).doesNotContain(path)
                    .doesNotContain(path.replace("/", "\\/")));
        }
    }
}
