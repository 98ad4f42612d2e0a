package dev.mnemo.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.knuddels.jtokkit.api.EncodingType;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.MemorySession;
import dev.mnemo.SessionContext;
import dev.mnemo.SkipReason;
import dev.mnemo.TenantHomes;
import dev.mnemo.llm.TokenCounter;
import dev.mnemo.springai.MnemoAdvisor;
import dev.mnemo.store.sqlite.SqliteMemoryStore;
import dev.mnemo.testkit.ManualClock;
import dev.mnemo.workspace.git.GitMemoryWorkspace;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClientBuilderCustomizer;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.tokenizer.JTokkitTokenCountEstimator;
import org.springframework.ai.tokenizer.TokenCountEstimator;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The auto-configuration's beans and properties, in application contexts built the way Boot
 * builds them (no model here: what the engine does with one is {@code StarterEndToEndTest}'s).
 */
class MnemoAutoConfigurationTest {

    @TempDir
    Path home;

    /** No tenancy chosen: what an application gets before it decides. */
    ApplicationContextRunner bare() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(MnemoAutoConfiguration.class))
                .withPropertyValues("mnemo.home=" + home);
    }

    ApplicationContextRunner runner() {
        return bare().withPropertyValues("mnemo.tenancy=shared");
    }

    @Test
    void shared_givesAnEngineWithCodexDefaults_andAnAdvisor_butAddsItToNoChatClient() {
        runner().run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(MemoryEngine.class).config()).isEqualTo(MemoriesConfig.defaults());
            assertThat(context.getBean(MnemoProperties.class).getMemories().toConfig())
                    .isEqualTo(MemoriesConfig.defaults());
            assertThat(context).hasSingleBean(MnemoAdvisor.class).doesNotHaveBean(ChatClientBuilderCustomizer.class)
                    .doesNotHaveBean(MemoryEngines.class);
            assertThat(home.resolve("mnemo.sqlite")).exists();
        });
    }

    @Test
    void withoutATenancy_theApplicationDoesNotStart_andTheMessageNamesThePropertyAndBothValues() {
        bare().run(context -> assertThat(context).hasFailed().getFailure()
                .hasStackTraceContaining("mnemo.tenancy=shared").hasStackTraceContaining("mnemo.tenancy=per-user"));
        assertThat(home.resolve("mnemo.sqlite")).doesNotExist();
    }

    @Test
    void withoutATenancy_anApplicationsOwnEngineOrEngines_keepWorking() {
        bare().withUserConfiguration(OwnBeans.class).run(context -> assertThat(context).hasNotFailed()
                .hasSingleBean(MnemoAdvisor.class));
        bare().withBean(MemoryEngines.class, () -> MemoryEngines.builder()
                .engineFactory(TenantHomes.under(home.resolve("own-tenants"), MemoryEngine::builder)).build())
                .run(context -> assertThat(context).hasNotFailed().hasSingleBean(MnemoAdvisor.class)
                        .doesNotHaveBean(MemoryEngine.class));
    }

    @Test
    void perUser_givesMemoryEngines_withOneHomePerUserUnderMnemoHome_andNoSharedEngine() {
        bare().withPropertyValues("mnemo.tenancy=per-user", "mnemo.tenants.max-open=7").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(MemoryEngines.class).doesNotHaveBean(MemoryEngine.class)
                    .hasSingleBean(MnemoAdvisor.class);
            MemoryEngines engines = context.getBean(MemoryEngines.class);
            try (MemoryEngines.Lease alice = engines.lease("alice")) {
                alice.engine().conversation("a-1").userMessage("hello");
            }
            assertThat(TenantHomes.home(home, "alice").resolve("mnemo.sqlite")).exists();
            assertThat(home.resolve("mnemo.sqlite")).doesNotExist();
            for (int i = 0; i < 8; i++) {
                engines.forTenant("user-" + i);
            }
            assertThat(engines.openCount()).isLessThanOrEqualTo(7);
        });
    }

    @Test
    void tenancyValues_bindAsBootBindsEnums() {
        bare().withPropertyValues("mnemo.tenancy=PER_USER").run(context ->
                assertThat(context).hasNotFailed().hasSingleBean(MemoryEngines.class));
        bare().withPropertyValues("mnemo.tenancy=everyone").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("mnemo.tenancy"));
    }

    @Test
    void theAdvisorOnEveryChatClient_isOptIn() {
        runner().withPropertyValues("mnemo.chat-client.advisor.enabled=true").run(context ->
                assertThat(context).hasSingleBean(ChatClientBuilderCustomizer.class));
    }

    @Test
    void conversationsIdleLongerThanTheTimeout_areClosedByTheNextPipelineRun() {
        ManualClock clock = new ManualClock(java.time.Instant.parse("2026-11-01T09:00:00Z"));
        ApplicationContextRunner withClock = runner().withBean(MemoryEngineBuilderCustomizer.class,
                () -> builder -> builder.clock(clock));

        withClock.withPropertyValues("mnemo.conversations.idle-timeout=5m").run(context -> {
            MemoryEngine engine = context.getBean(MemoryEngine.class);
            engine.conversation("idle").userMessage("hello");
            clock.advance(java.time.Duration.ofMinutes(6));
            engine.admin().startPipeline().completion().join();
            assertThat(engine.closeConversation("idle")).as("still open after the pipeline's sweep").isFalse();
        });
        withClock.run(context -> { // default 30 minutes
            MemoryEngine engine = context.getBean(MemoryEngine.class);
            engine.conversation("busy").userMessage("hello");
            clock.advance(java.time.Duration.ofMinutes(6));
            engine.admin().startPipeline().completion().join();
            assertThat(engine.closeConversation("busy")).as("still open after the pipeline's sweep").isTrue();
        });
    }

    @Test
    void badDurations_failTheContext_namingTheProperty() {
        runner().withPropertyValues("mnemo.conversations.idle-timeout=0s").run(context ->
                assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("mnemo.conversations.idle-timeout"));
        runner().withPropertyValues("mnemo.pipeline.schedule.interval=-1m").run(context ->
                assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("mnemo.pipeline.schedule.interval"));
    }

    @Test
    void theEngine_isClosedWithTheContext() {
        MemoryEngine[] engine = new MemoryEngine[1];
        runner().run(context -> engine[0] = context.getBean(MemoryEngine.class));

        assertThatThrownBy(() -> engine[0].conversation("after-shutdown")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void everyMemoriesKey_bindsFromItsKebabCaseProperty() {
        runner().withPropertyValues("mnemo.memories.generate-memories=false", "mnemo.memories.use-memories=false",
                "mnemo.memories.dedicated-tools=true", "mnemo.memories.disable-on-external-context=true",
                "mnemo.memories.max-raw-memories-for-consolidation=64", "mnemo.memories.max-unused-days=7",
                "mnemo.memories.max-rollout-age-days=3", "mnemo.memories.max-rollouts-per-startup=4",
                "mnemo.memories.min-rollout-idle-hours=2", "mnemo.memories.min-rate-limit-remaining-percent=10",
                "mnemo.memories.extract-model=gpt-mini", "mnemo.memories.consolidation-model=gpt-big",
                "mnemo.memories.memory-sources=app", "mnemo.memories.phase1-concurrency=2",
                "mnemo.memories.history-retention=0", "mnemo.memories.consolidation-timeout-minutes=5",
                "mnemo.memories.summary-token-limit=1000").run(context -> {
                    MemoriesConfig expected = MemoriesConfig.builder().generateMemories(false).useMemories(false)
                            .dedicatedTools(true).disableOnExternalContext(true).maxRawMemoriesForConsolidation(64)
                            .maxUnusedDays(7).maxRolloutAgeDays(3).maxRolloutsPerStartup(4).minRolloutIdleHours(2)
                            .minRateLimitRemainingPercent(10).extractModel("gpt-mini").consolidationModel("gpt-big")
                            .memorySources(java.util.List.of("app")).phase1Concurrency(2).historyRetention(0)
                            .consolidationTimeoutMinutes(5).summaryTokenLimit(1000).build();
                    assertThat(context.getBean(MemoryEngine.class).config()).isEqualTo(expected);
                });
    }

    @Test
    void outOfRangeValues_areClampedAsInConfigToml() {
        runner().withPropertyValues("mnemo.memories.max-raw-memories-for-consolidation=99999",
                "mnemo.memories.min-rollout-idle-hours=0", "mnemo.memories.summary-token-limit=10").run(context -> {
                    MemoriesConfig config = context.getBean(MemoryEngine.class).config();
                    assertThat(config.maxRawMemoriesForConsolidation()).isEqualTo(4096);
                    assertThat(config.minRolloutIdleHours()).isEqualTo(1);
                    assertThat(config.summaryTokenLimit()).isEqualTo(500);
                });
    }

    @Test
    void aValueOfTheWrongType_failsTheContext_namingTheProperty() {
        runner().withPropertyValues("mnemo.memories.max-unused-days=a month").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("mnemo.memories.max-unused-days"));
    }

    @Test
    void aBlankModelName_failsTheContext_namingTheProperty() {
        runner().withPropertyValues("mnemo.memories.extract-model= ").run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("mnemo.memories.extract-model")
                        .hasStackTraceContaining("must not be blank"));
    }

    @Test
    void aHomeThatIsAFile_failsTheContext_namingTheProperty() throws IOException {
        Path file = Files.writeString(home.resolve("not-a-folder"), "x");
        runner().withPropertyValues("mnemo.home=" + file).run(context ->
                assertThat(context).hasFailed().getFailure().hasStackTraceContaining("mnemo.home"));
    }

    @Test
    void theApplicationsOwnEngineAndAdvisor_win() {
        runner().withUserConfiguration(OwnBeans.class).run(context -> {
            assertThat(context).hasSingleBean(MemoryEngine.class).hasSingleBean(MnemoAdvisor.class);
            assertThat(context.getBean(MemoryEngine.class)).isSameAs(context.getBean("ownEngine"));
            assertThat(context.getBean(MnemoAdvisor.class).getOrder()).isEqualTo(42);
            assertThat(home.resolve("mnemo.sqlite")).doesNotExist();
        });
    }

    @Test
    void theApplicationsMemoryEngines_replaceTheSingleEngine_andTheAdvisorAsksForAUser() {
        runner().withBean(MemoryEngines.class, () -> MemoryEngines.builder()
                .engineFactory(TenantHomes.under(home.resolve("tenants"), MemoryEngine::builder)).build())
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean(MemoryEngine.class)
                            .hasSingleBean(MnemoAdvisor.class);
                    HealthIndicator health = context.getBean("mnemoHealthIndicator", HealthIndicator.class);
                    assertThat(health.health().getStatus()).isEqualTo(Status.UP);
                    assertThat(health.health().getDetails()).containsEntry("openEngines", 0);
                });
    }

    @Test
    void theApplicationsMemoryEngines_theScheduleAndHealthVisitItsOpenEngines() {
        runner().withBean(MemoryEngines.class, () -> MemoryEngines.builder()
                .engineFactory(TenantHomes.under(home.resolve("tenants"), MemoryEngine::builder)).build())
                .run(context -> {
                    MemoryEngines engines = context.getBean(MemoryEngines.class);
                    engines.forTenant("alice");
                    engines.forTenant("bob");

                    java.util.List<dev.mnemo.StartupTask> started = context.getBean(MnemoPipelineSchedule.class)
                            .runOnce();

                    assertThat(started).hasSize(2).allSatisfy(task ->
                            assertThat(task.completion().join().skipped()).contains(SkipReason.NO_MODEL));
                    HealthIndicator health = context.getBean("mnemoHealthIndicator", HealthIndicator.class);
                    assertThat(health.health().getDetails()).containsEntry("openEngines", 2)
                            .containsEntry("failingEngines", 0).doesNotContainKey("storage");
                });
    }

    /** A model that is never asked anything here: a fresh home has nothing to distil. */
    static ChatModel idleModel() {
        return prompt -> {
            throw new IllegalStateException("no request expected");
        };
    }

    static java.util.Optional<SkipReason> startupSkip(MemoryEngine engine, String conversation) {
        try (MemorySession session = engine.openSession(SessionContext.root(conversation))) {
            return session.startupTask().completion().join().skipped();
        }
    }

    @Test
    void withSeveralChatModels_mnemoModelChatModel_picksThePipelinesModel() {
        ApplicationContextRunner twoModels = runner().withBean("fast", ChatModel.class,
                MnemoAutoConfigurationTest::idleModel).withBean("smart", ChatModel.class,
                MnemoAutoConfigurationTest::idleModel);

        twoModels.run(context -> assertThat(startupSkip(context.getBean(MemoryEngine.class), "unnamed"))
                .contains(SkipReason.NO_MODEL));
        twoModels.withPropertyValues("mnemo.model.chat-model=smart").run(context ->
                assertThat(startupSkip(context.getBean(MemoryEngine.class), "named")).isEmpty());
    }

    @Test
    void anUnknownChatModelName_failsTheContext_namingTheProperty() {
        runner().withBean("fast", ChatModel.class, MnemoAutoConfigurationTest::idleModel)
                .withPropertyValues("mnemo.model.chat-model=smart").run(context ->
                        assertThat(context).hasFailed().getFailure()
                                .hasStackTraceContaining("mnemo.model.chat-model").hasStackTraceContaining("fast"));
    }


    @Test
    void health_isUpWithJobCountsAndLastConsolidation() {
        runner().run(context -> {
            HealthIndicator health = context.getBean("mnemoHealthIndicator", HealthIndicator.class);
            assertThat(health.health().getStatus()).isEqualTo(Status.UP);
            assertThat(health.health().getDetails()).containsKeys("jobs", "threads", "memories")
                    .containsEntry("lastConsolidation", "never");
        });
    }

    @Test
    void health_showsTheDailyExtractionBudget_asADetail_andStaysUpWhenItIsSpent() {
        runner().withPropertyValues("mnemo.memories.max-extraction-tokens-per-day=1000").run(context -> {
            HealthIndicator health = context.getBean("mnemoHealthIndicator", HealthIndicator.class);
            assertThat(health.health().getDetails()).containsKey("extractionBudget");
            assertThat(health.health().getDetails().get("extractionBudget"))
                    .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                    .containsEntry("spentTokens", 0L).containsEntry("limitTokens", 1000L)
                    .containsEntry("exhausted", false);

            // A spent budget is the limit working: still UP, with the detail saying so.
            try (SqliteMemoryStore store = SqliteMemoryStore.open(home.resolve("mnemo.sqlite"))) {
                java.time.LocalDate today = dev.mnemo.ExtractionBudget.dayOf(java.time.Instant.now());
                assertThat(store.reserveExtractionTokens(today, 1000, 1000, java.time.Instant.now())).isTrue();
            }
            assertThat(health.health().getStatus()).isEqualTo(Status.UP);
            assertThat(health.health().getDetails().get("extractionBudget"))
                    .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.MAP)
                    .containsEntry("exhausted", true);
        });
        runner().run(context -> assertThat(context.getBean("mnemoHealthIndicator", HealthIndicator.class).health()
                .getDetails()).doesNotContainKey("extractionBudget"));
    }

    @Test
    void health_isDownWhenTheStoreCannotBeRead() {
        SqliteMemoryStore store = SqliteMemoryStore.open(home.resolve("own.sqlite"));
        GitMemoryWorkspace workspace = GitMemoryWorkspace.open(home.resolve("own-memories"));
        runner().withBean("ownEngine", MemoryEngine.class, () -> MemoryEngine.builder().home(home).store(store)
                .workspace(workspace).build()).run(context -> {
                    store.close();
                    HealthIndicator health = context.getBean("mnemoHealthIndicator", HealthIndicator.class);
                    assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
                    assertThat(health.health().getDetails()).containsKey("error");
                });
        workspace.close();
    }

    @Test
    void metrics_countStartupRuns_whenAMeterRegistryIsThere() {
        runner().withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
            MemoryEngine engine = context.getBean(MemoryEngine.class);
            try (MemorySession session = engine.openSession(SessionContext.root("metrics"))) {
                session.startupTask().completion().join();
            }
            MeterRegistry registry = context.getBean(MeterRegistry.class);
            assertThat(registry.find("mnemo.startup.duration").tag("outcome", "skipped").timer().count())
                    .isEqualTo(1);
            assertThat(registry.find("mnemo.startup.skipped").tag("reason", "no_model").counter().count())
                    .isEqualTo(1.0);
            assertThat(registry.find("mnemo.tokens").counters()).as("no model, no call, no token").isEmpty();
        });
    }

    @Test
    void perUserHealth_probesTheFolderEveryUsersHomeIsIn_andIsDownWhenItIsGone() throws IOException {
        Path root = home.resolve("users");
        bare().withPropertyValues("mnemo.tenancy=per-user", "mnemo.home=" + root).run(context -> {
            HealthIndicator health = context.getBean("mnemoHealthIndicator", HealthIndicator.class);
            context.getBean(MemoryEngines.class).forTenant("alice");
            assertThat(health.health().getStatus()).isEqualTo(Status.UP);
            assertThat(health.health().getDetails()).containsEntry("openEngines", 1)
                    .containsEntry("failingEngines", 0).containsEntry("storage", "homes under " + root);

            deleteRecursively(root); // the disk every user's home is on is gone
            Files.writeString(root, "not a folder");

            assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.health().getDetails()).containsKey("error");
        });
    }

    static void deleteRecursively(Path root) throws IOException {
        try (java.util.stream.Stream<Path> files = Files.walk(root)) {
            for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }

    @Test
    void theSchedule_startsThePipelineOfTheSharedEngine_andStopsWithTheContext() {
        MnemoPipelineSchedule[] schedule = new MnemoPipelineSchedule[1];
        runner().withPropertyValues("mnemo.pipeline.schedule.interval=10m").run(context -> {
            schedule[0] = context.getBean(MnemoPipelineSchedule.class);
            assertThat(schedule[0].interval()).isEqualTo(java.time.Duration.ofMinutes(10));
            assertThat(schedule[0].isRunning()).isTrue();
            assertThat(schedule[0].lastRun()).isEmpty();

            java.util.List<dev.mnemo.StartupTask> started = schedule[0].runOnce();

            assertThat(started).hasSize(1);
            assertThat(started.get(0).completion().join().skipped()).contains(SkipReason.NO_MODEL);
            assertThat(schedule[0].lastRun()).isPresent();
            HealthIndicator health = context.getBean("mnemoHealthIndicator", HealthIndicator.class);
            assertThat(health.health().getDetails().get("pipelineSchedule")).asString().contains("PT10M")
                    .contains("lastRunEngines=1");
        });
        assertThat(schedule[0].isRunning()).isFalse();
    }

    @Test
    void theSchedule_runsOnItsOwnThread_atItsInterval() {
        runner().withPropertyValues("mnemo.pipeline.schedule.interval=50ms").run(context -> {
            MnemoPipelineSchedule schedule = context.getBean(MnemoPipelineSchedule.class);
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> schedule.lastRun().isPresent());
            assertThat(schedule.lastRunEngines()).isEqualTo(1);
        });
    }

    @Test
    void theSchedule_canBeTurnedOff() {
        runner().withPropertyValues("mnemo.pipeline.schedule.enabled=false").run(context ->
                assertThat(context).hasNotFailed().doesNotHaveBean(MnemoPipelineSchedule.class));
    }

    @Test
    void withoutActuatorOrMicrometer_onTheClassPath_theEngineAndAdvisorStillWork() {
        runner().withClassLoader(new FilteredClassLoader(HealthIndicator.class, MeterRegistry.class))
                .withBean(SimpleMeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(MemoryEngine.class)
                            .hasSingleBean(MnemoAdvisor.class).doesNotHaveBean("mnemoHealthIndicator")
                            .doesNotHaveBean("mnemoMetrics");
                });
    }

    @Test
    void aTokenCountEstimatorBean_countsThePipelinesTokens_andWithoutOneTheyAreEstimated() {
        ChatModel chatModel = prompt -> {
            throw new IllegalStateException("not called here");
        };
        JTokkitTokenCountEstimator estimator = new JTokkitTokenCountEstimator(EncodingType.O200K_BASE);
        String digest = "3f9a1c7e2b4d8f60a5e1c9b7d3f2a8e4c6b0d1f9";
        runner().withBean(ChatModel.class, () -> chatModel)
                .withBean(TokenCountEstimator.class, () -> estimator).run(context -> {
                    assertThat(context).hasNotFailed();
                    TokenCounter counter = MnemoAutoConfiguration.languageModel(chatModel, context.getBeanFactory())
                            .tokenCounter();
                    assertThat(counter.count(digest)).isEqualTo(estimator.estimate(digest))
                            .isNotEqualTo(TokenCounter.estimate().count(digest));
                });
        runner().withBean(ChatModel.class, () -> chatModel).run(context -> assertThat(
                MnemoAutoConfiguration.languageModel(chatModel, context.getBeanFactory()).tokenCounter())
                .isSameAs(TokenCounter.estimate()));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnBeans {
        @Bean
        MemoryEngine ownEngine(@org.springframework.beans.factory.annotation.Value("${mnemo.home}") Path home) {
            return MemoryEngine.builder().home(home.resolve("own")).build();
        }

        @Bean
        MnemoAdvisor ownAdvisor(MemoryEngine engine) {
            return MnemoAdvisor.builder(engine).order(42).build();
        }
    }
}
