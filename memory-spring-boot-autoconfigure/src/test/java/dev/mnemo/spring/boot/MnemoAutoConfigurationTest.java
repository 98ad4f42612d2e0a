package dev.mnemo.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.MemorySession;
import dev.mnemo.SessionContext;
import dev.mnemo.SkipReason;
import dev.mnemo.TenantHomes;
import dev.mnemo.springai.MnemoAdvisor;
import dev.mnemo.store.sqlite.SqliteMemoryStore;
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

    ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(MnemoAutoConfiguration.class))
                .withPropertyValues("mnemo.home=" + home);
    }

    @Test
    void defaults_giveAnEngineWithCodexDefaults_anAdvisor_andTheChatClientCustomizer() {
        runner().run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(MemoryEngine.class).config()).isEqualTo(MemoriesConfig.defaults());
            assertThat(context.getBean(MnemoProperties.class).getMemories().toConfig())
                    .isEqualTo(MemoriesConfig.defaults());
            assertThat(context).hasSingleBean(MnemoAdvisor.class).hasSingleBean(ChatClientBuilderCustomizer.class);
            assertThat(home.resolve("mnemo.sqlite")).exists();
        });
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
    void advisorOptOut_leavesChatClientsAlone_butKeepsTheEngineAndAdvisor() {
        runner().withPropertyValues("mnemo.chat-client.advisor.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(ChatClientBuilderCustomizer.class);
            assertThat(context).hasSingleBean(MemoryEngine.class).hasSingleBean(MnemoAdvisor.class);
        });
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
            assertThat(registry.find("mnemo.startup.duration").timer()).isNotNull()
                    .satisfies(t -> assertThat(t.count()).isEqualTo(1));
            assertThat(registry.find("mnemo.startup.skipped").tag("reason", "no_model").counter()).isNotNull();
        });
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
