package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.Result;
import dev.langchain4j.service.TokenStream;
import dev.langchain4j.service.UserMessage;
import dev.mnemo.CitationEntry;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.testkit.LoggedReceipts;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The receipt of a turn through LangChain4j: real {@code AiServices} on {@code OpenAiChatModel} and
 * {@code OpenAiStreamingChatModel} talking HTTP to an in-process server, Mnemo over a real SQLite
 * store and git workspace whose memory names a past conversation. The application gets the receipt
 * the session returned, on the answer's message and from {@link MnemoLangChain4j#lastReceipt}.
 */
class ReceiptTest {

    static final String VISIBLE = "Deploy with make ship.";

    interface ResultAssistant {
        Result<String> chat(@MemoryId String conversation, @UserMessage String text);
    }

    interface TextAssistant {
        String chat(@MemoryId String conversation, @UserMessage String text);
    }

    interface AiMessageAssistant {
        AiMessage chat(@MemoryId String conversation, @UserMessage String text);
    }

    interface StreamingAssistant {
        TokenStream chat(@MemoryId String conversation, @UserMessage String text);
    }

    @TempDir
    Path home;

    private MemoryHome memory;
    private OpenAiWireServer server;
    private MnemoLangChain4j mnemo;

    @BeforeEach
    void setUp() {
        memory = MemoryHome.consolidatedWithThreadLogs(home);
        server = OpenAiWireServer.start();
        mnemo = MnemoLangChain4j.create(memory.engine);
    }

    @AfterEach
    void tearDown() {
        server.close();
        memory.close();
    }

    private <T> T configured(Class<T> type) {
        return mnemo.configure(AiServices.builder(type).chatModel(OpenAiChatModel.builder()
                .baseUrl(server.baseUrl().toString()).apiKey("k").modelName("assistant-model").maxRetries(0).build())
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20))).build();
    }

    /** The receipt names the memory file and the past conversation the answer cited. */
    static void citesThePastDeploy(MemoryReceipt receipt) {
        assertThat(receipt.cited()).isTrue();
        assertThat(receipt.citations()).singleElement().satisfies(citation -> {
            assertThat(citation.rolloutIds()).containsExactly(MemoryHome.PAST_THREAD);
            assertThat(citation.entries()).extracting(CitationEntry::path, CitationEntry::lineStart,
                    CitationEntry::lineEnd).containsExactly(tuple("MEMORY.md", 1, 3));
        });
    }

    /** The receipt is the one the session logged last in the conversation's thread log, and it was given the summary. */
    private void isTheLoggedReceiptOf(MemoryReceipt receipt, String conversation) {
        assertThat(receipt.threadId()).isEqualTo(conversation);
        assertThat(LoggedReceipts.of(memory.engine, conversation)).last().isEqualTo(receipt);
        assertThat(receipt.injected()).anySatisfy(file -> {
            assertThat(file.path()).isEqualTo("memory_summary.md");
            assertThat(file.kind()).isEqualTo("summary");
            assertThat(file.sha256()).hasSize(64);
        });
    }

    @Test
    void resultAnswer_carriesTheSessionsReceiptOnItsFinalResponse_andLastReceiptIsTheSame() {
        server.enqueue(WireReply.text(MemoryHome.citing(VISIBLE)));

        Result<String> result = configured(ResultAssistant.class).chat("r-result", "How do I deploy?");

        assertThat(result.content()).isEqualTo(VISIBLE);
        MemoryReceipt receipt = MnemoLangChain4j.receipt(result).orElseThrow();
        citesThePastDeploy(receipt);
        assertThat(result.finalResponse().aiMessage().attributes()).containsEntry(MnemoLangChain4j.RECEIPT, receipt);
        assertThat(mnemo.lastReceipt("r-result")).containsSame(receipt);
        assertThat(memory.usageCount(MemoryHome.PAST_THREAD)).isEqualTo(1);
        isTheLoggedReceiptOf(receipt, "r-result");
        assertThat(receipt.read()).isFalse();
    }

    @Test
    void resultAnswer_afterTheModelReadAMemoryFile_hasTheReadOnItsReceipt() {
        server.enqueue(WireReply.toolCall("call_r1", "memories_read", "{\"path\":\"MEMORY.md\"}"));
        server.enqueue(WireReply.text(MemoryHome.citing(VISIBLE)));

        Result<String> result = configured(ResultAssistant.class).chat("r-read", "Check the handbook: how do I deploy?");

        MemoryReceipt receipt = MnemoLangChain4j.receipt(result).orElseThrow();
        assertThat(receipt.reads()).singleElement().satisfies(read -> {
            assertThat(read.tool()).isEqualTo("memories_read");
            assertThat(read.target()).isEqualTo("MEMORY.md");
            assertThat(read.bytesReturned()).isPositive();
            assertThat(read.failed()).isFalse();
        });
        citesThePastDeploy(receipt);
        isTheLoggedReceiptOf(receipt, "r-read");
    }

    @Test
    void textAnswer_hasNoMessageToCarryIt_soLastReceiptGivesIt_andOnlyForThatConversation() {
        server.enqueue(WireReply.text(MemoryHome.citing(VISIBLE)));
        server.enqueue(WireReply.text("Nothing to cite."));
        TextAssistant assistant = configured(TextAssistant.class);

        assertThat(assistant.chat("r-text", "How do I deploy?")).isEqualTo(VISIBLE);
        citesThePastDeploy(mnemo.lastReceipt("r-text").orElseThrow());
        isTheLoggedReceiptOf(mnemo.lastReceipt("r-text").orElseThrow(), "r-text");
        assertThat(mnemo.lastReceipt("r-other")).isEmpty();

        assistant.chat("r-text", "Anything else?");
        assertThat(mnemo.lastReceipt("r-text")).hasValueSatisfying(r -> assertThat(r.cited()).isFalse());
    }

    @Test
    void aiMessageAnswer_carriesTheReceiptInItsAttributes() {
        server.enqueue(WireReply.text(MemoryHome.citing(VISIBLE)));

        AiMessage answer = configured(AiMessageAssistant.class).chat("r-message", "How do I deploy?");

        assertThat(answer.text()).isEqualTo(VISIBLE);
        assertThat(MnemoLangChain4j.receipt(answer)).containsSame(mnemo.lastReceipt("r-message").orElseThrow());
        citesThePastDeploy(MnemoLangChain4j.receipt(answer).orElseThrow());
    }

    @Test
    void tokenStream_completesWithTheReceiptOnItsResponse_theSameAsLastReceipt() throws Exception {
        String raw = MemoryHome.citing(VISIBLE);
        server.enqueue(WireReply.text(raw, raw.substring(0, 7), raw.substring(7, 40), raw.substring(40)));
        StreamingAssistant assistant = mnemo.configure(AiServices.builder(StreamingAssistant.class)
                .streamingChatModel(OpenAiStreamingChatModel.builder().baseUrl(server.baseUrl().toString())
                        .apiKey("k").modelName("assistant-model").build())
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20))).build();
        CompletableFuture<ChatResponse> done = new CompletableFuture<>();

        assistant.chat("r-stream", "Stream the deploy steps").onPartialResponse(text -> {})
                .onCompleteResponse(done::complete).onError(done::completeExceptionally).start();

        ChatResponse response = done.get(30, TimeUnit.SECONDS);
        assertThat(response.aiMessage().text()).isEqualTo(VISIBLE);
        MemoryReceipt receipt = MnemoLangChain4j.receipt(response).orElseThrow();
        citesThePastDeploy(receipt);
        assertThat(mnemo.lastReceipt("r-stream")).containsSame(receipt);
        isTheLoggedReceiptOf(receipt, "r-stream");
    }

    @Test
    void hooksSetOneByOne_withoutConfigure_stillKeepTheReceiptForLastReceipt() {
        server.enqueue(WireReply.text(MemoryHome.citing(VISIBLE)));
        TextAssistant assistant = AiServices.builder(TextAssistant.class).chatModel(OpenAiChatModel.builder()
                        .baseUrl(server.baseUrl().toString()).apiKey("k").modelName("assistant-model").maxRetries(0)
                        .build())
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20))
                .chatRequestTransformer(mnemo.requestTransformer()).toolProvider(mnemo.toolProvider())
                .registerListeners(mnemo.listeners()).outputGuardrails(List.of(mnemo.citationGuardrail())).build();

        assertThat(assistant.chat("r-hooks", "How do I deploy?")).isEqualTo(VISIBLE);

        citesThePastDeploy(mnemo.lastReceipt("r-hooks").orElseThrow());
        isTheLoggedReceiptOf(mnemo.lastReceipt("r-hooks").orElseThrow(), "r-hooks");
    }

    @Test
    void endingAConversation_forgetsItsReceipt() {
        server.enqueue(WireReply.text(MemoryHome.citing(VISIBLE)));
        configured(TextAssistant.class).chat("r-end", "How do I deploy?");
        assertThat(mnemo.lastReceipt("r-end")).isPresent();

        mnemo.endConversation("r-end");

        assertThat(mnemo.lastReceipt("r-end")).isEmpty();
    }

    @Test
    void receiptAccessors_onAnswersMnemoDidNotMark_areEmpty() {
        assertThat(MnemoLangChain4j.receipt(AiMessage.from("plain"))).isEmpty();
        assertThat(MnemoLangChain4j.receipt(ChatResponse.builder().aiMessage(AiMessage.from("plain")).build())).isEmpty();
        assertThat(MnemoLangChain4j.receipt(Result.builder().content("plain").build())).isEmpty();
    }
}
