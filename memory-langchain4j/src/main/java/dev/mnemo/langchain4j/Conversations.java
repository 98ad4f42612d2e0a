package dev.mnemo.langchain4j;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.MemorySession;
import java.util.Objects;
import java.util.function.Function;

/**
 * Finds the Mnemo conversation a LangChain4j memory id names: {@code engine.conversation(id)},
 * which opens the session (and starts its startup task) on first use and shares it afterwards.
 */
@FunctionalInterface
interface Conversations {

    /**
     * The memory id LangChain4j uses when a method has no {@code @MemoryId} parameter
     * ({@code ChatMemoryService.DEFAULT}).
     */
    String DEFAULT_MEMORY_ID = "default";

    MemorySession of(Object memoryId);

    static Conversations of(MemoryEngine engine) {
        Objects.requireNonNull(engine, "engine");
        return memoryId -> engine.conversation(conversationId(memoryId));
    }

    static Conversations of(MemoryEngines engines, Function<Object, String> tenantOf) {
        Objects.requireNonNull(engines, "engines");
        Objects.requireNonNull(tenantOf, "tenantResolver");
        return memoryId -> {
            Object id = memoryId == null ? DEFAULT_MEMORY_ID : memoryId;
            String tenant = tenantOf.apply(id);
            if (tenant == null || tenant.isBlank()) {
                throw new IllegalArgumentException("the tenant resolver gave no tenant for memory id '" + id + "'");
            }
            return engines.forTenant(tenant).conversation(conversationId(id));
        };
    }

    /** The conversation id of a memory id: its {@code toString()}. */
    static String conversationId(Object memoryId) {
        return memoryId == null ? DEFAULT_MEMORY_ID : memoryId.toString();
    }
}
