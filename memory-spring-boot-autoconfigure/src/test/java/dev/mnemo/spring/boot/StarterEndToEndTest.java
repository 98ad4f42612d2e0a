package dev.mnemo.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.springai.MnemoAdvisor;
import dev.mnemo.testkit.ChatScript;
import dev.mnemo.testkit.ManualClock;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * The starter as an application meets it: a Spring Boot application with Spring AI's OpenAI
 * starter (talking HTTP to an in-process Chat Completions server), Actuator, and nothing of
 * Mnemo but properties. The {@code ChatClient} comes from Boot's {@code ChatClient.Builder}.
 */
class StarterEndToEndTest {

    static final ManualClock CLOCK = new ManualClock(Instant.parse("2026-11-01T09:00:00Z"));
    static final String VISIBLE = "Run ./gradlew build.";

    @TempDir
    static Path home;

    static ChatScript script;
    static OpenAiWireServer server;
    static ConfigurableApplicationContext context;
    static ChatClient chat;

    /** The application: no Mnemo code, only a clock the test moves instead of waiting six hours. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        MemoryEngineBuilderCustomizer testClock() {
            return builder -> builder.clock(CLOCK);
        }
    }

    @BeforeAll
    static void start() throws IOException {
        script = ChatScript.create();
        server = OpenAiWireServer.start(script);
        Files.createDirectories(home.resolve("memories"));
        Files.writeString(home.resolve("memories/memory_summary.md"), "v1\nBuilds use ./gradlew build.");
        context = new SpringApplicationBuilder(App.class).properties(
                "spring.main.web-application-type=none", "spring.main.banner-mode=off",
                "spring.ai.openai.base-url=" + server.baseUrl(), "spring.ai.openai.api-key=test-key",
                "spring.ai.openai.chat.model=gpt-test", "spring.ai.openai.max-retries=0",
                "management.endpoint.health.show-details=always",
                "mnemo.tenancy=shared", "mnemo.home=" + home,
                // Every idle conversation in one Phase 1 run: conversations recorded at the same instant tie.
                "mnemo.memories.max-rollouts-per-startup=128").run();
        chat = context.getBean(ChatClient.Builder.class).defaultSystem("You are terse.")
                .defaultAdvisors(context.getBean(MnemoAdvisor.class)).build();
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

    static String cited(String visible, String threadId) {
        return visible + "<oai-mem-citation>\n<citation_entries>\nMEMORY.md:1-1|note=[build]\n</citation_entries>\n"
                + "<rollout_ids>\n" + threadId + "\n</rollout_ids>\n</oai-mem-citation>";
    }

    static ChatClient.ChatClientRequestSpec ask(String conversation, String question) {
        return chat.prompt().user(question).advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversation));
    }

    static WireRequest lastChatRequest() {
        List<WireRequest> chats = server.requests().stream()
                .filter(r -> !ChatScript.isPhase1(r) && !ChatScript.isConsolidation(r)).toList();
        return chats.get(chats.size() - 1);
    }

    static List<String> rollout(String conversation) throws IOException {
        Path file = context.getBean(MemoryEngine.class).threads().get(conversation).orElseThrow().rolloutPath();
        assertThat(file).startsWith(home.resolve("sessions"));
        return Files.readAllLines(file);
    }

    @Test
    void bootsChatClient_sendsTheSummaryAndTheMemoryTools_andTheTurnIsRecordedUnderMnemoHome() throws IOException {
        script.enqueue(WireReply.text(VISIBLE));

        assertThat(ask("boot-1", "How do I build?").call().content()).isEqualTo(VISIBLE);

        WireRequest request = lastChatRequest();
        assertThat(request.systemText()).startsWith("You are terse.\n\n").contains("Builds use ./gradlew build.");
        assertThat(request.toolNames()).contains("memories_search", "memories_read");
        assertThat(rollout("boot-1")).anyMatch(l -> l.contains("How do I build?")).anyMatch(l -> l.contains(VISIBLE));
    }

    @Test
    void aScriptedMemoryToolCall_runsThroughSpringAisToolLoop_andIsRecorded() throws IOException {
        script.enqueue(WireReply.toolCall("call_9", "memories_read", "{\"path\":\"memory_summary.md\"}"));
        script.enqueue(WireReply.text(VISIBLE));

        assertThat(ask("boot-tools", "Read your summary").call().content()).isEqualTo(VISIBLE);

        assertThat(lastChatRequest().toolOutputs()).singleElement().asString().contains("Builds use ./gradlew build.");
        assertThat(rollout("boot-tools")).anyMatch(l -> l.contains("function_call") && l.contains("memories_read"))
                .anyMatch(l -> l.contains("function_call_output") && l.contains("Builds use ./gradlew build."));
    }

    static Stream<List<String>> chunkings() {
        String raw = cited(VISIBLE, "boot-x");
        int tag = raw.indexOf('<');
        return Stream.of(List.of(raw), raw.chars().mapToObj(c -> String.valueOf((char) c)).toList(),
                List.of(raw.substring(0, tag + 3), raw.substring(tag + 3, raw.length() - 5),
                        raw.substring(raw.length() - 5)));
    }

    @ParameterizedTest(name = "chunking {index}")
    @MethodSource("chunkings")
    void callAndStream_returnTheAnswerWithoutCitationMarkup(List<String> chunks) {
        String raw = String.join("", chunks);
        script.enqueue(WireReply.text(raw));
        script.enqueue(WireReply.text(raw, chunks.toArray(String[]::new)));

        String called = ask("boot-cite", "How?").call().content();
        String streamed = String.join("", ask("boot-cite", "How?").stream().content().collectList().block());

        assertThat(called).isEqualTo(VISIBLE);
        assertThat(streamed).isEqualTo(VISIBLE);
    }

    @Test
    void phase1_runsThroughTheAppsChatModel_withTheStrictJsonSchema_andCitingItsMemoryMovesUsage() {
        MemoryEngine engine = context.getBean(MemoryEngine.class);
        MeterRegistry meters = context.getBean(MeterRegistry.class);
        long phase1Before = server.requests().stream().filter(ChatScript::isPhase1).count();
        script.enqueue(WireReply.text(VISIBLE));
        ask("boot-phase1", "How do I build this?").call().content();
        CLOCK.advance(Duration.ofHours(7));

        engine.admin().runPhase1("boot-runner");

        WireRequest phase1 = server.requests().stream().filter(ChatScript::isPhase1).findFirst().orElseThrow();
        assertThat(phase1.json()).contains("\"strict\":true").contains("rollout_summary");
        assertThat(phase1.model()).isEqualTo("gpt-test");
        double before = counted(meters);
        script.enqueue(WireReply.text(cited(VISIBLE, "boot-phase1")));
        assertThat(ask("boot-after", "Again?").call().content()).isEqualTo(VISIBLE);
        assertThat(counted(meters)).isEqualTo(before + 1);
        assertThat(server.requests().stream().filter(ChatScript::isPhase1).count()).isGreaterThan(phase1Before);
    }

    @Test
    void noRequestBody_namesTheHomesPath_withDedicatedToolsAtItsDefault() {
        script.enqueue(WireReply.toolCall("call_l", "memories_list", "{}"));
        script.enqueue(WireReply.text(VISIBLE));
        int before = server.requests().size();

        assertThat(ask("boot-paths", "What do you remember?").call().content()).isEqualTo(VISIBLE);

        List<WireRequest> sent = server.requests().subList(before, server.requests().size());
        assertThat(context.getBean(MemoryEngine.class).config().dedicatedTools()).isFalse();
        assertThat(sent).filteredOn(r -> r.lastUserText().equals("What do you remember?")).hasSize(2)
                .allSatisfy(r -> assertThat(r.toolNames()).contains("memories_list", "memories_read"));
        assertThat(sent).extracting(WireRequest::json)
                .allSatisfy(body -> assertThat(body).doesNotContain(home.toString()));
    }

    static double counted(MeterRegistry meters) {
        var counter = meters.find("mnemo.citations.counted").counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void actuatorHealth_showsMnemoUp_withJobCounts() {
        IndicatedHealthDescriptor mnemo = (IndicatedHealthDescriptor) context.getBean(HealthEndpoint.class)
                .healthForPath("mnemo");

        assertThat(mnemo.getStatus()).isEqualTo(Status.UP);
        assertThat(mnemo.getDetails()).containsKeys("jobs", "threads", "lastConsolidation");
    }
}
