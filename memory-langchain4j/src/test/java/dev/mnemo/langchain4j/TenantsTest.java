package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.TokenStream;
import dev.langchain4j.service.UserMessage;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.TenantHomes;
import dev.mnemo.testkit.LoggedReceipts;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MnemoLangChain4j#create(MemoryEngines, TenantResolver)}: one engine per tenant, the tenant
 * given by the application (here, as most servers do it, the signed-in user of the request
 * thread), never by the memory id's text.
 */
class TenantsTest {

    interface Assistant {
        String chat(@MemoryId Object conversation, @UserMessage String text);
    }

    interface StreamingAssistant {
        TokenStream chat(@MemoryId String conversation, @UserMessage String text);
    }

    /** An application's own memory-id type, built by the server from the signed-in user. */
    record ChatId(String user, String chat) {}

    /** The application's request scope: who is signed in on this thread. */
    private static final ThreadLocal<String> SIGNED_IN = new ThreadLocal<>();

    private static final TenantResolver SIGNED_IN_USER = memoryId -> SIGNED_IN.get();

    @TempDir
    Path root;

    private final OpenAiWireServer pipelineServer = OpenAiWireServer.start();
    private final OpenAiWireServer assistantServer = OpenAiWireServer.start(r -> WireReply.text("ok: " + r.lastUserText()));
    private MemoryEngines engines;

    @BeforeEach
    void setUp() {
        OpenAiChatModel pipelineModel = OpenAiChatModel.builder().baseUrl(pipelineServer.baseUrl().toString())
                .apiKey("k").modelName("m").maxRetries(0).build();
        engines = MemoryEngines.builder().engineFactory(TenantHomes.under(root, () -> MemoryEngine.builder()
                .model(MnemoLangChain4j.languageModel(pipelineModel)).closeTimeout(Duration.ofSeconds(2)))).build();
    }

    @AfterEach
    void tearDown() {
        SIGNED_IN.remove();
        engines.close();
        pipelineServer.close();
        assistantServer.close();
    }

    private Assistant assistant(MnemoLangChain4j mnemo) {
        return mnemo.configure(AiServices.builder(Assistant.class).chatModel(OpenAiChatModel.builder()
                .baseUrl(assistantServer.baseUrl().toString()).apiKey("k").modelName("m").maxRetries(0).build())
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20))).build();
    }

    /** Runs {@code call} as {@code user} would, on a request thread of its own. */
    private static <T> CompletableFuture<T> as(String user, Supplier<T> call) {
        return CompletableFuture.supplyAsync(() -> {
            SIGNED_IN.set(user);
            try {
                return call.get();
            } finally {
                SIGNED_IN.remove();
            }
        });
    }

    /** Opens the conversation, lets its startup task finish, then gives the tenant a summary. */
    private void summary(String tenant, String conversation, String text) throws Exception {
        try (MemoryEngines.Lease lease = engines.lease(tenant)) {
            lease.engine().conversation(conversation).startupTask().completion().get(30, TimeUnit.SECONDS);
        }
        Path file = TenantHomes.home(root, tenant).resolve("memories").resolve("memory_summary.md");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "v1\n\n" + text + "\n");
    }

    private List<String> rollout(String tenant, String conversation) throws IOException {
        try (MemoryEngines.Lease lease = engines.lease(tenant)) {
            return Files.readAllLines(lease.engine().threads().get(conversation).orElseThrow().rolloutPath());
        }
    }

    private WireRequest requestFor(String question) {
        return assistantServer.requests().stream().filter(r -> r.lastUserText().equals(question)).findFirst()
                .orElseThrow();
    }

    @Test
    void eachUsersCalls_getItsOwnSummary_andAreRecordedInItsOwnHome_evenAtOnce() throws Exception {
        summary("alice", "alice-1", "alice deploys with make ship");
        summary("bob", "bob-1", "bob deploys with gradle");
        Assistant assistant = assistant(MnemoLangChain4j.create(engines, SIGNED_IN_USER));

        CompletableFuture<String> alice = as("alice", () -> assistant.chat("alice-1", "alice asks"));
        CompletableFuture<String> bob = as("bob", () -> assistant.chat("bob-1", "bob asks"));

        assertThat(alice.get(30, TimeUnit.SECONDS)).isEqualTo("ok: alice asks");
        assertThat(bob.get(30, TimeUnit.SECONDS)).isEqualTo("ok: bob asks");
        assertThat(requestFor("alice asks").systemText()).contains("alice deploys").doesNotContain("bob");
        assertThat(requestFor("bob asks").systemText()).contains("bob deploys").doesNotContain("alice");
        assertThat(rollout("alice", "alice-1")).anyMatch(l -> l.contains("alice asks")).noneMatch(l -> l.contains("bob"));
        assertThat(rollout("bob", "bob-1")).anyMatch(l -> l.contains("ok: bob asks")).noneMatch(l -> l.contains("alice"));
    }

    @Test
    void aMemoryIdCraftedToNameAnotherTenant_staysInTheCallersOwnMemory() throws Exception {
        summary("alice", "alice:c1", "alice's secret: the launch is on friday");
        Assistant assistant = assistant(MnemoLangChain4j.create(engines, SIGNED_IN_USER));
        List<String> alicesRollout = rollout("alice", "alice:c1");

        String answer = as("mallory", () -> assistant.chat("alice:c1", "what is alice's secret?")).get(30, TimeUnit.SECONDS);

        assertThat(answer).isEqualTo("ok: what is alice's secret?");
        assertThat(requestFor("what is alice's secret?").json()).doesNotContain("friday");
        assertThat(rollout("alice", "alice:c1")).isEqualTo(alicesRollout);
        assertThat(rollout("mallory", "alice:c1")).anyMatch(l -> l.contains("what is alice's secret?"));
        assertThat(Files.exists(TenantHomes.home(root, "alice:c1"))).isFalse();
    }

    @Test
    void twoTenantsWithTheSameMemoryId_eachGetTheReceiptOfTheirOwnConversation() throws Exception {
        MnemoLangChain4j mnemo = MnemoLangChain4j.create(engines, SIGNED_IN_USER);
        try (OpenAiWireServer citing = OpenAiWireServer.start(r -> WireReply.text("ok.<oai-mem-citation><rollout_ids>\n"
                + r.lastUserText() + "-past\n</rollout_ids></oai-mem-citation>"))) {
            Assistant assistant = mnemo.configure(AiServices.builder(Assistant.class).chatModel(OpenAiChatModel
                    .builder().baseUrl(citing.baseUrl().toString()).apiKey("k").modelName("m").maxRetries(0).build())
                    .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20))).build();

            as("alice", () -> assistant.chat("chat-1", "alice")).get(30, TimeUnit.SECONDS);
            as("bob", () -> assistant.chat("chat-1", "bob")).get(30, TimeUnit.SECONDS);

            assertThat(as("alice", () -> mnemo.lastReceipt("chat-1")).get(30, TimeUnit.SECONDS).orElseThrow()
                    .citations()).singleElement().satisfies(c -> assertThat(c.rolloutIds()).containsExactly("alice-past"));
            assertThat(as("bob", () -> mnemo.lastReceipt("chat-1")).get(30, TimeUnit.SECONDS).orElseThrow()
                    .citations()).singleElement().satisfies(c -> assertThat(c.rolloutIds()).containsExactly("bob-past"));
            for (String tenant : List.of("alice", "bob")) {
                MemoryReceipt receipt = as(tenant, () -> mnemo.lastReceipt("chat-1")).get(30, TimeUnit.SECONDS)
                        .orElseThrow();
                assertThat(receipt.threadId()).isEqualTo("chat-1");
                try (MemoryEngines.Lease lease = engines.lease(tenant)) {
                    assertThat(LoggedReceipts.of(lease.engine(), "chat-1")).containsExactly(receipt);
                }
            }
            assertThat(as("carol", () -> mnemo.lastReceipt("chat-1")).get(30, TimeUnit.SECONDS)).isEmpty();
            assertThat(as(null, () -> mnemo.lastReceipt("chat-1")).get(30, TimeUnit.SECONDS)).isEmpty();
        }
    }

    @Test
    void callWithoutATenant_runsWithoutMemory_andRecordsNothing() throws Exception {
        Assistant assistant = assistant(MnemoLangChain4j.create(engines, SIGNED_IN_USER));

        String answer = as(null, () -> assistant.chat("anonymous-1", "hello?")).get(30, TimeUnit.SECONDS);

        assertThat(answer).isEqualTo("ok: hello?");
        assertThat(requestFor("hello?").systemText()).isEmpty();
        assertThat(requestFor("hello?").toolNames()).isEmpty();
        assertThat(engines.openCount()).isZero();
    }

    @Test
    void tenantResolver_canReadTheApplicationsOwnMemoryIdType() throws Exception {
        ChatId id = new ChatId("initech", "42");
        summary("initech", id.toString(), "initech files TPS reports");
        Assistant assistant = assistant(MnemoLangChain4j.create(engines, memoryId -> ((ChatId) memoryId).user()));

        assistant.chat(id, "what about the reports?");

        assertThat(requestFor("what about the reports?").systemText()).contains("initech files TPS reports");
        assertThat(rollout("initech", id.toString())).anyMatch(l -> l.contains("ok: what about the reports?"));
    }

    @Test
    void theTenantIsResolvedOnceOnTheCallersThread_andServesTheWholeStreamedToolLoop() throws Exception {
        summary("carol", "carol-1", "carol ships on tuesdays");
        try (OpenAiWireServer streaming = OpenAiWireServer.start()) {
            streaming.enqueue(WireReply.toolCall("call_l1", "memories_list", "{}"));
            streaming.enqueue(WireReply.text("Tuesdays.", "Tues", "days."));
            StreamingAssistant assistant = MnemoLangChain4j.create(engines, SIGNED_IN_USER).configure(AiServices
                    .builder(StreamingAssistant.class).streamingChatModel(OpenAiStreamingChatModel.builder()
                            .baseUrl(streaming.baseUrl().toString()).apiKey("k").modelName("m").build())
                    .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20))).build();
            CompletableFuture<String> done = new CompletableFuture<>();

            as("carol", () -> {
                assistant.chat("carol-1", "when do we ship?").onPartialResponse(p -> {})
                        .onCompleteResponse(r -> done.complete(r.aiMessage().text()))
                        .onError(done::completeExceptionally).start();
                return null;
            }).get(30, TimeUnit.SECONDS);

            assertThat(done.get(30, TimeUnit.SECONDS)).isEqualTo("Tuesdays.");
            assertThat(streaming.requests()).hasSize(2).allSatisfy(r -> assertThat(r.systemText())
                    .as("the follow-up request runs on the HTTP client's thread, where no user is signed in")
                    .contains("carol ships on tuesdays"));
            assertThat(rollout("carol", "carol-1")).anyMatch(l -> l.contains("\"function_call_output\"")
                    && l.contains("call_l1")).anyMatch(l -> l.contains("Tuesdays."));
        }
    }
}
