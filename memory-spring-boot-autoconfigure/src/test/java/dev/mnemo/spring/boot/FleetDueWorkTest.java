package dev.mnemo.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngines;
import dev.mnemo.postgres.PostgresBackend;
import dev.mnemo.postgres.TestCluster;
import dev.mnemo.springai.MnemoAdvisor;
import dev.mnemo.testkit.ChatScript;
import dev.mnemo.testkit.ManualClock;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * The per-user schedule over a {@link PostgresBackend} (fleet mode), on a real PostgreSQL server:
 * one query over the tenant tables finds the users with conversations due for extraction, and only
 * their engines are opened.
 */
class FleetDueWorkTest {

    static final ManualClock CLOCK = new ManualClock(Instant.parse("2026-11-01T09:00:00Z"));
    static String jdbcUrl;

    @TempDir
    Path cache;

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

        @Bean(destroyMethod = "close")
        PostgresBackend postgresBackend() {
            PGSimpleDataSource dataSource = new PGSimpleDataSource();
            dataSource.setURL(jdbcUrl);
            return PostgresBackend.builder().dataSource(dataSource).build();
        }
    }

    @BeforeAll
    static void database() throws SQLException {
        jdbcUrl = TestCluster.get().createDatabase("spring_fleet_due_" + ProcessHandle.current().pid());
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
    void aTenantWhoseEngineClosedBeforeItsConversationWasIdle_isFoundByOneQuery_andExtracted() {
        ChatScript script = ChatScript.create();
        server = OpenAiWireServer.start(script);
        context = new SpringApplicationBuilder(App.class).properties("spring.main.web-application-type=none",
                "spring.main.banner-mode=off", "spring.ai.openai.base-url=" + server.baseUrl(),
                "spring.ai.openai.api-key=test-key", "spring.ai.openai.chat.model=gpt-test",
                "spring.ai.openai.max-retries=0", "mnemo.tenancy=per-user", "mnemo.home=" + cache,
                "mnemo.tenants.max-open=1", "mnemo.pipeline.schedule.interval=1h").run();
        ChatClient chat = context.getBean(ChatClient.Builder.class)
                .defaultAdvisors(context.getBean(MnemoAdvisor.class)).build();
        MemoryEngines engines = context.getBean(MemoryEngines.class);
        MnemoPipelineSchedule schedule = context.getBean(MnemoPipelineSchedule.class);
        PostgresBackend backend = context.getBean(PostgresBackend.class);

        script.enqueue(WireReply.text("Noted."));
        chat.prompt().user("Fleet alice deploys with helm").advisors(a -> a
                .param(MnemoAdvisor.USER_ID, "fleet-alice").param(ChatMemory.CONVERSATION_ID, "fa-1")).call().content();
        script.enqueue(WireReply.text("Hello."));
        chat.prompt().user("Hi from bob").advisors(a -> a
                .param(MnemoAdvisor.USER_ID, "fleet-bob").param(ChatMemory.CONVERSATION_ID, "fb-1")).call().content();
        assertThat(engines.openTenants()).containsExactly("fleet-bob");
        List<String> sources = MemoriesConfig.defaults().memorySources();
        assertThat(backend.tenantsWithDueExtraction(CLOCK.instant(), Duration.ofHours(6), Duration.ofDays(30),
                sources, 10)).isEmpty();

        CLOCK.advance(Duration.ofHours(7));
        assertThat(backend.tenantsWithDueExtraction(CLOCK.instant(), Duration.ofHours(6), Duration.ofDays(30),
                sources, 10)).contains("fleet-alice");
        schedule.runOnce();

        assertThat(server.requests().stream().filter(ChatScript::isPhase1)
                .filter(r -> r.json().contains("Fleet alice deploys with helm"))).hasSize(1);
        assertThat(engines.openTenants()).containsExactly("fleet-bob");
        assertThat(backend.tenantsWithDueExtraction(CLOCK.instant(), Duration.ofHours(6), Duration.ofDays(30),
                sources, 10)).doesNotContain("fleet-alice");
    }
}
