package dev.mnemo.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngines;
import dev.mnemo.StartupTask;
import dev.mnemo.TenantHomes;
import dev.mnemo.springai.MnemoAdvisor;
import dev.mnemo.springai.MnemoProjectResolver;
import dev.mnemo.springai.MnemoTenantResolver;
import dev.mnemo.testkit.ChatScript;
import dev.mnemo.testkit.ManualClock;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.ProjectMemories;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * {@code mnemo.tenancy=per-user} as an application meets it: Spring AI's OpenAI starter talking HTTP
 * to the in-process server, Spring Security on the class path, a home per user under
 * {@code mnemo.home}. Each request reads and records only its user's memory; a request without a
 * user reads and records nothing.
 */
class PerUserEndToEndTest {

    static final ManualClock CLOCK = new ManualClock(Instant.parse("2026-11-01T09:00:00Z"));

    @TempDir
    static Path home;

    static ChatScript script;
    static OpenAiWireServer server;
    static ConfigurableApplicationContext context;
    static ChatClient chat;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        @Bean
        MemoryEngineBuilderCustomizer testClock() {
            return builder -> builder.clock(CLOCK);
        }
    }

    static String[] properties(String... more) {
        List<String> all = new java.util.ArrayList<>(List.of("spring.main.web-application-type=none",
                "spring.main.banner-mode=off", "spring.ai.openai.base-url=" + server.baseUrl(),
                "spring.ai.openai.api-key=test-key", "spring.ai.openai.chat.model=gpt-test",
                "spring.ai.openai.max-retries=0", "management.endpoint.health.show-details=always",
                "mnemo.tenancy=per-user", "mnemo.tenants.max-open=2", "mnemo.pipeline.schedule.interval=1h"));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    @BeforeAll
    static void start() throws IOException {
        script = ChatScript.create();
        server = OpenAiWireServer.start(script);
        summary(home, "alice", "Alice deploys on Mondays.");
        summary(home, "bob", "Bob deploys on Fridays.");
        context = new SpringApplicationBuilder(App.class).properties(properties("mnemo.home=" + home)).run();
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

    @AfterEach
    void signOut() {
        SecurityContextHolder.clearContext();
    }

    static void summary(Path root, String user, String text) throws IOException {
        Path memories = TenantHomes.home(root, user).resolve("memories");
        Files.createDirectories(memories);
        Files.writeString(memories.resolve("memory_summary.md"), "v1\n" + text);
    }

    static ChatClient.ChatClientRequestSpec ask(String conversation, String question) {
        return chat.prompt().user(question).advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversation));
    }

    static List<WireRequest> chatRequestsAsking(String question) {
        return server.requests().stream().filter(r -> r.lastUserText().equals(question)).toList();
    }

    static String rolloutsOf(String user) throws IOException {
        Path sessions = TenantHomes.home(home, user).resolve("sessions");
        if (!Files.isDirectory(sessions)) {
            return "";
        }
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(sessions)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                all.append(Files.readString(file));
            }
        }
        return all.toString();
    }

    @Test
    void theAdvisorParam_picksTheUser_whoseMemoryAloneIsReadAndRecorded() throws IOException {
        script.enqueue(WireReply.text("Monday."));

        String answer = chat.prompt().user("When do I deploy, param?").advisors(a -> a
                .param(MnemoAdvisor.USER_ID, "alice").param(ChatMemory.CONVERSATION_ID, "alice-1")).call().content();

        assertThat(answer).isEqualTo("Monday.");
        assertThat(chatRequestsAsking("When do I deploy, param?")).singleElement()
                .satisfies(r -> assertThat(r.systemText()).contains("Alice deploys on Mondays.").doesNotContain("Bob"));
        assertThat(rolloutsOf("alice")).contains("When do I deploy, param?").contains("Monday.");
        assertThat(rolloutsOf("bob")).doesNotContain("When do I deploy, param?");
    }

    @Test
    void theSignedInUser_isTheRequestsUser_forCallAndStream() throws IOException {
        SecurityContextHolder.getContext()
                .setAuthentication(UsernamePasswordAuthenticationToken.authenticated("bob", null, List.of()));
        script.enqueue(WireReply.text("Friday."));
        script.enqueue(WireReply.text("Friday, streamed.", "Friday,", " streamed."));

        String called = ask("bob-1", "When do I deploy, signed in?").call().content();
        String streamed = String.join("", ask("bob-1", "And streamed, signed in?").stream().content().collectList()
                .block());

        assertThat(called).isEqualTo("Friday.");
        assertThat(streamed).isEqualTo("Friday, streamed.");
        assertThat(chatRequestsAsking("When do I deploy, signed in?")).singleElement()
                .satisfies(r -> assertThat(r.systemText()).contains("Bob deploys on Fridays.").doesNotContain("Alice"));
        assertThat(rolloutsOf("bob")).contains("When do I deploy, signed in?").contains("Friday, streamed.");
        assertThat(rolloutsOf("alice")).doesNotContain("signed in?");
    }

    @Test
    void aRequestWithoutAUser_readsNoMemory_offersNoTool_andRecordsNothing() throws IOException {
        script.enqueue(WireReply.text("Nobody.<oai-mem-citation><rollout_ids>\nx\n</rollout_ids></oai-mem-citation>"));
        long folders;
        try (Stream<Path> homes = Files.list(home)) {
            folders = homes.count();
        }

        String answer = ask("anon-1", "Who am I, anonymous?").call().content();

        assertThat(answer).isEqualTo("Nobody.");
        assertThat(chatRequestsAsking("Who am I, anonymous?")).singleElement().satisfies(r -> {
            assertThat(r.systemText()).isEqualTo("You are terse.");
            assertThat(r.toolNames()).isEmpty();
        });
        try (Stream<Path> homes = Files.list(home)) {
            assertThat(homes.count()).isEqualTo(folders);
        }
        assertThat(rolloutsOf("alice") + rolloutsOf("bob")).doesNotContain("anonymous");
    }

    @Test
    void theSchedule_runsEveryOpenUsersPipeline_withoutCountingAsUse_andTheTokensAreCounted() {
        MemoryEngines engines = context.getBean(MemoryEngines.class);
        MeterRegistry meters = context.getBean(MeterRegistry.class);
        script.enqueue(WireReply.text("Noted, Erin."));
        script.enqueue(WireReply.text("Noted, Dora."));
        chat.prompt().user("Erin here.").advisors(a -> a.param(MnemoAdvisor.USER_ID, "erin")
                .param(ChatMemory.CONVERSATION_ID, "erin-1")).call().content();
        chat.prompt().user("Dora here.").advisors(a -> a.param(MnemoAdvisor.USER_ID, "dora")
                .param(ChatMemory.CONVERSATION_ID, "dora-1")).call().content();
        assertThat(engines.openTenants()).containsExactly("dora", "erin"); // max-open 2; erin the least recent
        awaitStartupTasks(engines, "erin", "dora");
        CLOCK.advance(Duration.ofHours(7));
        long phase1Before = server.requests().stream().filter(ChatScript::isPhase1).count();
        double tokensBefore = tokens(meters, "phase1");

        List<StartupTask> started = context.getBean(MnemoPipelineSchedule.class).runOnce();
        started.forEach(task -> task.completion().join());

        assertThat(started).hasSize(2);
        long phase1Requests = server.requests().stream().filter(ChatScript::isPhase1).count() - phase1Before;
        assertThat(phase1Requests).isEqualTo(2); // erin-1 and dora-1, each in its user's engine
        assertThat(tokens(meters, "phase1")).isEqualTo(tokensBefore + 15.0 * phase1Requests);

        engines.forTenant("frank"); // one engine too many: the least recently *used* one goes, not the last visited
        assertThat(engines.openTenants()).containsExactly("dora", "frank");
    }

    static void awaitStartupTasks(MemoryEngines engines, String... users) {
        for (String user : users) {
            try (MemoryEngines.Lease lease = engines.lease(user)) {
                lease.engine().conversation(user + "-1").startupTask().completion().join();
            }
        }
    }

    static double tokens(MeterRegistry meters, String phase) {
        Counter counter = meters.find("mnemo.tokens").tag("phase", phase).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void actuatorHealth_isUp_withOpenEnginesAndTheirStorage() {
        IndicatedHealthDescriptor mnemo = (IndicatedHealthDescriptor) context.getBean(HealthEndpoint.class)
                .healthForPath("mnemo");

        assertThat(mnemo.getStatus()).isEqualTo(Status.UP);
        assertThat(mnemo.getDetails()).containsKeys("openEngines", "failingEngines", "pipelineSchedule")
                .containsEntry("storage", "homes under " + home);
    }

    @Test
    void aMnemoTenantResolverBean_aloneDecidesTheUser() throws IOException {
        Path root = Files.createDirectories(home.resolve("resolved"));
        summary(root, "carol", "Carol deploys on Wednesdays.");
        try (ConfigurableApplicationContext resolved = new SpringApplicationBuilder(App.class, ResolverConfig.class)
                .properties(properties("mnemo.home=" + root, "mnemo.pipeline.schedule.enabled=false")).run()) {
            ChatClient carols = resolved.getBean(ChatClient.Builder.class)
                    .defaultAdvisors(resolved.getBean(MnemoAdvisor.class)).build();
            SecurityContextHolder.getContext()
                    .setAuthentication(UsernamePasswordAuthenticationToken.authenticated("bob", null, List.of()));
            script.enqueue(WireReply.text("Wednesday."));

            String answer = carols.prompt().user("When do I deploy, resolved?").advisors(a -> a
                    .param(MnemoAdvisor.USER_ID, "alice").param(ChatMemory.CONVERSATION_ID, "c-1")).call().content();

            assertThat(answer).isEqualTo("Wednesday.");
            assertThat(chatRequestsAsking("When do I deploy, resolved?")).singleElement().satisfies(r -> assertThat(
                    r.systemText()).contains("Carol deploys on Wednesdays.").doesNotContain("Alice").doesNotContain("Bob"));
            assertThat(resolved.getBean(MemoryEngines.class).openTenants()).containsExactly("carol");
        }
    }

    @Test
    void aMnemoProjectResolverBean_putsARequestInItsProject_andTheProjectParamWinsOverIt() throws IOException {
        Path root = Files.createDirectories(home.resolve("projects"));
        ProjectMemories.plant(TenantHomes.home(root, "dana"), "acme/web", "acme/api");
        try (ConfigurableApplicationContext resolved = new SpringApplicationBuilder(App.class, ProjectConfig.class)
                .properties(properties("mnemo.home=" + root, "mnemo.pipeline.schedule.enabled=false")).run()) {
            ChatClient danas = resolved.getBean(ChatClient.Builder.class)
                    .defaultAdvisors(resolved.getBean(MnemoAdvisor.class)).build();
            script.enqueue(WireReply.text("pnpm.")).enqueue(WireReply.text("npm."));

            danas.prompt().user("How do I install, resolved?").advisors(a -> a.param(MnemoAdvisor.USER_ID, "dana")
                    .param(ChatMemory.CONVERSATION_ID, "d-1")).call().content();
            danas.prompt().user("How do I install, by param?").advisors(a -> a.param(MnemoAdvisor.USER_ID, "dana")
                    .param(ChatMemory.CONVERSATION_ID, "d-2").param(MnemoAdvisor.PROJECT, "acme/api")).call().content();

            assertThat(chatRequestsAsking("How do I install, resolved?")).singleElement().satisfies(r -> assertThat(
                    r.systemText()).contains(ProjectMemories.PNPM_FACT, ProjectMemories.GLOBAL_FACT)
                    .doesNotContain(ProjectMemories.NPM_FACT));
            assertThat(chatRequestsAsking("How do I install, by param?")).singleElement().satisfies(r -> assertThat(
                    r.systemText()).contains(ProjectMemories.NPM_FACT, ProjectMemories.GLOBAL_FACT)
                    .doesNotContain(ProjectMemories.PNPM_FACT));
        }
    }

    @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
    static class ProjectConfig {
        @Bean
        MnemoProjectResolver mnemoProjectResolver() {
            return request -> Optional.of("acme/web");
        }
    }

    @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
    static class ResolverConfig {
        @Bean
        MnemoTenantResolver mnemoTenantResolver() {
            return request -> Optional.of("carol");
        }
    }
}
