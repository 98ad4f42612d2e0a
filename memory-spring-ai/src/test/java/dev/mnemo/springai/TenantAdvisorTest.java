package dev.mnemo.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.TenantHomes;
import dev.mnemo.testkit.LoggedReceipts;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.model.ChatModel;

/** {@link MnemoAdvisor#builder(MemoryEngines)}: each request's memory is its user's, and only its user's. */
@ExtendWith(SharedChatApp.Resolver.class)
class TenantAdvisorTest {

    @TempDir
    Path root;

    SharedChatApp shared;
    MemoryEngines engines;
    ChatClient chat;

    @BeforeEach
    void setUp(SharedChatApp fixture) throws IOException {
        shared = fixture;
        ChatModel model = fixture.context.getBean(ChatModel.class);
        engines = MemoryEngines.builder().engineFactory(TenantHomes.under(root, () -> MemoryEngine.builder()
                .config(MemoriesConfig.defaults())
                .model(SpringAiLanguageModel.of(model)))).build();
        summary("alice", "Alice deploys on Mondays.");
        summary("bob", "Bob deploys on Fridays.");
        chat = fixture.context.getBean(ChatClient.Builder.class)
                .defaultAdvisors(MnemoAdvisor.builder(engines).build()).build();
    }

    @AfterEach
    void tearDown() {
        engines.close();
    }

    void summary(String tenant, String text) throws IOException {
        Path memories = TenantHomes.home(root, tenant).resolve("memories");
        Files.createDirectories(memories);
        Files.writeString(memories.resolve("memory_summary.md"), "v1\n" + text);
    }

    @Test
    void eachRequest_getsItsUsersMemory_andIsRecordedInItsUsersHome() throws IOException {
        shared.script.enqueue(WireReply.text("Monday."));

        String answer = chat.prompt().user("When do I deploy?").advisors(a -> a.param(MnemoAdvisor.USER_ID, "alice")
                .param(ChatMemory.CONVERSATION_ID, "alice-1")).call().content();

        assertThat(answer).isEqualTo("Monday.");
        assertThat(shared.lastChatRequest().systemText()).contains("Alice deploys on Mondays.")
                .doesNotContain("Bob");
        Path rollout = engines.forTenant("alice").threads().get("alice-1").orElseThrow().rolloutPath();
        assertThat(rollout).startsWith(TenantHomes.home(root, "alice"));
        assertThat(Files.readString(rollout)).contains("When do I deploy?").contains("Monday.");
        assertThat(engines.forTenant("bob").threads().get("alice-1")).isEmpty();
    }

    @Test
    void eachRequest_getsTheReceiptOfItsUsersConversation_onCallAndStream() {
        String cited = "Monday.<oai-mem-citation><rollout_ids>\nalice-0\n</rollout_ids></oai-mem-citation>";
        shared.script.enqueue(WireReply.text(cited));
        shared.script.enqueue(WireReply.text(cited, "Monday.<oai", cited.substring("Monday.<oai".length())));

        ChatClientResponse called = chat.prompt().user("When do I deploy?").advisors(a -> a
                .param(MnemoAdvisor.USER_ID, "alice").param(ChatMemory.CONVERSATION_ID, "alice-r")).call()
                .chatClientResponse();
        List<ChatClientResponse> streamed = chat.prompt().user("And streamed?").advisors(a -> a
                .param(MnemoAdvisor.USER_ID, "alice").param(ChatMemory.CONVERSATION_ID, "alice-r")).stream()
                .chatClientResponse().collectList().block();

        MemoryReceipt callReceipt = MnemoAdvisor.receipt(called).orElseThrow();
        MemoryReceipt streamReceipt = MnemoAdvisor.receipt(streamed.get(streamed.size() - 1)).orElseThrow();
        for (MemoryReceipt receipt : List.of(callReceipt, streamReceipt)) {
            assertThat(receipt.citations()).singleElement()
                    .satisfies(citation -> assertThat(citation.rolloutIds()).containsExactly("alice-0"));
            assertThat(receipt.threadId()).isEqualTo("alice-r");
            assertThat(receipt.injected()).singleElement().satisfies(file -> assertThat(file.bytes())
                    .isEqualTo("v1\nAlice deploys on Mondays.".length()));
        }
        assertThat(LoggedReceipts.of(engines.forTenant("alice"), "alice-r")).containsExactly(callReceipt, streamReceipt);
        assertThat(LoggedReceipts.of(engines.forTenant("bob"), "alice-r")).isEmpty();
        assertThat(engines.forTenant("bob").threads().get("alice-r")).isEmpty();
    }

    @Test
    void aRequestWithoutAUser_readsNoMemory_recordsNothing_andStillLosesItsCitationMarkup() throws IOException {
        String cited = "Nobody.<oai-mem-citation><rollout_ids>\nalice-0\n</rollout_ids></oai-mem-citation>";
        shared.script.enqueue(WireReply.text(cited));
        shared.script.enqueue(WireReply.text(cited, "Nobody.<oai-mem-", cited.substring("Nobody.<oai-mem-".length())));
        int before = shared.server.requests().size();

        String called = chat.prompt().user("Who am I?")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "nobody-1")).call().content();
        String streamed = String.join("", chat.prompt().user("Who am I, streamed?")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "nobody-1")).stream().content().collectList()
                .block());

        assertThat(called).isEqualTo("Nobody.");
        assertThat(streamed).isEqualTo("Nobody.");
        List<WireRequest> sent = shared.server.requests().subList(before, shared.server.requests().size()).stream()
                .filter(r -> r.lastUserText().startsWith("Who am I")).toList();
        assertThat(sent).hasSize(2).allSatisfy(r -> {
            assertThat(r.systemText()).doesNotContain("MEMORY_SUMMARY").doesNotContain("deploys");
            assertThat(r.toolNames()).noneMatch(name -> name.startsWith("memories_"));
        });
        assertThat(engines.openCount()).isZero();
        try (Stream<Path> homes = Files.list(root)) {
            assertThat(homes.filter(h -> !h.equals(TenantHomes.home(root, "alice"))
                    && !h.equals(TenantHomes.home(root, "bob")))).isEmpty();
        }
        assertThat(Files.exists(TenantHomes.home(root, "alice").resolve("sessions"))).isFalse();
    }

    @Test
    void aTenantResolver_decidesTheUser_andTheAdvisorParamCannotOverrideIt() throws IOException {
        ChatClient resolved = shared.context.getBean(ChatClient.Builder.class)
                .defaultAdvisors(MnemoAdvisor.builder(engines)
                        .tenantResolver(request -> Optional.of("bob")).build()).build();
        shared.script.enqueue(WireReply.text("Friday."));

        String answer = resolved.prompt().user("When do I deploy?").advisors(a -> a.param(MnemoAdvisor.USER_ID, "alice")
                .param(ChatMemory.CONVERSATION_ID, "bob-1")).call().content();

        assertThat(answer).isEqualTo("Friday.");
        assertThat(shared.lastChatRequest().systemText()).contains("Bob deploys on Fridays.").doesNotContain("Alice");
        assertThat(engines.forTenant("bob").threads().get("bob-1")).isPresent();
        assertThat(engines.forTenant("alice").threads().get("bob-1")).isEmpty();
    }

    @Test
    void theLeaseOnTheUsersEngine_isHeldForTheRequest_andReleasedAfter() {
        shared.script.enqueue(WireReply.text("Monday."));
        MemoryEngines idle = MemoryEngines.builder().engineFactory(TenantHomes.under(root, () -> MemoryEngine.builder()
                .config(MemoriesConfig.builder().generateMemories(false).build()))).maxOpen(1).build();
        try (idle) {
            ChatClient small = shared.context.getBean(ChatClient.Builder.class)
                    .defaultAdvisors(MnemoAdvisor.builder(idle).build()).build();
            small.prompt().user("Hi").advisors(a -> a.param(MnemoAdvisor.USER_ID, "alice")
                    .param(ChatMemory.CONVERSATION_ID, "alice-lease")).call().content();

            idle.forTenant("bob"); // beyond maxOpen(1): alice's engine, unleased now, is closed in the background
            assertThat(idle.openTenants()).containsExactly("bob");
        }
    }
}
