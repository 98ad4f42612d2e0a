package dev.mnemo.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.Phase2Report;
import dev.mnemo.StartupTask;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.springai.MnemoAdvisor;
import dev.mnemo.springai.SpringAiLanguageModel;
import dev.mnemo.testkit.ChatScript;
import dev.mnemo.testkit.ManualClock;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * The {@code mnemo.*} meters with the values they must have, in an application whose pipeline runs
 * only when the test says: every model call the pipeline makes adds its tokens (the wire server
 * reports 10 input and 5 output tokens per answer), whether the call came from
 * {@code runPhase1}, {@code runPhase2} or a scheduled run.
 */
class MetricsEndToEndTest {

    @TempDir
    Path home;

    final ManualClock clock = new ManualClock(Instant.parse("2026-11-01T09:00:00Z"));
    ChatScript script;
    OpenAiWireServer server;
    ConfigurableApplicationContext context;
    ChatClient chat;
    MemoryEngine engine;
    MeterRegistry meters;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
        static ManualClock clock;

        @Bean
        MemoryEngineBuilderCustomizer testClock() {
            return builder -> builder.clock(clock);
        }
    }

    /** An engine the application builds itself, with the listener beans (the meters among them) registered. */
    static class OwnEngine {
        static Path home;

        @Bean
        MemoryEngine ownEngine(ChatModel model, ObjectProvider<MemoryEventListener> listeners) {
            MemoryEngine.Builder builder = MemoryEngine.builder().home(home).model(SpringAiLanguageModel.of(model))
                    .clock(App.clock);
            listeners.orderedStream().forEach(builder::listener);
            return builder.build();
        }
    }

    @BeforeEach
    void start() {
        script = ChatScript.create();
        server = OpenAiWireServer.start(script);
        App.clock = clock;
        run(new SpringApplicationBuilder(App.class).properties("mnemo.tenancy=shared", "mnemo.home=" + home));
    }

    void run(SpringApplicationBuilder application) {
        context = application.properties(
                "spring.main.web-application-type=none", "spring.main.banner-mode=off",
                "spring.ai.openai.base-url=" + server.baseUrl(), "spring.ai.openai.api-key=test-key",
                "spring.ai.openai.chat.model=gpt-test", "spring.ai.openai.max-retries=0",
                "mnemo.pipeline.schedule.interval=1h") // runs only when the test calls runOnce()
                .run();
        chat = context.getBean(ChatClient.Builder.class).defaultAdvisors(context.getBean(MnemoAdvisor.class)).build();
        engine = context.getBean(MemoryEngine.class);
        meters = context.getBean(MeterRegistry.class);
    }

    @AfterEach
    void stop() {
        context.close();
        server.close();
    }

    /** Asks in a new conversation and waits for the startup task its opening started. */
    void askAndSettle(String conversation) {
        script.enqueue(WireReply.text("Use ./gradlew build."));
        chat.prompt().user("How do I build?").advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversation))
                .call().content();
        engine.conversation(conversation).startupTask().completion().join();
    }

    double count(String name, String tag, String value) {
        Counter counter = meters.find(name).tag(tag, value).counter();
        return counter == null ? 0 : counter.count();
    }

    double totalCount(String name) {
        return meters.find(name).counters().stream().mapToDouble(Counter::count).sum();
    }

    long timed(String name) {
        return meters.find(name).timers().stream().mapToLong(t -> t.count()).sum();
    }

    long phase1Requests() {
        return server.requests().stream().filter(ChatScript::isPhase1).count();
    }

    long consolidationRequests() {
        return server.requests().stream().filter(ChatScript::isConsolidation).count();
    }

    @Test
    void tokens_countEveryPipelineModelCall_fromRunPhase1RunPhase2AndTheSchedule() {
        askAndSettle("m-1");
        assertThat(phase1Requests()).as("nothing idle yet").isZero();
        assertThat(count("mnemo.tokens", "phase", "phase1")).isZero();
        clock.advance(Duration.ofHours(7));

        Phase1Report phase1 = engine.admin().runPhase1("m-runner");

        assertThat(phase1.succeeded()).isEqualTo(1);
        assertThat(phase1Requests()).isEqualTo(1);
        assertThat(count("mnemo.tokens", "phase", "phase1")).isEqualTo(15.0);
        assertThat(count("mnemo.phase1.jobs", "outcome", "succeeded")).isEqualTo(1.0);

        double runsBefore = totalCount("mnemo.phase2.runs");
        long timedBefore = timed("mnemo.phase2.duration");

        Phase2Report phase2 = engine.admin().runPhase2();

        // The test server's consolidation turn writes no MEMORY.md, which Phase 2 rejects: a run that held the lock.
        assertThat(phase2.outcome()).isEqualTo(Phase2Outcome.FAILED);
        assertThat(consolidationRequests()).isPositive();
        assertThat(count("mnemo.tokens", "phase", "phase2")).isEqualTo(15.0 * consolidationRequests());
        assertThat(totalCount("mnemo.phase2.runs")).isEqualTo(runsBefore + 1);
        assertThat(count("mnemo.phase2.runs", "outcome", "failed")).isEqualTo(1.0);
        assertThat(timed("mnemo.phase2.duration")).isEqualTo(timedBefore + 1);

        askAndSettle("m-2");
        clock.advance(Duration.ofHours(7));
        List<StartupTask> scheduled = context.getBean(MnemoPipelineSchedule.class).runOnce();
        scheduled.forEach(task -> task.completion().join());

        assertThat(phase1Requests()).isEqualTo(2);
        assertThat(count("mnemo.tokens", "phase", "phase1")).isEqualTo(30.0);
        assertThat(count("mnemo.tokens", "phase", "phase2")).isEqualTo(15.0 * consolidationRequests());
        assertThat(count("mnemo.phase1.jobs", "outcome", "succeeded")).isEqualTo(2.0);
        assertThat(meters.find("mnemo.tokens").tag("phase", "other").counter()).isNull();
    }

    @Test
    void tokens_countForAnEngineTheApplicationBuilds_whenItRegistersTheListenerBeans() {
        context.close();
        OwnEngine.home = home.resolve("own");
        run(new SpringApplicationBuilder(App.class, OwnEngine.class));
        askAndSettle("o-1");
        clock.advance(Duration.ofHours(7));

        Phase1Report phase1 = engine.admin().runPhase1("o-runner");

        assertThat(phase1.succeeded()).isEqualTo(1);
        assertThat(count("mnemo.tokens", "phase", "phase1")).isEqualTo(15.0);
    }

    @Test
    void citations_countTheMemoriesWhoseUsageWentUp() {
        askAndSettle("c-1");
        clock.advance(Duration.ofHours(7));
        engine.admin().runPhase1("c-runner");
        script.enqueue(WireReply.text("Run it.<oai-mem-citation><rollout_ids>\nc-1\nunknown\n</rollout_ids>"
                + "</oai-mem-citation>"));

        chat.prompt().user("Again?").advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c-2")).call().content();

        assertThat(meters.find("mnemo.citations.counted").counter().count()).isEqualTo(1.0);
    }
}
