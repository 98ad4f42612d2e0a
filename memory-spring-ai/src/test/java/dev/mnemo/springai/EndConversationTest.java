package dev.mnemo.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.Phase1Preview;
import dev.mnemo.TenantHomes;
import dev.mnemo.testkit.WireReply;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;

/**
 * {@link MnemoAdvisor#endConversation}: a conversation answered through the real advisor and
 * Spring AI's OpenAI client is extracted by the next pipeline run once the application ends it,
 * the engine's clock unmoved; a conversation not ended waits for its idle window.
 */
@ExtendWith(SharedChatApp.Resolver.class)
class EndConversationTest {

    @TempDir
    Path root;

    private static Phase1Preview.Verdict verdict(MemoryEngine engine, String conversation) {
        return engine.admin().previewPhase1("c-end-runner").candidates().stream()
                .filter(c -> c.thread().id().equals(conversation)).findFirst().orElseThrow().verdict();
    }

    @Test
    void endConversation_makesTheNextPipelineRunExtractIt_withoutMovingTheClock(SharedChatApp shared) {
        MemoryEngine engine = shared.engine();
        MnemoAdvisor advisor = shared.context.getBean(MnemoAdvisor.class);
        shared.script.enqueue(WireReply.text("Use ./gradlew build."));
        shared.script.enqueue(WireReply.text("Tests run with ./gradlew test."));
        shared.chat().prompt().user("How do I build this?").advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c-ended"))
                .call().content();
        shared.chat().prompt().user("And test it?").advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c-quiet"))
                .call().content();
        Instant before = shared.app().clock.instant();
        assertThat(verdict(engine, "c-ended")).isEqualTo(Phase1Preview.Verdict.NOT_IDLE);

        assertThat(advisor.endConversation("c-ended")).isTrue();
        engine.admin().runPhase1("c-end-runner");

        assertThat(engine.admin().memory("c-ended")).as("ended: extracted at once").isPresent();
        assertThat(engine.admin().memory("c-quiet")).as("not ended: waits for its idle window").isEmpty();
        assertThat(verdict(engine, "c-quiet")).isEqualTo(Phase1Preview.Verdict.NOT_IDLE);
        assertThat(shared.app().clock.instant()).isEqualTo(before);
        assertThat(advisor.endConversation("c-ended")).as("no session left open").isFalse();
    }

    @Test
    void endConversation_perUser_endsOnlyThatUsersConversation(SharedChatApp shared) {
        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(TenantHomes.under(root, () -> MemoryEngine
                .builder().config(MemoriesConfig.defaults())
                .model(SpringAiLanguageModel.of(shared.context.getBean(org.springframework.ai.chat.model.ChatModel.class)))))
                .build()) {
            MnemoAdvisor advisor = MnemoAdvisor.builder(engines).build();
            ChatClient chat = shared.context.getBean(ChatClient.Builder.class).defaultAdvisors(advisor).build();
            for (String user : new String[] {"alice", "bob"}) {
                shared.script.enqueue(WireReply.text("Hello " + user));
                chat.prompt().user("hi").advisors(a -> a.param(MnemoAdvisor.USER_ID, user)
                        .param(ChatMemory.CONVERSATION_ID, "same-id")).call().content();
            }

            assertThat(advisor.endConversation("bob", "same-id")).isTrue();
            assertThat(advisor.endConversation("same-id")).as("the default resolver finds no user outside a request")
                    .isFalse();

            assertThat(engines.forTenant("bob").threads().get("same-id").orElseThrow().finished()).isTrue();
            assertThat(engines.forTenant("alice").threads().get("same-id").orElseThrow().finished()).isFalse();
            MnemoAdvisor resolved = MnemoAdvisor.builder(engines).tenantResolver(request -> Optional.of("alice")).build();
            assertThat(resolved.endConversation("same-id")).isTrue();
            assertThat(engines.forTenant("alice").threads().get("same-id").orElseThrow().finished()).isTrue();
        }
    }

    @Test
    void endConversation_overOneEngine_takesNoUser(SharedChatApp shared) {
        MnemoAdvisor advisor = shared.context.getBean(MnemoAdvisor.class);

        assertThatThrownBy(() -> advisor.endConversation("alice", "c-1")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("endConversation(conversationId)");
        assertThatThrownBy(() -> advisor.endConversation(" ")).isInstanceOf(IllegalArgumentException.class);
    }
}
