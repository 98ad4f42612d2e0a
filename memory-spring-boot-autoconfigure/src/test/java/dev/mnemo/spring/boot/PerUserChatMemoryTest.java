package dev.mnemo.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.springai.MnemoAdvisor;
import dev.mnemo.springai.TenantChatMemoryRepository;
import dev.mnemo.testkit.ChatScript;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * Spring AI's short-term chat memory ({@code MessageChatMemoryAdvisor} over the {@code ChatMemory}
 * Spring AI's auto-configuration declares) next to Mnemo in {@code mnemo.tenancy=per-user}: two
 * signed-in users with the same conversation id each get their own history only.
 */
class PerUserChatMemoryTest {

    @TempDir
    static Path home;

    static ChatScript script;
    static OpenAiWireServer server;
    static ConfigurableApplicationContext context;
    static ChatClient chat;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {}

    @BeforeAll
    static void start() {
        script = ChatScript.create();
        server = OpenAiWireServer.start(script);
        context = new SpringApplicationBuilder(App.class).properties("spring.main.web-application-type=none",
                "spring.main.banner-mode=off", "spring.ai.openai.base-url=" + server.baseUrl(),
                "spring.ai.openai.api-key=test-key", "spring.ai.openai.chat.model=gpt-test",
                "spring.ai.openai.max-retries=0", "mnemo.tenancy=per-user", "mnemo.home=" + home,
                "mnemo.pipeline.schedule.enabled=false").run();
        chat = context.getBean(ChatClient.Builder.class)
                .defaultAdvisors(MessageChatMemoryAdvisor.builder(context.getBean(ChatMemory.class)).build(),
                        context.getBean(MnemoAdvisor.class))
                .build();
    }

    @AfterAll
    static void stop() {
        if (context != null) {
            context.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @AfterEach
    void signOut() {
        SecurityContextHolder.clearContext();
    }

    static String askAs(String user, String conversation, String question, String answer) {
        SecurityContextHolder.getContext().setAuthentication(
                UsernamePasswordAuthenticationToken.authenticated(user, "n/a", List.of()));
        script.enqueue(WireReply.text(answer));
        try {
            return chat.prompt().user(question).advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversation))
                    .call().content();
        } finally {
            SecurityContextHolder.clearContext();
        }
    }

    static WireRequest requestAsking(String question) {
        return server.requests().stream().filter(r -> r.lastUserText().equals(question)).reduce((a, b) -> b)
                .orElseThrow();
    }

    @Test
    void theApplicationsChatMemoryRepository_isScopedByUser() {
        assertThat(context.getBean(ChatMemoryRepository.class)).isInstanceOf(TenantChatMemoryRepository.class);
    }

    @Test
    void bobUsingAlicesConversationId_getsNoneOfHerEarlierMessages() {
        askAs("alice", "chat-1", "My locker code is 4711.", "Noted, Alice.");
        askAs("alice", "chat-1", "Remind me later.", "Sure.");

        askAs("bob", "chat-1", "What did I tell you before?", "Nothing yet.");

        String bobSent = requestAsking("What did I tell you before?").json();
        assertThat(bobSent).doesNotContain("4711").doesNotContain("Noted, Alice.");
        String aliceSent = requestAsking("Remind me later.").json();
        assertThat(aliceSent).contains("My locker code is 4711.").contains("Noted, Alice.");

        askAs("alice", "chat-1", "And now?", "Still here.");
        assertThat(requestAsking("And now?").json()).contains("4711").doesNotContain("What did I tell you before?");
    }
}
