package dev.mnemo.spring.boot;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.opentelemetry.MnemoTelemetry;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.springai.MnemoAdvisor;
import dev.mnemo.springai.MnemoProjectResolver;
import dev.mnemo.springai.MnemoTenantResolver;
import dev.mnemo.springai.SpringAiLanguageModel;
import dev.mnemo.springai.TenantChatMemoryRepository;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientBuilderCustomizer;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.tokenizer.TokenCountEstimator;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

/**
 * Mnemo in a Spring Boot application. Every bean backs off when the application declares its own.
 *
 * <ul>
 *   <li>{@code mnemo.tenancy=shared}: one {@link MemoryEngine} for the whole application, at
 *       {@code mnemo.home}.</li>
 *   <li>{@code mnemo.tenancy=per-user}: a {@link MemoryEngines}, one engine per user, each in its
 *       own home under {@code mnemo.home}, or a tenant of the application's {@code PostgresBackend}
 *       bean when it has one.</li>
 *   <li>Unset, without an application's own {@link MemoryEngine} or {@link MemoryEngines}: the
 *       application does not start. No memory is shared among users without that choice.</li>
 * </ul>
 * Every engine's Phase 1 and Phase 2 run on the application's {@link ChatModel} (the one named by
 * {@code mnemo.model.chat-model}, else the only one) through {@link SpringAiLanguageModel}, counting
 * tokens with the application's {@link TokenCountEstimator} bean when it has exactly one; every
 * {@link MemoryEventListener} bean hears its pipeline; {@link MemoryEngineBuilderCustomizer} beans
 * adjust its builder. Engines close with the context (running jobs released).
 *
 * <p>Also: the {@link MnemoAdvisor} bean, which a {@code ChatClient} adds to get memory
 * ({@code mnemo.chat-client.advisor.enabled=true} adds it to every client built from Boot's
 * builder); the pipeline schedule ({@code mnemo.pipeline.schedule.*}); with Actuator's health
 * module, the {@code mnemo} {@link HealthIndicator}; with Micrometer and a {@link MeterRegistry}
 * bean, meters under {@code mnemo.}; with memory-opentelemetry and an {@code OpenTelemetry} bean,
 * every engine's memory operations as OpenTelemetry spans ({@code mnemo.telemetry.*}).
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
    "org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration"})
@ConditionalOnClass({MemoryEngine.class, MnemoAdvisor.class, ChatModel.class})
@EnableConfigurationProperties(MnemoProperties.class)
public class MnemoAutoConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(MnemoAutoConfiguration.class);
    private static final String POSTGRES_BACKEND = "dev.mnemo.postgres.PostgresBackend";
    /** What a tenant resolver is asked with outside a chat request: no prompt, no advisor params. */
    private static final ChatClientRequest NO_REQUEST =
            ChatClientRequest.builder().prompt(new Prompt(List.of())).build();

    /**
     * One memory for the whole application.
     *
     * @param properties the {@code mnemo.*} properties
     * @param beans looked up for a {@code ChatModel} (by {@code mnemo.model.chat-model} when set)
     * @param listeners the application's {@code MemoryEventListener} beans, added to the engine
     * @param customizers the application's {@link MemoryEngineBuilderCustomizer} beans, run in their order on
     *     the builder
     * @return the shared engine, closed with the application context
     */
    @Bean
    @Conditional(TenancyCondition.Shared.class)
    @ConditionalOnMissingBean({MemoryEngine.class, MemoryEngines.class})
    public MemoryEngine mnemoMemoryEngine(MnemoProperties properties, ListableBeanFactory beans,
            ObjectProvider<MemoryEventListener> listeners, ObjectProvider<MemoryEngineBuilderCustomizer> customizers) {
        MemoryEngine.Builder builder = MemoryEngine.builder();
        properties.checkedHome().ifPresent(builder::home);
        return settings(properties, beans, listeners, customizers).apply(builder).build();
    }

    /** Where {@link #mnemoMemoryEngines} keeps each user's state; the health indicator probes it. */
    @Bean
    @Conditional(TenancyCondition.PerUser.class)
    @ConditionalOnMissingBean({MemoryEngine.class, MemoryEngines.class})
    TenantStorage mnemoTenantStorage(MnemoProperties properties, ListableBeanFactory beans) {
        Path root = properties.homeOrDefault();
        return knownTenantStorage(beans, root).orElseGet(() -> TenantStorage.homes(root));
    }

    /**
     * One memory per user: each user's engine opened on the first request and closed when idle.
     *
     * @param properties the {@code mnemo.*} properties
     * @param beans looked up for a {@code ChatModel} (by {@code mnemo.model.chat-model} when set) and a known
     *     backend
     * @param storages where each user's state is kept; {@link #mnemoTenantStorage} by default
     * @param listeners the application's {@code MemoryEventListener} beans, added to each engine
     * @param customizers the application's {@link MemoryEngineBuilderCustomizer} beans, run in their order on
     *     each engine's builder
     * @param clocks the clock deciding which users are due for the pipeline; the UTC system clock when none
     *     is declared
     * @return the per-user engines; each user's engine is opened on first use and closed when idle
     */
    @Bean
    @Conditional(TenancyCondition.PerUser.class)
    @ConditionalOnMissingBean({MemoryEngine.class, MemoryEngines.class})
    public MemoryEngines mnemoMemoryEngines(MnemoProperties properties, ListableBeanFactory beans,
            ObjectProvider<TenantStorage> storages, ObjectProvider<MemoryEventListener> listeners,
            ObjectProvider<MemoryEngineBuilderCustomizer> customizers, ObjectProvider<Clock> clocks) {
        properties.getTenants().check();
        TenantStorage storage = storages.getObject();
        EngineSettings settings = settings(properties, beans, listeners, customizers);
        LOG.info("Mnemo keeps one memory per user: {}; at most {} open, each closed after {} idle",
                storage.describe(), properties.getTenants().getMaxOpen(), properties.getTenants().getIdleTimeout());
        Function<String, MemoryEngine> factory = user -> storage.builder(user, settings).build();
        Optional<DueTenants> due = dueTenants(storage, properties, clocks);
        return MemoryEngines.builder().engineFactory(due.map(d -> DueWorkPass.marking(d, factory)).orElse(factory))
                .maxOpen(properties.getTenants().getMaxOpen()).idleTimeout(properties.getTenants().getIdleTimeout())
                .build();
    }

    /**
     * Over the {@link MemoryEngines} (each request's user from the {@link MnemoTenantResolver} bean,
     * else the advisor param {@link MnemoAdvisor#USER_ID}, else Spring Security's principal), else
     * over the {@link MemoryEngine}. Each request's project is the advisor param
     * {@link MnemoAdvisor#PROJECT}, else what the {@link MnemoProjectResolver} bean says, if there is
     * one.
     *
     * @param engines the per-user memories, when {@code mnemo.tenancy=per-user} or the application declares
     *     them
     * @param engine the shared memory, asked only when there are no {@code MemoryEngines}
     * @param resolver the application's tenant resolver, if it declares one
     * @param projects the application's project resolver, if it declares one
     * @return the advisor to add to a {@code ChatClient} with {@code defaultAdvisors(..)}
     * @throws InvalidConfigurationPropertyValueException when there is neither: no tenancy was chosen
     */
    @Bean
    @ConditionalOnMissingBean
    public MnemoAdvisor mnemoAdvisor(ObjectProvider<MemoryEngines> engines, ObjectProvider<MemoryEngine> engine,
            ObjectProvider<MnemoTenantResolver> resolver, ObjectProvider<MnemoProjectResolver> projects) {
        MemoryEngines users = engines.getIfUnique();
        MemoryEngine shared = users == null ? engine.getIfUnique() : null;
        MnemoAdvisor.Builder advisor = users != null
                ? MnemoAdvisor.builder(users).tenantResolver(resolver.getIfUnique(MnemoAutoConfiguration::defaultTenantResolver))
                : shared != null ? MnemoAdvisor.builder(shared) : null;
        if (advisor != null) {
            projects.ifUnique(advisor::projectResolver);
            return advisor.build();
        }
        throw new InvalidConfigurationPropertyValueException(MnemoProperties.PREFIX + ".tenancy", null,
                "Mnemo needs to know whose memory a request reads and records. Set mnemo.tenancy=shared (one memory "
                        + "for the whole application: a team bot, a single-user tool) or mnemo.tenancy=per-user (one "
                        + "memory per user, the user taken from a MnemoTenantResolver bean, the advisor param "
                        + "'mnemo_user_id' or Spring Security), or declare your own MemoryEngine or MemoryEngines bean");
    }

    /** The advisor param, else (with Spring Security on the class path) the authenticated principal. */
    private static MnemoTenantResolver defaultTenantResolver() {
        MnemoTenantResolver param = MnemoTenantResolver.advisorParam();
        if (ClassUtils.isPresent(SpringSecurityTenants.SECURITY_CONTEXT_HOLDER,
                MnemoAutoConfiguration.class.getClassLoader())) {
            return param.orElse(SpringSecurityTenants.principal());
        }
        return param;
    }

    private static EngineSettings settings(MnemoProperties properties, ListableBeanFactory beans,
            ObjectProvider<MemoryEventListener> listeners, ObjectProvider<MemoryEngineBuilderCustomizer> customizers) {
        properties.getConversations().check();
        return new EngineSettings(properties.getMemories().toConfig(),
                properties.getConversations().getIdleTimeout(), properties.getConversations().getMaxOpen(),
                chatModel(properties, beans).map(model -> languageModel(model, beans)),
                listeners.orderedStream().toList(), customizers.orderedStream().toList());
    }

    /** Over {@code chatModel}, counting tokens with the application's {@link TokenCountEstimator} bean if it has one. */
    static SpringAiLanguageModel languageModel(ChatModel chatModel, ListableBeanFactory beans) {
        TokenCountEstimator estimator = beans.getBeanProvider(TokenCountEstimator.class).getIfUnique();
        if (estimator == null) {
            return SpringAiLanguageModel.of(chatModel);
        }
        LOG.info("Mnemo counts tokens with the TokenCountEstimator bean ({})", estimator.getClass().getSimpleName());
        return SpringAiLanguageModel.of(chatModel, estimator);
    }

    /**
     * How users with due work are found without opening their engines, in the storage's way; the
     * time is the application's {@link Clock} bean when it has exactly one, else the system's.
     */
    private static Optional<DueTenants> dueTenants(TenantStorage storage, MnemoProperties properties,
            ObjectProvider<Clock> clocks) {
        return storage.dueTenants(clocks.getIfUnique(Clock::systemUTC), properties.getMemories().toConfig());
    }

    /** The application's PostgresBackend as users' storage, when it has one (memory-postgres on the class path). */
    private static Optional<TenantStorage> knownTenantStorage(ListableBeanFactory beans, Path root) {
        if (ClassUtils.isPresent(POSTGRES_BACKEND, MnemoAutoConfiguration.class.getClassLoader())) {
            return PostgresTenants.find(beans, root);
        }
        return Optional.empty();
    }

    /** The named ChatModel bean, else the only one; none: the engine reads and records but generates nothing. */
    private static Optional<ChatModel> chatModel(MnemoProperties properties, ListableBeanFactory beans) {
        String name = properties.getModel().getChatModel();
        if (name != null) {
            if (!beans.containsBean(name) || !beans.isTypeMatch(name, ChatModel.class)) {
                throw new InvalidConfigurationPropertyValueException("mnemo.model.chat-model", name,
                        "there is no ChatModel bean of that name; ChatModel beans: "
                                + List.of(beans.getBeanNamesForType(ChatModel.class)));
            }
            return Optional.of(beans.getBean(name, ChatModel.class));
        }
        String[] names = beans.getBeanNamesForType(ChatModel.class);
        if (names.length == 1) {
            return Optional.of(beans.getBean(names[0], ChatModel.class));
        }
        if (names.length == 0) {
            LOG.info("No ChatModel bean: Mnemo reads and records memories but does not generate new ones");
        } else {
            LOG.warn("{} ChatModel beans {} and no mnemo.model.chat-model naming one: Mnemo reads and records "
                    + "memories but does not generate new ones", names.length, List.of(names));
        }
        return Optional.empty();
    }

    /**
     * Runs the pipeline every {@code mnemo.pipeline.schedule.interval} on the shared engine, or on
     * each open engine of the {@link MemoryEngines} (the application's own too), visited without
     * counting as use so that idle engines still close.
     */
    @Bean
    @ConditionalOnProperty(prefix = "mnemo.pipeline.schedule", name = "enabled", havingValue = "true",
            matchIfMissing = true)
    @ConditionalOnMissingBean
    MnemoPipelineSchedule mnemoPipelineSchedule(MnemoProperties properties, ObjectProvider<MemoryEngine> engine,
            ObjectProvider<MemoryEngines> engines, ObjectProvider<TenantStorage> storages,
            ObjectProvider<Clock> clocks) {
        properties.getPipeline().getSchedule().check();
        Duration interval = properties.getPipeline().getSchedule().getInterval();
        MemoryEngines users = engines.getIfUnique();
        Clock clock = clocks.getIfUnique(Clock::systemUTC);
        if (users != null) {
            Optional<DueWorkPass> due = Optional.ofNullable(storages.getIfUnique())
                    .flatMap(storage -> dueTenants(storage, properties, clocks))
                    .map(d -> new DueWorkPass(users, d, clock, properties.getTenants().getMaxOpen()));
            return new MnemoPipelineSchedule(interval, visit -> users.forEachOpen((user, open) -> {
                due.ifPresent(pass -> pass.touch(user));
                visit.accept(open);
            }), "every open user's engine", clock, due.orElse(null));
        }
        MemoryEngine shared = engine.getIfUnique();
        return new MnemoPipelineSchedule(interval, visit -> Optional.ofNullable(shared).ifPresent(visit),
                shared == null ? "no engine" : "the shared engine", clock);
    }

    /** Adds the advisor to every {@code ChatClient} built from Boot's {@code ChatClient.Builder}; opt-in. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ChatClient.class)
    @ConditionalOnProperty(prefix = "mnemo.chat-client.advisor", name = "enabled", havingValue = "true")
    static class ChatClientConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "mnemoChatClientBuilderCustomizer")
        ChatClientBuilderCustomizer mnemoChatClientBuilderCustomizer(MnemoAdvisor advisor) {
            return builder -> builder.defaultAdvisors(advisor);
        }
    }

    /**
     * In {@code mnemo.tenancy=per-user}: every {@link ChatMemoryRepository} bean of the application
     * (Spring AI's own in-memory one too) is wrapped in a {@link TenantChatMemoryRepository}, so that
     * {@code MessageChatMemoryAdvisor} keeps each user's history apart; the user comes from the
     * {@link MnemoTenantResolver} bean, else Spring Security's principal, on the calling thread.
     * {@code mnemo.chat-memory.tenant-scoped=false} leaves the beans as they are.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ChatMemoryRepository.class)
    @Conditional(TenancyCondition.PerUser.class)
    @ConditionalOnProperty(prefix = "mnemo.chat-memory", name = "tenant-scoped", havingValue = "true",
            matchIfMissing = true)
    static class TenantChatMemoryConfiguration {

        @Bean
        static BeanPostProcessor mnemoTenantChatMemoryRepositories(ObjectProvider<MnemoTenantResolver> resolver) {
            return new BeanPostProcessor() {
                @Override
                public Object postProcessAfterInitialization(Object bean, String beanName) {
                    if (bean instanceof ChatMemoryRepository repository
                            && !(bean instanceof TenantChatMemoryRepository)) {
                        LOG.info("Chat memory repository '{}' keeps each user's conversations apart "
                                + "(mnemo.tenancy=per-user; mnemo.chat-memory.tenant-scoped=false to leave it as is)",
                                beanName);
                        return TenantChatMemoryRepository.of(repository,
                                () -> resolver.getIfUnique(MnemoAutoConfiguration::defaultTenantResolver)
                                        .tenantId(NO_REQUEST));
                    }
                    return bean;
                }
            };
        }
    }

    /** The {@code mnemo} health indicator, with Actuator's health module on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("mnemo")
    static class HealthConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "mnemoHealthIndicator")
        HealthIndicator mnemoHealthIndicator(MnemoProperties properties, ListableBeanFactory beans,
                ObjectProvider<MemoryEngine> engine, ObjectProvider<MemoryEngines> engines,
                ObjectProvider<MnemoPipelineSchedule> schedule, ObjectProvider<TenantStorage> storages) {
            MemoryEngines users = engines.getIfUnique();
            Optional<TenantStorage> storage = Optional.ofNullable(storages.getIfUnique())
                    .or(() -> users == null ? Optional.empty() : knownTenantStorage(beans, properties.homeOrDefault()));
            return new MnemoHealthIndicator(engine, engines, storage, Optional.ofNullable(schedule.getIfUnique()));
        }
    }

    /**
     * The {@code mnemo} Actuator endpoint ({@link MnemoEndpoint}), with Actuator on the class path;
     * reachable only where the application's exposure and security settings allow.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"org.springframework.boot.actuate.endpoint.annotation.Endpoint",
            "org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint"})
    @ConditionalOnAvailableEndpoint(MnemoEndpoint.class)
    static class EndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        MnemoEndpoint mnemoEndpoint(MnemoProperties properties, ObjectProvider<MemoryEngine> engine,
                ObjectProvider<MemoryEngines> engines, ObjectProvider<TenantStorage> storage,
                ObjectProvider<MnemoTenantResolver> resolver) {
            MemoryEngines users = engines.getIfUnique();
            String adminRole = properties.getEndpoint().getAdminRole();
            boolean security = ClassUtils.isPresent(SpringSecurityTenants.SECURITY_CONTEXT_HOLDER,
                    MnemoAutoConfiguration.class.getClassLoader());
            MnemoEndpoint.Callers callers = new MnemoEndpoint.Callers() {
                @Override
                public Optional<String> caller() {
                    return resolver.getIfUnique(MnemoAutoConfiguration::defaultTenantResolver).tenantId(NO_REQUEST);
                }

                @Override
                public boolean isAdmin() {
                    return security && adminRole != null && !adminRole.isBlank()
                            && SpringSecurityTenants.hasRole(adminRole);
                }
            };
            return new MnemoEndpoint(users == null ? engine.getIfUnique() : null, users, storage.getIfUnique(),
                    callers);
        }
    }

    /**
     * Memory spans and metrics for every auto-configured engine ({@code MnemoTelemetry.listener}),
     * with memory-opentelemetry on the class path and an {@code OpenTelemetry} bean in the context.
     * The conditions name the classes as strings and only this class's method uses them, so that
     * without OpenTelemetry no OpenTelemetry class is loaded. The pipeline's model calls need nothing here:
     * they go through the application's Spring AI {@code ChatModel}, which traces its own calls.
     */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {OpenTelemetryConfiguration.OPEN_TELEMETRY, OpenTelemetryConfiguration.MNEMO_TELEMETRY})
    @ConditionalOnBean(type = OpenTelemetryConfiguration.OPEN_TELEMETRY)
    static class OpenTelemetryConfiguration {

        static final String OPEN_TELEMETRY = "io.opentelemetry.api.OpenTelemetry";
        static final String MNEMO_TELEMETRY = "dev.mnemo.opentelemetry.MnemoTelemetry";

        @Bean
        @ConditionalOnMissingBean(name = "mnemoOpenTelemetryListener")
        MemoryEventListener mnemoOpenTelemetryListener(OpenTelemetry openTelemetry,
                MnemoProperties properties) {
            return MnemoTelemetry.listener(openTelemetry,
                    properties.getTelemetry().isCaptureContent());
        }
    }

    /** Meters under {@code mnemo.}, with Micrometer on the class path and a registry in the context. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBean(MeterRegistry.class)
    static class MetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "mnemoMetrics")
        MnemoMetrics mnemoMetrics(MeterRegistry registry) {
            return new MnemoMetrics(registry);
        }
    }
}
