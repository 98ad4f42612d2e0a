package dev.mnemo.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryCitation;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryMode;
import dev.mnemo.testkit.ChatScript;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@link MnemoAdvisor} in a real Spring Boot application: Spring AI's OpenAI starter talks HTTP to
 * an in-process Chat Completions server; the engine keeps a real SQLite store and git workspace in
 * a temporary home. One application context for all tests ({@link SharedChatApp}); each test uses
 * its own conversation.
 */
@ExtendWith(SharedChatApp.Resolver.class)
class MnemoAdvisorTest {

    static final String VISIBLE = "Run ./gradlew build.";

    static SharedChatApp shared;
    static ChatScript script;
    static OpenAiWireServer server;
    static ConfigurableApplicationContext context;
    static ChatClient chat;
    static MemoryEngine engine;
    static ChatApp app;

    @BeforeAll
    static void start(SharedChatApp fixture) {
        shared = fixture;
        script = shared.script;
        server = shared.server;
        context = shared.context;
        chat = shared.chat();
        engine = shared.engine();
        app = shared.app();
    }

    static String cited(String visible, String threadId) {
        return visible + "<oai-mem-citation>\n<citation_entries>\nMEMORY.md:1-2|note=[build command]\n"
                + "</citation_entries>\n<rollout_ids>\n" + threadId + "\n</rollout_ids>\n</oai-mem-citation>";
    }

    static String ask(String conversation, String question) {
        return chat.prompt().user(question).advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversation))
                .call().content();
    }

    static List<String> rollout(String conversation) throws IOException {
        Path path = engine.threads().get(conversation).orElseThrow().rolloutPath();
        return Files.readAllLines(path);
    }

    WireRequest lastChatRequest() {
        return shared.lastChatRequest();
    }

    @Test
    void call_appendsTheMemorySummaryAfterTheAppsSystemText_andOffersTheMemoryTools() {
        script.enqueue(WireReply.text(VISIBLE));

        String answer = ask("c-summary", "How do I build?");

        assertThat(answer).isEqualTo(VISIBLE);
        WireRequest request = lastChatRequest();
        assertThat(request.roles()).startsWith("system");
        assertThat(request.systemText()).startsWith("You are a terse build assistant.\n\n")
                .contains("MEMORY_SUMMARY BEGINS").contains("deploys go out on Thursdays");
        assertThat(request.toolNames()).contains("memories_list", "memories_read", "memories_search",
                "memories_add_ad_hoc_note");
    }

    @Test
    void call_runsAMemoryToolCallThroughSpringAisToolLoop_andRecordsCallAndOutput() throws IOException {
        script.enqueue(WireReply.toolCall("call_1", "memories_search", "{\"queries\":[\"gradlew\"]}"));
        script.enqueue(WireReply.text(VISIBLE));

        String answer = ask("c-tools", "Search your memory: how do I build?");

        assertThat(answer).isEqualTo(VISIBLE);
        WireRequest second = lastChatRequest();
        assertThat(second.toolOutputs()).singleElement().asString().contains("memory_summary.md");
        List<String> lines = rollout("c-tools");
        assertThat(lines).anyMatch(l -> l.contains("\"function_call\"") && l.contains("memories_search"));
        assertThat(lines).anyMatch(l -> l.contains("\"function_call_output\"") && l.contains("memory_summary.md"));
        assertThat(lines).anyMatch(l -> l.contains("Search your memory: how do I build?"));
        assertThat(lines).anyMatch(l -> l.contains(VISIBLE));
    }

    @Test
    void call_stripsTheCitation_recordsTheVisibleText_andPutsTheCitationInTheResponseContext() throws IOException {
        script.enqueue(WireReply.text(cited(VISIBLE, "c-earlier")));

        ChatClientResponse response = chat.prompt().user("How do I build?")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c-cite")).call().chatClientResponse();

        assertThat(response.chatResponse().getResult().getOutput().getText()).isEqualTo(VISIBLE);
        assertThat(response.context().get(MnemoAdvisor.CITATION)).isInstanceOfSatisfying(MemoryCitation.class,
                c -> assertThat(c.rolloutIds()).containsExactly("c-earlier"));
        assertThat(rollout("c-cite")).noneMatch(l -> l.contains("oai-mem-citation")).anyMatch(l -> l.contains(VISIBLE));
        assertThat(app.cited).contains("c-cite:[c-earlier]:0");
    }

    /** A short cited answer, so that every split of it stays a modest number of requests. */
    static final String SHORT_RAW = "Run it.<oai-mem-citation><rollout_ids>\nc-e\n</rollout_ids></oai-mem-citation>";

    /** Every split of a cited answer into two chunks, and one chunk per character. */
    static Stream<List<String>> chunkings() {
        Stream<List<String>> splits = IntStream.range(1, SHORT_RAW.length())
                .mapToObj(i -> List.of(SHORT_RAW.substring(0, i), SHORT_RAW.substring(i)));
        return Stream.concat(splits, Stream.of(SHORT_RAW.chars().mapToObj(c -> String.valueOf((char) c)).toList()));
    }

    @ParameterizedTest(name = "chunks {index}")
    @MethodSource("chunkings")
    void stream_neverShowsCitationMarkup_whereverTheChunksSplitIt(List<String> chunks) {
        script.enqueue(WireReply.text(SHORT_RAW, chunks.toArray(String[]::new)));

        List<String> shown = chat.prompt().user("How do I run it?")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c-stream")).stream().content()
                .collectList().block();

        assertThat(String.join("", shown)).isEqualTo("Run it.");
        assertThat(shown).noneMatch(s -> s.contains("<") || s.contains("rollout_ids") || s.contains("c-e"));
    }

    @Test
    void stream_putsTheCitationInTheLastChunksContext_andRecordsTheVisibleAnswer() throws IOException {
        String raw = cited(VISIBLE, "c-earlier");
        script.enqueue(WireReply.text(raw, raw.substring(0, 10), raw.substring(10, 40), raw.substring(40)));

        List<ChatClientResponse> chunks = chat.prompt().user("Stream it")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c-stream-ctx")).stream().chatClientResponse()
                .collectList().block();

        assertThat(chunks.get(chunks.size() - 1).context().get(MnemoAdvisor.CITATION))
                .isInstanceOf(MemoryCitation.class);
        assertThat(rollout("c-stream-ctx")).anyMatch(l -> l.contains("Stream it"))
                .anyMatch(l -> l.contains("\"Run ./gradlew build.\"")).noneMatch(l -> l.contains("oai-mem"));
        assertThat(app.cited).contains("c-stream-ctx:[c-earlier]:0");
    }

    /**
     * The citation arrives in the third chunk, after the subscriber cancelled on the first: it was
     * never shown, so nothing is counted. (Chunks reach the advisor through Spring AI's own
     * {@code publishOn}, and the cancel runs inside the first chunk's delivery, so the later chunks
     * never reach the filter.)
     */
    @Test
    void stream_cancelledAfterTheFirstChunk_recordsWhatWasShown_andCountsNoCitationItNeverShowed() throws IOException {
        script.enqueue(WireReply.text(cited("Part one. Part two.", "c-earlier"), "Part one.", " Part two.",
                cited("", "c-earlier")));

        String first = chat.prompt().user("Cut me off")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c-cancel")).stream().content().blockFirst();

        assertThat(first).isEqualTo("Part one.");
        List<String> assistant = rollout("c-cancel").stream().filter(l -> l.contains("\"assistant\"")).toList();
        assertThat(assistant).singleElement().asString().contains("Part one.").doesNotContain("Part two.")
                .doesNotContain("oai-mem");
        assertThat(app.cited).noneMatch(c -> c.startsWith("c-cancel:"));
    }

    @Test
    void stream_theLastChunkCarriesTheModelsFinishReasonUsageAndModel_andOnlyItHasAFinishReason() {
        String raw = cited(VISIBLE, "c-earlier");
        script.enqueue(WireReply.text(raw, raw.substring(0, 12), raw.substring(12)));

        List<ChatResponse> chunks = chat.prompt().user("Stream with metadata")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c-stream-meta")).stream().chatResponse()
                .collectList().block();

        ChatResponse last = chunks.get(chunks.size() - 1);
        assertThat(last.getResult().getMetadata().getFinishReason()).isEqualToIgnoringCase("stop");
        assertThat(last.getMetadata().getUsage().getPromptTokens()).isEqualTo(10);
        assertThat(last.getMetadata().getUsage().getCompletionTokens()).isEqualTo(5);
        assertThat(last.getMetadata().getModel()).isEqualTo("gpt-test");
        assertThat(chunks).filteredOn(c -> c.getResult() != null && c.getResult().getMetadata().getFinishReason() != null
                && !c.getResult().getMetadata().getFinishReason().isBlank()).hasSize(1);
        assertThat(chunks.stream().map(c -> c.getResult() == null ? "" : String.valueOf(c.getResult().getOutput()
                .getText())).map(t -> t.equals("null") ? "" : t).reduce("", String::concat)).isEqualTo(VISIBLE);
    }

    @Test
    void withChatMemory_theAppsMemoryStoresTheVisibleAnswer_neverTheMemoryInstructions() {
        ChatMemory chatMemory = context.getBean(ChatMemory.class);
        ChatClient withHistory = context.getBean(ChatClient.Builder.class)
                .defaultAdvisors(MessageChatMemoryAdvisor.builder(chatMemory).build(),
                        context.getBean(MnemoAdvisor.class))
                .build();
        script.enqueue(WireReply.text(cited(VISIBLE, "c-earlier")));
        script.enqueue(WireReply.text("Thursday."));

        withHistory.prompt().user("How do I build?").advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c-history"))
                .call().content();
        withHistory.prompt().user("When do we deploy?")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c-history")).call().content();

        List<Message> stored = chatMemory.get("c-history");
        assertThat(stored).extracting(Message::getText)
                .containsExactly("How do I build?", VISIBLE, "When do we deploy?", "Thursday.");
        WireRequest second = lastChatRequest();
        assertThat(second.roles()).containsExactly("system", "user", "assistant", "user");
        assertThat(second.systemText()).contains("MEMORY_SUMMARY BEGINS");
    }

    @Test
    void withoutAConversationId_injectsAndStrips_butRecordsAndCountsNothing() throws IOException {
        script.enqueue(WireReply.text(cited(VISIBLE, "c-earlier")));
        script.enqueue(WireReply.text(cited(VISIBLE, "c-earlier"), VISIBLE, cited("", "c-earlier")));
        int citedBefore = app.cited.size();
        Map<Path, String> rolloutsBefore = rolloutFiles();
        Map<MemoryMode, Integer> threadsBefore = engine.admin().status().threadCounts();

        String answer = chat.prompt().user("Anonymous question").call().content();
        String streamed = String.join("", chat.prompt().user("Anonymous stream").stream().content().collectList()
                .block());

        assertThat(answer).isEqualTo(VISIBLE);
        assertThat(streamed).isEqualTo(VISIBLE);
        assertThat(lastChatRequest().systemText()).contains("MEMORY_SUMMARY BEGINS");
        assertThat(app.cited).hasSize(citedBefore);
        assertThat(rolloutFiles()).isEqualTo(rolloutsBefore);
        assertThat(engine.admin().status().threadCounts()).isEqualTo(threadsBefore);
    }

    /** Every rollout file of the home with its content. */
    static Map<Path, String> rolloutFiles() throws IOException {
        Map<Path, String> files = new TreeMap<>();
        if (!Files.isDirectory(shared.home.resolve("sessions"))) {
            return files;
        }
        try (Stream<Path> walk = Files.walk(shared.home.resolve("sessions"))) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                files.put(file, Files.readString(file));
            }
        }
        return files;
    }

    @Test
    void phase1_runsThroughTheSameChatModel_withTheStrictJsonSchema_andACitationOfItCounts() {
        script.enqueue(WireReply.text("Use ./gradlew build."));
        ask("c-phase1", "How do I build this project?");
        app.clock.advance(java.time.Duration.ofHours(7));

        engine.admin().runPhase1("c-other");

        WireRequest phase1 = server.requests().stream().filter(ChatScript::isPhase1).findFirst().orElseThrow();
        assertThat(phase1.json()).contains("\"strict\":true").contains("raw_memory");
        assertThat(phase1.model()).isEqualTo("gpt-test");
        script.enqueue(WireReply.text(cited(VISIBLE, "c-phase1")));
        assertThat(ask("c-after", "And again?")).isEqualTo(VISIBLE);
        assertThat(app.cited).contains("c-after:[c-phase1]:1");
    }

}
