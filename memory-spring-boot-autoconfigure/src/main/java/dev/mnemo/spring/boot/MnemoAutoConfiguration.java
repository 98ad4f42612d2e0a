package dev.mnemo.spring.boot;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.springai.MnemoAdvisor;
import dev.mnemo.springai.SpringAiLanguageModel;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientBuilderCustomizer;
import org.springframework.ai.chat.model.ChatModel;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Mnemo in a Spring Boot application. Every bean backs off when the application declares its own.
 *
 * <ul>
 *   <li>{@link MemoryEngine} ({@code mnemo.*} properties; not when the application declares a
 *       {@link MemoryEngines} for many users): Phase 1 and Phase 2 run on the
 *       application's {@link ChatModel} (the one named by {@code mnemo.model.chat-model}, else the
 *       only one) through
 *       {@link SpringAiLanguageModel}; every {@link MemoryEventListener} bean hears the pipeline;
 *       {@link MemoryEngineBuilderCustomizer} beans adjust the builder. Closed with the context
 *       (running jobs released).</li>
 *   <li>{@link MnemoAdvisor} over that engine (or the application's {@link MemoryEngines}), added to every {@code ChatClient} built from Boot's
 *       {@code ChatClient.Builder} by a {@link ChatClientBuilderCustomizer} unless
 *       {@code mnemo.chat-client.advisor.enabled=false}.</li>
 *   <li>With Actuator's health module: the {@code mnemo} {@link HealthIndicator}.</li>
 *   <li>With Micrometer and a {@link MeterRegistry} bean: meters under {@code mnemo.}.</li>
 * </ul>
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass({MemoryEngine.class, MnemoAdvisor.class, ChatModel.class})
@EnableConfigurationProperties(MnemoProperties.class)
public class MnemoAutoConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(MnemoAutoConfiguration.class);

    @Bean
    @ConditionalOnMissingBean({MemoryEngine.class, MemoryEngines.class})
    public MemoryEngine mnemoMemoryEngine(MnemoProperties properties, ListableBeanFactory beans,
            ObjectProvider<MemoryEventListener> listeners, ObjectProvider<MemoryEngineBuilderCustomizer> customizers) {
        MemoryEngine.Builder builder = MemoryEngine.builder().config(properties.getMemories().toConfig());
        properties.checkedHome().ifPresent(builder::home);
        chatModel(properties, beans).ifPresent(model -> builder.model(SpringAiLanguageModel.of(model)));
        listeners.orderedStream().forEach(builder::listener);
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return builder.build();
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
     * Over the application's {@link MemoryEngines} when it declares one (each request then names
     * its user with {@link MnemoAdvisor#USER_ID}), else over the engine.
     */
    @Bean
    @ConditionalOnMissingBean
    public MnemoAdvisor mnemoAdvisor(ObjectProvider<MemoryEngines> engines, ObjectProvider<MemoryEngine> engine) {
        MemoryEngines tenants = engines.getIfUnique();
        return tenants != null ? MnemoAdvisor.builder(tenants).build()
                : MnemoAdvisor.builder(engine.getObject()).build();
    }

    /** Adds the advisor to every {@code ChatClient} built from Boot's {@code ChatClient.Builder}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(ChatClient.class)
    @ConditionalOnProperty(prefix = "mnemo.chat-client.advisor", name = "enabled", havingValue = "true",
            matchIfMissing = true)
    static class ChatClientConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "mnemoChatClientBuilderCustomizer")
        ChatClientBuilderCustomizer mnemoChatClientBuilderCustomizer(MnemoAdvisor advisor) {
            return builder -> builder.defaultAdvisors(advisor);
        }
    }

    /** The {@code mnemo} health indicator, with Actuator's health module on the class path. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(HealthIndicator.class)
    @ConditionalOnEnabledHealthIndicator("mnemo")
    static class HealthConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "mnemoHealthIndicator")
        HealthIndicator mnemoHealthIndicator(ObjectProvider<MemoryEngine> engine,
                ObjectProvider<MemoryEngines> engines) {
            return new MnemoHealthIndicator(engine, engines);
        }
    }

    /** Meters under {@code mnemo.}, with Micrometer on the class path and a registry in the context. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterRegistry.class)
    @ConditionalOnBean(MeterRegistry.class)
    static class MetricsConfiguration {

        @Bean
        @ConditionalOnMissingBean(name = "mnemoMetrics")
        MemoryEventListener mnemoMetrics(MeterRegistry registry) {
            return new MnemoMetrics(registry);
        }
    }
}
