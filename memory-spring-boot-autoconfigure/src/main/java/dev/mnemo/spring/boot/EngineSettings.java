package dev.mnemo.spring.boot;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.spi.MemoryEventListener;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * What every auto-configured engine gets, the shared one and each user's alike: the
 * {@code mnemo.memories.*} settings, the conversation eviction rule, the pipeline's model,
 * the {@link MemoryEventListener} beans, then the {@link MemoryEngineBuilderCustomizer} beans.
 * Where the engine keeps its state is not set here.
 */
record EngineSettings(MemoriesConfig config, Duration conversationIdleTimeout, int maxOpenConversations,
        Optional<LanguageModel> model, List<MemoryEventListener> listeners,
        List<MemoryEngineBuilderCustomizer> customizers) implements UnaryOperator<MemoryEngine.Builder> {

    EngineSettings {
        listeners = List.copyOf(listeners);
        customizers = List.copyOf(customizers);
    }

    @Override
    public MemoryEngine.Builder apply(MemoryEngine.Builder builder) {
        builder.config(config).conversationIdleTimeout(conversationIdleTimeout)
                .maxOpenConversations(maxOpenConversations);
        model.ifPresent(builder::model);
        listeners.forEach(builder::listener);
        customizers.forEach(customizer -> customizer.customize(builder));
        return builder;
    }
}
