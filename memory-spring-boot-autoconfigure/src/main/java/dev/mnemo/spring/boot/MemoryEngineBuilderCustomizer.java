package dev.mnemo.spring.boot;

import dev.mnemo.MemoryEngine;

/**
 * Adjusts the {@link MemoryEngine.Builder} of each auto-configured engine before it is built (the
 * shared one, or every user's with {@code mnemo.tenancy=per-user}): a clock, an executor, an extra
 * rollout source, a consolidation agent. Declare beans of this type; they run in their
 * {@code @Order}, after the properties, the {@code ChatModel} and the listeners are applied. Where
 * a user's engine keeps its state is set after them (a home under {@code mnemo.home}) or before
 * them (a {@code PostgresBackend}'s store, session store and workspace): a customizer must not set
 * a home, store, session store or workspace in per-user mode.
 */
@FunctionalInterface
public interface MemoryEngineBuilderCustomizer {

    /**
     * Adjusts {@code builder}, which the properties, the {@code ChatModel} and the listeners have set up already.
     *
     * @param builder the builder of one engine (the shared one, or one user's); it is built after every
     *     customizer ran
     */
    void customize(MemoryEngine.Builder builder);
}
