package dev.mnemo.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.TenantHomes;
import dev.mnemo.testkit.WireReply;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
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
                .config(MemoriesConfig.builder().dedicatedTools(true).build())
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
    void aRequestWithoutAUser_failsClearly_beforeReachingTheModel() {
        int before = shared.server.requests().size();

        assertThatThrownBy(() -> chat.prompt().user("Who am I?")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "nobody-1")).call().content())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("mnemo_user_id");
        assertThatThrownBy(() -> chat.prompt().user("Who am I?")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "nobody-1")).stream().content().blockLast())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("mnemo_user_id");
        assertThat(shared.server.requests().stream().skip(before)).noneMatch(r -> r.lastUserText().equals("Who am I?"));
    }
}
