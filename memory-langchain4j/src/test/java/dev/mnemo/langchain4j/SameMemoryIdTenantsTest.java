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
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import dev.mnemo.ConversationBusyException;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.TenantHomes;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two tenants, alice and bob, who picked the same memory id {@code chat-1}, calling at the same
 * time: each call keeps to its own tenant's memory, whichever hooks the application wires. The
 * tenant is the signed-in user of the request thread, as most servers resolve it.
 */
class SameMemoryIdTenantsTest {

    static final String ID = "chat-1";
    static final String ALICE_SECRET = "alice ships with ALPHA-PIPELINE";
    static final String BOB_SECRET = "bob ships with BRAVO-PIPELINE";

    interface Assistant {
        String chat(@MemoryId String conversation, @UserMessage String text);
    }

    interface StreamingAssistant {
        TokenStream chat(@MemoryId String conversation, @UserMessage String text);
    }

    private static final ThreadLocal<String> SIGNED_IN = new ThreadLocal<>();
    private static final TenantResolver SIGNED_IN_USER = memoryId -> SIGNED_IN.get();

    @TempDir
    Path root;

    private final OpenAiWireServer pipelineServer = OpenAiWireServer.start();
    private OpenAiWireServer server;
    private MemoryEngines engines;
    private MnemoLangChain4j mnemo;
    private ChatMemoryStore history;

    @BeforeEach
    void setUp() throws Exception {
        OpenAiChatModel pipelineModel = OpenAiChatModel.builder().baseUrl(pipelineServer.baseUrl().toString())
                .apiKey("k").modelName("m").maxRetries(0).build();
        engines = MemoryEngines.builder().engineFactory(TenantHomes.under(root, () -> MemoryEngine.builder()
                .model(MnemoLangChain4j.languageModel(pipelineModel)).closeTimeout(Duration.ofSeconds(2)))).build();
        summary("alice", ALICE_SECRET);
        summary("bob", BOB_SECRET);
        mnemo = MnemoLangChain4j.create(engines, SIGNED_IN_USER);
        history = mnemo.chatMemoryStore(new InMemoryChatMemoryStore());
    }

    @AfterEach
    void tearDown() {
        SIGNED_IN.remove();
        if (server != null) {
            server.close();
        }
        engines.close();
        pipelineServer.close();
    }

    // ---- the AiServices path ------------------------------------------------------------------

    @Test
    void configuredService_twoTenantsOnOneMemoryIdAtOnce_eachGetsOnlyItsOwnInstructionsAndToolCalls()
            throws Exception {
        CyclicBarrier firstRequests = new CyclicBarrier(2);
        CyclicBarrier followUps = new CyclicBarrier(2);
        server = OpenAiWireServer.start(request -> {
            await(isFirst(request) ? firstRequests : followUps); // both calls are in flight together
            return readSummaryThenAnswer(request);
        });
        Assistant assistant = mnemo.configure(services(Assistant.class)).build();

        CompletableFuture<String> alice = as("alice", () -> assistant.chat(ID, "alice asks"));
        CompletableFuture<String> bob = as("bob", () -> assistant.chat(ID, "bob asks"));

        assertThat(alice.get(60, TimeUnit.SECONDS)).isEqualTo("answer for alice");
        assertThat(bob.get(60, TimeUnit.SECONDS)).isEqualTo("answer for bob");
        assertKeptApart("alice", ALICE_SECRET, BOB_SECRET);
        assertKeptApart("bob", BOB_SECRET, ALICE_SECRET);
        assertThat(rollout("alice")).anyMatch(l -> l.contains("answer for alice")).noneMatch(l -> l.contains("bob"));
        assertThat(rollout("bob")).anyMatch(l -> l.contains("answer for bob")).noneMatch(l -> l.contains("alice"));
    }

    @Test
    void configuredStreams_twoTenantsOnOneMemoryIdAtOnce_keepTheirOwnMemoryThroughTheToolLoop() throws Exception {
        CyclicBarrier firstRequests = new CyclicBarrier(2);
        CyclicBarrier followUps = new CyclicBarrier(2);
        server = OpenAiWireServer.start(request -> {
            await(isFirst(request) ? firstRequests : followUps);
            return readSummaryThenAnswer(request);
        });
        StreamingAssistant assistant = mnemo.configure(AiServices.builder(StreamingAssistant.class)
                .streamingChatModel(OpenAiStreamingChatModel.builder().baseUrl(server.baseUrl().toString())
                        .apiKey("k").modelName("m").build())
                .chatMemoryProvider(this::chatMemory)).build();

        CompletableFuture<String> alice = stream("alice", () -> assistant.chat(ID, "alice asks"));
        CompletableFuture<String> bob = stream("bob", () -> assistant.chat(ID, "bob asks"));

        assertThat(alice.get(60, TimeUnit.SECONDS)).isEqualTo("answer for alice");
        assertThat(bob.get(60, TimeUnit.SECONDS)).isEqualTo("answer for bob");
        assertKeptApart("alice", ALICE_SECRET, BOB_SECRET);
        assertKeptApart("bob", BOB_SECRET, ALICE_SECRET);
        assertThat(rollout("alice")).anyMatch(l -> l.contains("answer for alice")).noneMatch(l -> l.contains("bob"));
        assertThat(rollout("bob")).anyMatch(l -> l.contains("answer for bob")).noneMatch(l -> l.contains("alice"));
    }

    // ---- each hook on its own, beside another tenant's running call on the same id ---------------

    @Test
    void requestTransformerAlone_whileAnotherTenantsCallRunsOnTheSameId_carriesOnlyTheCallersInstructions()
            throws Exception {
        AliceInFlight alice = aliceInFlight();
        Assistant bobsService = services(Assistant.class).chatRequestTransformer(mnemo.requestTransformer()).build();

        String answer = as("bob", () -> bobsService.chat(ID, "bob asks")).get(60, TimeUnit.SECONDS);

        assertThat(answer).isEqualTo("answer for bob");
        assertThat(requestsOf("bob")).singleElement().satisfies(r -> assertThat(r.systemText())
                .contains(BOB_SECRET).doesNotContain(ALICE_SECRET));
        alice.finish();
    }

    @Test
    void toolProviderAlone_whileAnotherTenantsCallRunsOnTheSameId_runsTheCallersToolCallsInItsOwnMemory()
            throws Exception {
        AliceInFlight alice = aliceInFlight();
        Assistant bobsService = services(Assistant.class).toolProvider(mnemo.toolProvider()).build();

        String answer = as("bob", () -> bobsService.chat(ID, "bob reads")).get(60, TimeUnit.SECONDS);

        assertThat(answer).isEqualTo("answer for bob");
        assertThat(requestsOf("bob")).hasSize(2).last().satisfies(r -> assertThat(r.toolOutputs()).singleElement()
                .asString().contains(BOB_SECRET).doesNotContain(ALICE_SECRET));
        assertThat(rollout("bob")).anyMatch(l -> l.contains("\"function_call\"") && l.contains("call_bob"));
        alice.finish();
        assertThat(rollout("alice")).noneMatch(l -> l.contains("call_bob"));
    }

    @Test
    void listenersAlone_whileAnotherTenantsCallRunsOnTheSameId_recordTheCallersTurnInItsOwnMemory()
            throws Exception {
        AliceInFlight alice = aliceInFlight();
        Assistant bobsService = services(Assistant.class).registerListeners(mnemo.listeners()).build();

        String answer = as("bob", () -> bobsService.chat(ID, "bob asks")).get(60, TimeUnit.SECONDS);

        assertThat(answer).isEqualTo("answer for bob");
        assertThat(rollout("bob")).anyMatch(l -> l.contains("\"text\":\"bob asks\""))
                .anyMatch(l -> l.contains("answer for bob"));
        alice.finish();
        assertThat(rollout("alice")).noneMatch(l -> l.contains("bob"));
    }

    @Test
    void visibleTokensWithListeners_whileAnotherTenantsCallRunsOnTheSameId_streamAndRecordInTheCallersMemory()
            throws Exception {
        AliceInFlight alice = aliceInFlight();
        StreamingAssistant bobsService = AiServices.builder(StreamingAssistant.class)
                .streamingChatModel(OpenAiStreamingChatModel.builder().baseUrl(server.baseUrl().toString())
                        .apiKey("k").modelName("m").build())
                .chatMemoryProvider(this::chatMemory).registerListeners(mnemo.listeners()).build();

        String answer = stream("bob", () -> mnemo.visibleTokens(bobsService.chat(ID, "bob asks"), ID))
                .get(60, TimeUnit.SECONDS);

        assertThat(answer).isEqualTo("answer for bob");
        assertThat(rollout("bob")).anyMatch(l -> l.contains("answer for bob"));
        alice.finish();
        assertThat(rollout("alice")).noneMatch(l -> l.contains("bob"));
    }

    @Test
    void endConversation_ofOneTenant_leavesAnotherTenantsRunningCallOnTheSameIdHoldingItsConversation()
            throws Exception {
        AliceInFlight alice = aliceInFlight();

        as("bob", () -> mnemo.endConversation(ID)).get(60, TimeUnit.SECONDS);

        assertThatThrownBy(() -> as("alice", () -> alice.assistant.chat(ID, "alice again")).get(60, TimeUnit.SECONDS))
                .as("alice's first call still holds her conversation").hasCauseInstanceOf(ConversationBusyException.class);
        assertThat(alice.finish()).isEqualTo("answer for alice");
        assertThat(rollout("alice")).anyMatch(l -> l.contains("answer for alice"));
    }

    @Test
    void endConversation_marksOnlyTheCallersTenantsConversationFinished() throws Exception {
        server = OpenAiWireServer.start(request -> WireReply.text("noted"));
        Assistant assistant = mnemo.configure(services(Assistant.class)).build();
        as("alice", () -> assistant.chat(ID, "alice talks")).get(60, TimeUnit.SECONDS);
        as("bob", () -> assistant.chat(ID, "bob talks")).get(60, TimeUnit.SECONDS);

        assertThat(as("bob", () -> mnemo.endConversation(ID)).get(60, TimeUnit.SECONDS)).isTrue();

        assertThat(engines.forTenant("bob").threads().get(ID).orElseThrow().finished()).isTrue();
        assertThat(engines.forTenant("alice").threads().get(ID).orElseThrow().finished()).isFalse();
    }

    // ---- the application's own chat memory ------------------------------------------------------

    @Test
    void tenantScopedChatMemory_twoTenantsOnOneMemoryId_neverSeeEachOthersEarlierMessages() throws Exception {
        server = OpenAiWireServer.start(request -> WireReply.text("noted: " + request.lastUserText()));
        Assistant assistant = mnemo.configure(services(Assistant.class)).build();

        as("alice", () -> assistant.chat(ID, "alice's card ends in 4242")).get(60, TimeUnit.SECONDS);
        as("bob", () -> assistant.chat(ID, "what did I say before?")).get(60, TimeUnit.SECONDS);
        as("alice", () -> assistant.chat(ID, "and again?")).get(60, TimeUnit.SECONDS);

        WireRequest bobs = server.requests().stream().filter(r -> r.lastUserText().equals("what did I say before?"))
                .findFirst().orElseThrow();
        assertThat(bobs.json()).doesNotContain("4242");
        WireRequest alicesSecond = server.requests().stream().filter(r -> r.lastUserText().equals("and again?"))
                .findFirst().orElseThrow();
        assertThat(alicesSecond.json()).contains("4242").doesNotContain("what did I say before?");
    }

    // ---- fixtures -------------------------------------------------------------------------------

    /** Alice's configured call on {@link #ID}, held at the model until {@link #finish()}. */
    private final class AliceInFlight {
        final CountDownLatch release = new CountDownLatch(1);
        Assistant assistant;
        CompletableFuture<String> call;

        String finish() throws Exception {
            release.countDown();
            return call.get(60, TimeUnit.SECONDS);
        }
    }

    private AliceInFlight aliceInFlight() throws InterruptedException {
        AliceInFlight alice = new AliceInFlight();
        CountDownLatch arrived = new CountDownLatch(1);
        server = OpenAiWireServer.start(request -> {
            if (request.lastUserText().equals("alice asks")) {
                arrived.countDown();
                await(alice.release);
                return WireReply.text("answer for alice");
            }
            return readSummaryThenAnswer(request);
        });
        alice.assistant = mnemo.configure(services(Assistant.class)).build();
        alice.call = as("alice", () -> alice.assistant.chat(ID, "alice asks"));
        assertThat(arrived.await(60, TimeUnit.SECONDS)).as("alice's call reached the model").isTrue();
        return alice;
    }

    /** A question of x: first a read of the summary when the request offers the memory tools, then "answer for x". */
    private static WireReply readSummaryThenAnswer(WireRequest request) {
        String who = request.lastUserText().split(" ")[0];
        if (isFirst(request) && request.toolNames().contains("memories_read")) {
            return WireReply.toolCall("call_" + who, "memories_read", "{\"path\":\"memory_summary.md\"}");
        }
        return WireReply.text("answer for " + who);
    }

    private static boolean isFirst(WireRequest request) {
        List<String> roles = request.roles();
        return roles.get(roles.size() - 1).equals("user");
    }

    private void assertKeptApart(String who, String own, String other) {
        List<WireRequest> requests = requestsOf(who);
        assertThat(requests).hasSize(2).allSatisfy(r -> assertThat(r.systemText()).contains(own).doesNotContain(other));
        assertThat(requests.get(1).toolOutputs()).singleElement().asString().contains(own).doesNotContain(other);
    }

    private List<WireRequest> requestsOf(String who) {
        return server.requests().stream().filter(r -> r.lastUserText().startsWith(who)).toList();
    }

    private <T> AiServices<T> services(Class<T> type) {
        return AiServices.builder(type).chatModel(OpenAiChatModel.builder().baseUrl(server.baseUrl().toString())
                .apiKey("k").modelName("m").maxRetries(0).build()).chatMemoryProvider(this::chatMemory);
    }

    private MessageWindowChatMemory chatMemory(Object id) {
        return MessageWindowChatMemory.builder().id(id).maxMessages(20).chatMemoryStore(history).build();
    }

    private void summary(String tenant, String text) throws Exception {
        try (MemoryEngines.Lease lease = engines.lease(tenant)) {
            lease.engine().conversation(ID).startupTask().completion().get(30, TimeUnit.SECONDS);
        }
        Path file = TenantHomes.home(root, tenant).resolve("memories").resolve("memory_summary.md");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "v1\n\n" + text + "\n");
    }

    private List<String> rollout(String tenant) throws IOException {
        try (MemoryEngines.Lease lease = engines.lease(tenant)) {
            return Files.readAllLines(lease.engine().threads().get(ID).orElseThrow().rolloutPath());
        }
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

    /** Starts a stream as {@code user}; completes with its visible answer. */
    private static CompletableFuture<String> stream(String user, Supplier<TokenStream> call) {
        CompletableFuture<String> done = new CompletableFuture<>();
        as(user, () -> {
            call.get().onPartialResponse(p -> {}).onCompleteResponse(r -> done.complete(r.aiMessage().text()))
                    .onError(done::completeExceptionally).start();
            return null;
        }).exceptionally(e -> {
            done.completeExceptionally(e);
            return null;
        });
        return done;
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(60, TimeUnit.SECONDS); // a guard against a hang, not a wait for time to pass
        } catch (Exception e) {
            throw new IllegalStateException("the other tenant's call never reached the model", e);
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
