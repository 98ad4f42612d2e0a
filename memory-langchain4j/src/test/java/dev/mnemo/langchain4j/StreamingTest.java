package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.TokenStream;
import dev.langchain4j.service.UserMessage;
import dev.mnemo.ConversationBusyException;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Streamed answers: {@code OpenAiStreamingChatModel} over server-sent events from an in-process server. */
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

        Received withContextFrom(TokenStream stream) {
            stream.onPartialResponseWithContext((partial, context) -> partials.add(partial.text()))
                    .onCompleteResponse(done::complete).onError(done::completeExceptionally).start();
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

    private AiServices<StreamingAssistant> services(URI baseUrl) {
        return AiServices.builder(StreamingAssistant.class)
                .streamingChatModel(OpenAiStreamingChatModel.builder().baseUrl(baseUrl.toString())
                        .apiKey("test-key").modelName("assistant-model").build())
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(50));
    }

    /** Built by {@code configure}: the way the docs show. */
    private StreamingAssistant configured(MnemoLangChain4j mnemo) {
        return mnemo.configure(services(server.baseUrl())).build();
    }

    /** The hooks set one by one, without the service proxy; {@code withGuardrail} adds the citation guardrail. */
    private StreamingAssistant byHand(MnemoLangChain4j mnemo, URI baseUrl, boolean withGuardrail) {
        AiServices<StreamingAssistant> services = services(baseUrl).chatRequestTransformer(mnemo.requestTransformer())
                .toolProvider(mnemo.toolProvider()).registerListeners(mnemo.listeners());
        if (withGuardrail) {
            services.outputGuardrails(List.of(mnemo.citationGuardrail()));
        }
        return services.build();
    }

    /** The cited answer cut into pieces of {@code size} characters: the markup is split everywhere. */
    private static WireReply citedAnswerInPiecesOf(int size) {
        return inPiecesOf(MemoryHome.citing(VISIBLE), size);
    }

    private static WireReply inPiecesOf(String raw, int size) {
        List<String> pieces = new ArrayList<>();
        for (int i = 0; i < raw.length(); i += size) {
            pieces.add(raw.substring(i, Math.min(raw.length(), i + size)));
        }
        return WireReply.text(raw, pieces.toArray(String[]::new));
    }

    @Test
    void plainTokenStreamFromConfigure_showsNoCitationMarkupSplitAnywhere_andCountsItOnce() throws Exception {
        server.enqueue(WireReply.toolCall("call_s1", "memories_search", "{\"queries\":[\"deploy\"]}"));
        server.enqueue(citedAnswerInPiecesOf(3));
        StreamingAssistant assistant = configured(MnemoLangChain4j.create(memory.engine));

        Received received = new Received().from(assistant.chat("ines", "How do I deploy?"));

        assertThat(received.response().aiMessage().text()).isEqualTo(VISIBLE);
        assertThat(received.shown()).isEqualTo(VISIBLE);
        assertThat(received.partials).as("streamed as it arrives, not held back for a guardrail").hasSizeGreaterThan(5)
                .noneMatch(p -> p.contains("<") || p.contains(">"));
        assertThat(memory.usageCount(MemoryHome.PAST_THREAD)).isEqualTo(1);
        assertThat(server.requests()).hasSize(2)
                .allSatisfy(r -> assertThat(r.systemText()).contains("You stream.", "MEMORY_SUMMARY BEGINS"));
        assertThat(memory.rollout("ines")).anyMatch(l -> l.contains("\"function_call_output\"") && l.contains("call_s1"))
                .noneMatch(l -> l.contains("oai-mem-citation"));
        assertThat(memory.messages("ines")).containsExactly("user: How do I deploy?", "assistant: " + VISIBLE);
    }

    @Test
    void guardrailOnAStream_langChain4jStillReplaysTheRawTokens_visibleTokensFiltersThem() throws Exception {
        server.enqueue(citedAnswerInPiecesOf(5));
        server.enqueue(citedAnswerInPiecesOf(4));
        MnemoLangChain4j mnemo = MnemoLangChain4j.create(memory.engine);
        StreamingAssistant assistant = byHand(mnemo, server.baseUrl(), true);

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
        assertThat(memory.messages("jo")).containsExactly("user: first", "assistant: " + VISIBLE, "user: second",
                "assistant: " + VISIBLE);
    }

    @Test
    void textHeldBackAtTheEnd_reachesOnPartialResponse_beforeTheStreamCompletes() throws Exception {
        String answer = "Compare the versions: 1.11 <";
        server.enqueue(WireReply.text(answer, "Compare the versions: ", "1.11 <"));
        server.enqueue(WireReply.text(answer + "oai-mem", "Compare the versions: ", "1.11 <oai", "-mem"));
        server.enqueue(WireReply.text(answer, "Compare the versions: ", "1.11 <"));
        MnemoLangChain4j mnemo = MnemoLangChain4j.create(memory.engine);
        StreamingAssistant byHand = byHand(mnemo, server.baseUrl(), false);

        Received first = new Received().from(mnemo.visibleTokens(byHand.chat("lou", "one"), "lou"));
        assertThat(first.response().aiMessage().text()).isEqualTo(answer);
        assertThat(first.shown()).isEqualTo(answer);

        Received second = new Received().withContextFrom(configured(mnemo).chat("lou", "two"));
        assertThat(second.response().aiMessage().text()).isEqualTo(answer + "oai-mem");
        assertThat(second.shown()).as("a cut opener that never became a citation is text").isEqualTo(answer + "oai-mem");

        Received third = new Received().from(configured(mnemo).chat("lou", "three"));
        assertThat(third.response().aiMessage().text()).isEqualTo(answer);
        assertThat(third.shown()).isEqualTo(answer);
        assertThat(memory.messages("lou")).containsExactly("user: one", "assistant: " + answer, "user: two",
                "assistant: " + answer + "oai-mem", "user: three", "assistant: " + answer);
    }

    @Test
    void failedStream_isRecordedAsShownAtOnce_beforeTheConversationsNextExchange() throws Exception {
        try (BrokenStreamServer broken = BrokenStreamServer.start(List.of("Deploy with ", "make ship <"), VISIBLE)) {
            MnemoLangChain4j mnemo = MnemoLangChain4j.create(memory.engine);
            StreamingAssistant configured = configured(mnemo, broken.baseUrl());

            Received failed = new Received().from(configured.chat("kim", "first"));
            assertThat(failed.done).failsWithin(30, TimeUnit.SECONDS);
            assertThat(failed.shown()).isEqualTo("Deploy with make ship ");
            assertThat(memory.messages("kim")).as("recorded when it failed, not when the engine closes")
                    .containsExactly("user: first", "assistant: Deploy with make ship ");

            Received next = new Received().from(configured.chat("kim", "second"));
            assertThat(next.response().aiMessage().text()).isEqualTo(VISIBLE);
            assertThat(memory.messages("kim")).containsExactly("user: first", "assistant: Deploy with make ship ",
                    "user: second", "assistant: " + VISIBLE);
            assertThat(memory.usageCount(MemoryHome.PAST_THREAD)).isZero();
        }
    }

    @Test
    void failedStreamByHand_isRecordedAtOnceToo() throws Exception {
        try (BrokenStreamServer broken = BrokenStreamServer.start(List.of("Deploy with "), VISIBLE)) {
            MnemoLangChain4j mnemo = MnemoLangChain4j.create(memory.engine);
            StreamingAssistant byHand = byHand(mnemo, broken.baseUrl(), false);

            Received failed = new Received().from(mnemo.visibleTokens(byHand.chat("kit", "first"), "kit"));
            assertThat(failed.done).failsWithin(30, TimeUnit.SECONDS);
            Received next = new Received().from(mnemo.visibleTokens(byHand.chat("kit", "second"), "kit"));

            assertThat(next.response().aiMessage().text()).isEqualTo(VISIBLE);
            assertThat(memory.messages("kit")).containsExactly("user: first", "assistant: Deploy with ", "user: second",
                    "assistant: " + VISIBLE);
        }
    }

    @Test
    void secondStreamOnABusyConversation_isRefusedBeforeAnythingOfItIsRecorded() throws Exception {
        CountDownLatch firstArrived = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        server.close();
        server = OpenAiWireServer.start(request -> {
            firstArrived.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return inPiecesOf("answer to " + request.lastUserText(), 4);
        });
        StreamingAssistant assistant = configured(MnemoLangChain4j.create(memory.engine));

        Received first = new Received().from(assistant.chat("max", "first"));
        assertThat(firstArrived.await(30, TimeUnit.SECONDS)).isTrue();

        assertThatThrownBy(() -> assistant.chat("max", "second")).isInstanceOf(ConversationBusyException.class)
                .hasMessageContaining("'max'");
        release.countDown();

        assertThat(first.response().aiMessage().text()).isEqualTo("answer to first");
        assertThat(memory.messages("max")).containsExactly("user: first", "assistant: answer to first");
        assertThat(server.requests()).hasSize(1);
        Received again = new Received().from(assistant.chat("max", "third"));
        assertThat(again.response().aiMessage().text()).isEqualTo("answer to third");
    }

    @Test
    void secondVisibleStreamByHand_onABusyConversation_isRefusedAtStart_andRecordsNothing() throws Exception {
        CountDownLatch firstArrived = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        server.close();
        server = OpenAiWireServer.start(request -> {
            firstArrived.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return inPiecesOf("answer to " + request.lastUserText(), 4);
        });
        MnemoLangChain4j mnemo = MnemoLangChain4j.create(memory.engine);
        StreamingAssistant listenedOnly = services(server.baseUrl()).registerListeners(mnemo.listeners()).build();

        Received first = new Received().from(mnemo.visibleTokens(listenedOnly.chat("nia", "first"), "nia"));
        assertThat(firstArrived.await(30, TimeUnit.SECONDS)).isTrue();
        TokenStream second = mnemo.visibleTokens(listenedOnly.chat("nia", "second"), "nia");

        assertThatThrownBy(() -> new Received().from(second)).isInstanceOf(ConversationBusyException.class);
        release.countDown();
        assertThat(first.response().aiMessage().text()).isEqualTo("answer to first");
        assertThat(memory.messages("nia")).containsExactly("user: first", "assistant: answer to first");
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void streamDroppedWithoutStart_releasesItsConversation_whenCollected() {
        server.enqueue(WireReply.text("late"));
        StreamingAssistant assistant = configured(MnemoLangChain4j.create(memory.engine));
        assistant.chat("ned", "never started"); // the TokenStream is dropped at once

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        TokenStream next = null;
        while (next == null && System.nanoTime() < deadline) {
            try {
                next = assistant.chat("ned", "next");
            } catch (ConversationBusyException busy) {
                System.gc(); // waits for the collector to find the dropped stream, not for time to pass
            }
        }
        assertThat(next).as("the claim of the dropped stream was released").isNotNull();
    }

    private StreamingAssistant configured(MnemoLangChain4j mnemo, URI baseUrl) {
        return mnemo.configure(services(baseUrl)).build();
    }
}
