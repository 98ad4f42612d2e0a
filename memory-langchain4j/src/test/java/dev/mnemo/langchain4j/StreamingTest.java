package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.TokenStream;
import dev.langchain4j.service.UserMessage;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Streamed answers: {@code OpenAiStreamingChatModel} over server-sent events from the in-process server. */
class StreamingTest {

    interface StreamingAssistant {
        @dev.langchain4j.service.SystemMessage("You stream.")
        TokenStream chat(@MemoryId String conversation, @UserMessage String text);
    }

    /** What a stream delivered to its handlers. */
    static final class Received {
        final List<String> partials = new CopyOnWriteArrayList<>();
        final CompletableFuture<ChatResponse> done = new CompletableFuture<>();

        Received from(TokenStream stream) {
            stream.onPartialResponse(partials::add).onCompleteResponse(done::complete)
                    .onError(done::completeExceptionally).start();
            return this;
        }

        String shown() {
            return String.join("", partials);
        }

        ChatResponse response() throws Exception {
            return done.get(30, TimeUnit.SECONDS);
        }
    }

    static final String VISIBLE = "Deploy with make ship, from the release branch.";

    @TempDir
    Path home;

    private MemoryHome memory;
    private OpenAiWireServer server;

    @BeforeEach
    void setUp() {
        memory = MemoryHome.consolidated(home);
        server = OpenAiWireServer.start();
    }

    @AfterEach
    void tearDown() {
        server.close();
        memory.close();
    }

    /** Built by {@code mnemo}: the same instance must wrap its streams. */
    private StreamingAssistant assistant(MnemoLangChain4j mnemo, boolean withGuardrail) {
        AiServices<StreamingAssistant> services = AiServices.builder(StreamingAssistant.class)
                .streamingChatModel(OpenAiStreamingChatModel.builder().baseUrl(server.baseUrl().toString())
                        .apiKey("test-key").modelName("assistant-model").build())
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(50));
        return (withGuardrail ? mnemo.configure(services) : mnemo.configureStreaming(services)).build();
    }

    /** The cited answer cut into pieces of {@code size} characters: the markup is split everywhere. */
    private static WireReply citedAnswerInPiecesOf(int size) {
        String raw = MemoryHome.citing(VISIBLE);
        List<String> pieces = new ArrayList<>();
        for (int i = 0; i < raw.length(); i += size) {
            pieces.add(raw.substring(i, Math.min(raw.length(), i + size)));
        }
        return WireReply.text(raw, pieces.toArray(String[]::new));
    }

    @Test
    void visibleTokens_neverShowCitationMarkupSplitAcrossChunks_andCountItOnce() throws Exception {
        server.enqueue(WireReply.toolCall("call_s1", "memories_search", "{\"queries\":[\"deploy\"]}"));
        server.enqueue(citedAnswerInPiecesOf(3));
        MnemoLangChain4j mnemo = MnemoLangChain4j.create(memory.engine);
        StreamingAssistant assistant = assistant(mnemo, false);

        Received received = new Received().from(mnemo.visibleTokens(assistant.chat("ines", "How do I deploy?"), "ines"));

        assertThat(received.response().aiMessage().text()).isEqualTo(VISIBLE);
        assertThat(received.shown()).isEqualTo(VISIBLE);
        assertThat(received.partials).hasSizeGreaterThan(5).noneMatch(p -> p.contains("<") || p.contains(">"));
        assertThat(memory.usageCount(MemoryHome.PAST_THREAD)).isEqualTo(1);
        assertThat(server.requests()).hasSize(2)
                .allSatisfy(r -> assertThat(r.systemText()).contains("You stream.", "MEMORY_SUMMARY BEGINS"));
        assertThat(memory.rollout("ines")).anyMatch(l -> l.contains("\"text\":\"How do I deploy?\""))
                .anyMatch(l -> l.contains("\"function_call_output\"") && l.contains("call_s1"))
                .anyMatch(l -> l.contains("\"text\":\"" + VISIBLE + "\"")).noneMatch(l -> l.contains("oai-mem-citation"));
    }

    @Test
    void guardrailOnAStream_langChain4jStillReplaysTheRawTokens_visibleTokensFiltersThem() throws Exception {
        server.enqueue(citedAnswerInPiecesOf(5));
        server.enqueue(citedAnswerInPiecesOf(4));
        MnemoLangChain4j mnemo = MnemoLangChain4j.create(memory.engine);
        StreamingAssistant assistant = assistant(mnemo, true);

        Received raw = new Received().from(assistant.chat("jo", "first"));
        ChatResponse rawResponse = raw.response();

        // LangChain4j's behaviour: the guardrail rewrote the final answer, the partials are the model's raw tokens.
        assertThat(rawResponse.aiMessage().text()).isEqualTo(VISIBLE);
        assertThat(raw.shown()).isEqualTo(MemoryHome.citing(VISIBLE));
        assertThat(memory.usageCount(MemoryHome.PAST_THREAD)).isEqualTo(1);

        Received visible = new Received().from(mnemo.visibleTokens(assistant.chat("jo", "second"), "jo"));

        assertThat(visible.response().aiMessage().text()).isEqualTo(VISIBLE);
        assertThat(visible.shown()).isEqualTo(VISIBLE);
        assertThat(memory.usageCount(MemoryHome.PAST_THREAD)).as("counted once per answer").isEqualTo(2);
        assertThat(memory.rollout("jo")).filteredOn(l -> l.contains("\"text\":\"" + VISIBLE + "\"")).hasSize(2);
    }

    @Test
    void failedStream_reachesTheErrorHandler_andTheConversationStreamsAgain() throws Exception {
        server.enqueue(WireReply.failure(500, "{\"error\":{\"message\":\"boom\",\"type\":\"server_error\"}}"));
        server.enqueue(citedAnswerInPiecesOf(6));
        MnemoLangChain4j mnemo = MnemoLangChain4j.create(memory.engine);
        StreamingAssistant assistant = assistant(mnemo, false);

        Received failed = new Received().from(mnemo.visibleTokens(assistant.chat("kim", "first"), "kim"));
        assertThat(failed.done).failsWithin(30, TimeUnit.SECONDS);

        Received next = new Received().from(mnemo.visibleTokens(assistant.chat("kim", "second"), "kim"));
        assertThat(next.response().aiMessage().text()).isEqualTo(VISIBLE);
        assertThat(next.shown()).isEqualTo(VISIBLE);
        assertThat(memory.usageCount(MemoryHome.PAST_THREAD)).isEqualTo(1);
    }
}
