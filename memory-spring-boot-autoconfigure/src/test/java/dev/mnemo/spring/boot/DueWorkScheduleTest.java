package dev.mnemo.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.TenantHomes;
import dev.mnemo.springai.MnemoAdvisor;
import dev.mnemo.testkit.ChatScript;
import dev.mnemo.testkit.ManualClock;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * The pipeline schedule in per-user mode reaches users whose engines were closed: a conversation
 * becomes extractable hours after its last message, long after its user's engine closed as idle.
 * The clock is the application's {@link Clock} bean, moved by the test.
 */
class DueWorkScheduleTest {

    static final ManualClock CLOCK = new ManualClock(Instant.parse("2026-11-01T09:00:00Z"));

    @TempDir
    Path home;

    OpenAiWireServer server;
    ConfigurableApplicationContext context;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        Clock testClock() {
            return CLOCK;
        }

        @Bean
        MemoryEngineBuilderCustomizer engineClock() {
            return builder -> builder.clock(CLOCK);
        }
    }

    @AfterEach
    void stop() {
        if (context != null) {
            context.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aUserWhoseEngineClosedBeforeTheirConversationWasIdle_isExtractedWhenTheScheduleRunsPastTheIdleWindow() {
        ChatScript script = ChatScript.create();
        server = OpenAiWireServer.start(script);
        context = new SpringApplicationBuilder(App.class).properties("spring.main.web-application-type=none",
                "spring.main.banner-mode=off", "spring.ai.openai.base-url=" + server.baseUrl(),
                "spring.ai.openai.api-key=test-key", "spring.ai.openai.chat.model=gpt-test",
                "spring.ai.openai.max-retries=0", "mnemo.tenancy=per-user", "mnemo.home=" + home,
                "mnemo.tenants.max-open=1", "mnemo.pipeline.schedule.interval=1h").run();
        ChatClient chat = context.getBean(ChatClient.Builder.class)
                .defaultAdvisors(context.getBean(MnemoAdvisor.class)).build();
        MemoryEngines engines = context.getBean(MemoryEngines.class);
        MnemoPipelineSchedule schedule = context.getBean(MnemoPipelineSchedule.class);

        script.enqueue(WireReply.text("Noted."));
        chat.prompt().user("Alice's build runs on ./gradlew build").advisors(a -> a
                .param(MnemoAdvisor.USER_ID, "alice").param(ChatMemory.CONVERSATION_ID, "a-1")).call().content();
        script.enqueue(WireReply.text("Hello Bob."));
        chat.prompt().user("Hi").advisors(a -> a
                .param(MnemoAdvisor.USER_ID, "bob").param(ChatMemory.CONVERSATION_ID, "b-1")).call().content();
        assertThat(engines.openTenants()).containsExactly("bob"); // alice's closed, her conversation not yet idle
        schedule.runOnce(); // within the idle window: nothing of alice's is due
        assertThat(server.requests().stream().filter(ChatScript::isPhase1)).isEmpty();

        CLOCK.advance(Duration.ofHours(7));
        schedule.runOnce();

        assertThat(server.requests().stream().filter(ChatScript::isPhase1)
                .filter(r -> r.json().contains("Alice's build runs on ./gradlew build"))).hasSize(1);
        assertThat(engines.openTenants()).containsExactly("bob");
        // The scripted consolidation fails (it writes no MEMORY.md): alice stays marked, due again
        // when the consolidation's retry backoff ends, not at every run.
        HomeMarkers markers = new HomeMarkers(home, CLOCK, Duration.ofHours(6), 2);
        assertThat(markers.due(CLOCK.instant(), 10)).extracting(DueTenants.Due::tenantId).doesNotContain("alice");
        int before = server.requests().size();
        schedule.runOnce(); // done: alice is not visited again
        assertThat(server.requests().subList(before, server.requests().size()).stream()
                .filter(r -> r.json().contains("Alice's build"))).isEmpty();
    }

    @Test
    void fiveHundredIdleUsersWithNoDueWork_openNoEngine() throws Exception {
        AtomicInteger opened = new AtomicInteger();
        HomeMarkers markers = new HomeMarkers(home, CLOCK, Duration.ofHours(6), 2);
        try (MemoryEngines engines = MemoryEngines.builder().engineFactory(user -> {
            opened.incrementAndGet();
            return MemoryEngine.builder().home(TenantHomes.home(home, user)).clock(CLOCK).build();
        }).build()) {
            for (int i = 0; i < 500; i++) {
                Files.createDirectories(TenantHomes.home(home, "user-" + i));
                if (i % 2 == 0) {
                    markers.touch("user-" + i); // active just now: due six hours from now
                }
            }
            DueWorkPass pass = new DueWorkPass(engines, markers, CLOCK, 100);

            int visited = pass.run();
            CLOCK.advance(Duration.ofHours(5));
            visited += pass.run();

            assertThat(visited).isZero();
            assertThat(opened).hasValue(0);
            assertThat(engines.openCount()).isZero();
            assertThat(markers.due(CLOCK.instant().plus(Duration.ofHours(1)), 1000)).hasSize(250)
                    .extracting(DueTenants.Due::tenantId).allMatch(t -> t.startsWith("user-"));
        }
    }
}
