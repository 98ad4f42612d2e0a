package dev.mnemo.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.CitationEntry;
import dev.mnemo.MemoryCitation;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.testkit.ChatScript;
import dev.mnemo.testkit.LoggedReceipts;
import dev.mnemo.testkit.WireReply;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientMessageAggregator;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.memory.ChatMemory;

/**
 * The receipt of a turn through {@link MnemoAdvisor}: Spring AI's OpenAI starter talking HTTP to the
 * in-process wire server, the engine on a real SQLite store and git workspace. The advisor hands the
 * application the receipt the session returned, on a call's response and on a stream's last chunk.
 */
@ExtendWith(SharedChatApp.Resolver.class)
class ReceiptAdvisorTest {

    static final String VISIBLE = "Run ./gradlew build.";

    static ChatScript script;
    static ChatClient chat;
    static MemoryEngine engine;

    @BeforeAll
    static void start(SharedChatApp shared) {
        script = shared.script;
        chat = shared.chat();
        engine = shared.engine();
    }

    static ChatClient.ChatClientRequestSpec ask(String conversation, String question) {
        return chat.prompt().user(question).advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversation));
    }

    /** The receipt names the memory file and the conversation the answer cited. */
    static void citesTheBuildNote(MemoryReceipt receipt) {
        assertThat(receipt.cited()).isTrue();
        assertThat(receipt.citations()).singleElement().satisfies(citation -> {
            assertThat(citation.rolloutIds()).containsExactly("c-earlier");
            assertThat(citation.entries()).extracting(CitationEntry::path, CitationEntry::lineStart,
                    CitationEntry::lineEnd).containsExactly(org.assertj.core.groups.Tuple.tuple("MEMORY.md", 1, 2));
        });
    }

    /** The receipt is the one the session logged last in the conversation's thread log, and it was given the summary. */
    static void isTheLoggedReceiptOf(MemoryReceipt receipt, String conversation) {
        assertThat(receipt.threadId()).isEqualTo(conversation);
        assertThat(LoggedReceipts.of(engine, conversation)).last().isEqualTo(receipt);
        assertThat(receipt.injected()).anySatisfy(file -> {
            assertThat(file.path()).isEqualTo("memory_summary.md");
            assertThat(file.kind()).isEqualTo("summary");
            assertThat(file.bytes()).isEqualTo(SharedChatApp.SUMMARY.getBytes(java.nio.charset.StandardCharsets.UTF_8)
                    .length);
        });
    }

    @Test
    void call_putsTheSessionsReceiptInTheResponseContext_namingTheCitedMemory() {
        script.enqueue(WireReply.text(MnemoAdvisorTest.cited(VISIBLE, "c-earlier")));

        ChatClientResponse response = ask("r-call", "How do I build?").call().chatClientResponse();

        MemoryReceipt receipt = MnemoAdvisor.receipt(response).orElseThrow();
        assertThat(response.context().get(MnemoAdvisor.RECEIPT)).isSameAs(receipt);
        citesTheBuildNote(receipt);
        isTheLoggedReceiptOf(receipt, "r-call");
        assertThat(receipt.read()).isFalse();
        assertThat(receipt.citations().get(0).rolloutIds())
                .isEqualTo(((MemoryCitation) response.context().get(MnemoAdvisor.CITATION)).rolloutIds());
    }

    @Test
    void call_whoseModelReadAMemoryFile_hasTheReadOnItsReceipt() {
        script.enqueue(WireReply.toolCall("call_r1", "memories_read", "{\"path\":\"memory_summary.md\"}"));
        script.enqueue(WireReply.text(VISIBLE));

        ChatClientResponse response = ask("r-read", "Read your memory: how do I build?").call().chatClientResponse();

        MemoryReceipt receipt = MnemoAdvisor.receipt(response).orElseThrow();
        assertThat(receipt.reads()).singleElement().satisfies(read -> {
            assertThat(read.tool()).isEqualTo("memories_read");
            assertThat(read.target()).isEqualTo("memory_summary.md");
            assertThat(read.bytesReturned()).isPositive();
            assertThat(read.failed()).isFalse();
        });
        isTheLoggedReceiptOf(receipt, "r-read");
    }

    @Test
    void call_withoutACitation_stillCarriesAReceipt_thatCitesNothing() {
        script.enqueue(WireReply.text("Thursday."));

        ChatClientResponse response = ask("r-plain", "When do we deploy?").call().chatClientResponse();

        assertThat(MnemoAdvisor.receipt(response)).hasValueSatisfying(receipt -> assertThat(receipt.cited()).isFalse());
        assertThat(response.context()).doesNotContainKey(MnemoAdvisor.CITATION);
    }

    @Test
    void stream_putsTheReceiptOnTheLastChunkOnly_andSpringAisAggregatedResponseCarriesIt() {
        String raw = MnemoAdvisorTest.cited(VISIBLE, "c-earlier");
        script.enqueue(WireReply.text(raw, raw.substring(0, 9), raw.substring(9, 50), raw.substring(50)));
        AtomicReference<ChatClientResponse> aggregated = new AtomicReference<>();

        List<ChatClientResponse> chunks = new ChatClientMessageAggregator()
                .aggregateChatClientResponse(ask("r-stream", "Stream it").stream().chatClientResponse(), aggregated::set)
                .collectList().block();

        MemoryReceipt receipt = MnemoAdvisor.receipt(chunks.get(chunks.size() - 1)).orElseThrow();
        citesTheBuildNote(receipt);
        isTheLoggedReceiptOf(receipt, "r-stream");
        assertThat(MnemoAdvisor.receipt(aggregated.get())).containsSame(receipt);
        assertThat(aggregated.get().chatResponse().getResult().getOutput().getText()).isEqualTo(VISIBLE);
    }

    @Test
    void stream_withoutACitation_endsWithAChunkCarryingTheReceipt() {
        script.enqueue(WireReply.text("Thursday.", "Thurs", "day."));

        List<ChatClientResponse> chunks = ask("r-stream-plain", "When do we deploy?").stream().chatClientResponse()
                .collectList().block();

        assertThat(chunks).filteredOn(chunk -> MnemoAdvisor.receipt(chunk).isPresent()).singleElement()
                .isSameAs(chunks.get(chunks.size() - 1));
        MemoryReceipt receipt = MnemoAdvisor.receipt(chunks.get(chunks.size() - 1)).orElseThrow();
        assertThat(receipt.cited()).isFalse();
        isTheLoggedReceiptOf(receipt, "r-stream-plain");
    }

    @Test
    void withoutAConversation_noTurnIsRecorded_soNoReceiptIsGiven() {
        script.enqueue(WireReply.text(MnemoAdvisorTest.cited(VISIBLE, "c-earlier")));
        script.enqueue(WireReply.text("Thursday.", "Thurs", "day."));

        ChatClientResponse called = chat.prompt().user("Anonymous").call().chatClientResponse();
        List<ChatClientResponse> streamed = chat.prompt().user("Anonymous stream").stream().chatClientResponse()
                .collectList().block();

        assertThat(MnemoAdvisor.receipt(called)).isEmpty();
        assertThat(called.context()).containsKey(MnemoAdvisor.CITATION);
        assertThat(streamed).allSatisfy(chunk -> assertThat(MnemoAdvisor.receipt(chunk)).isEmpty());
    }

    @Test
    void receipt_ofAResponseWithoutOne_isEmpty() {
        assertThat(MnemoAdvisor.receipt(ChatClientResponse.builder().build())).isEmpty();
        assertThat(MnemoAdvisor.receipt(ChatClientResponse.builder().context(MnemoAdvisor.RECEIPT, "not a receipt")
                .build())).isEmpty();
    }
}
