package dev.mnemo.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.springai.MnemoAdvisor;
import dev.mnemo.testkit.ChatScript;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The advisor added twice to one client: by {@code mnemo.chat-client.advisor.enabled=true} and by
 * the application's own {@code .defaultAdvisors(memory)}. The second one stands aside: every request
 * is answered and its turn recorded once.
 */
class SecondAdvisorTest {

    @TempDir
    static Path home;

    static OpenAiWireServer server;
    static ChatScript script;
    static ConfigurableApplicationContext context;
    static ChatClient chat;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {}

    @BeforeAll
    static void start() throws IOException {
        Files.createDirectories(home.resolve("memories"));
        Files.writeString(home.resolve("memories/memory_summary.md"), "v1\nBuilds use ./gradlew build.");
        script = ChatScript.create();
        server = OpenAiWireServer.start(script);
        context = new SpringApplicationBuilder(App.class).properties("spring.main.web-application-type=none",
                "spring.main.banner-mode=off", "spring.ai.openai.base-url=" + server.baseUrl(),
                "spring.ai.openai.api-key=test-key", "spring.ai.openai.chat.model=gpt-test",
                "spring.ai.openai.max-retries=0", "mnemo.tenancy=shared", "mnemo.home=" + home,
                "mnemo.pipeline.schedule.enabled=false", "mnemo.chat-client.advisor.enabled=true").run();
        MnemoAdvisor memory = context.getBean(MnemoAdvisor.class);
        chat = context.getBean(ChatClient.Builder.class).defaultAdvisors(memory).build();
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

    static List<String> rollout(String conversation) throws IOException {
        Path file = context.getBean(MemoryEngine.class).threads().get(conversation).orElseThrow().rolloutPath();
        return Files.readAllLines(file);
    }

    @Test
    void call_isAnswered_andTheTurnRecordedOnce() throws IOException {
        script.enqueue(WireReply.text("Use ./gradlew build."));
        script.enqueue(WireReply.text("Yes, tests too."));

        String first = chat.prompt().user("How do I build?")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "twice-call")).call().content();
        String second = chat.prompt().user("Does it test?")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "twice-call")).call().content();

        assertThat(first).isEqualTo("Use ./gradlew build.");
        assertThat(second).isEqualTo("Yes, tests too.");
        List<String> lines = rollout("twice-call");
        assertThat(lines).filteredOn(l -> l.contains("How do I build?")).hasSize(1);
        assertThat(lines).filteredOn(l -> l.contains("Use ./gradlew build.")).hasSize(1);
        assertThat(lines).filteredOn(l -> l.contains("Yes, tests too.")).hasSize(1);
        assertThat(server.requests().get(server.requests().size() - 1).systemText())
                .containsOnlyOnce("MEMORY_SUMMARY BEGINS");
    }

    @Test
    void stream_isAnswered_andTheTurnRecordedOnce() throws IOException {
        script.enqueue(WireReply.text("Streamed answer.", "Streamed ", "answer."));

        String answer = String.join("", chat.prompt().user("Stream it")
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "twice-stream")).stream().content()
                .collectList().block());

        assertThat(answer).isEqualTo("Streamed answer.");
        List<String> lines = rollout("twice-stream");
        assertThat(lines).filteredOn(l -> l.contains("Stream it")).hasSize(1);
        assertThat(lines).filteredOn(l -> l.contains("Streamed answer.")).hasSize(1);
    }
}
