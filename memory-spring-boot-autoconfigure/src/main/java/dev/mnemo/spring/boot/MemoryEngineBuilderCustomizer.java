package dev.mnemo.spring.boot;

import dev.mnemo.MemoryEngine;

/**
 * Adjusts the {@link MemoryEngine.Builder} of the auto-configured engine before it is built: a
 * clock, an executor, an extra rollout source, a consolidation agent. Declare beans of this type;
 * they run in their {@code @Order}, after the properties, the {@code ChatModel} and the listeners
 * are applied.
 */
@FunctionalInterface
public interface MemoryEngineBuilderCustomizer {

    void customize(MemoryEngine.Builder builder);
}
