package dev.mnemo.langchain4j;

import java.util.Objects;

/**
 * Which conversation a call is on: the tenant the application's {@link TenantResolver} named for it
 * and the conversation id its memory id gives. Two tenants that pick the same memory id have two
 * keys, so nothing kept per conversation (a running exchange, its claim) is ever shared between
 * them.
 *
 * @param tenant the resolved tenant; {@link #SHARED} for {@code create(MemoryEngine)}, where every
 *     caller shares one memory; {@code null} for a call without a tenant, which runs without memory
 * @param conversationId {@code MemoryIds.conversationId(memoryId)}
 */
record ConversationKey(String tenant, String conversationId) {

    /** The tenant of every call over one shared engine. */
    static final String SHARED = "";

    ConversationKey {
        Objects.requireNonNull(conversationId, "conversationId");
    }

    /** Whether the call has memory: false when the resolver named no tenant. */
    boolean hasMemory() {
        return tenant != null;
    }

    @Override
    public String toString() {
        return tenant == null ? "(no tenant) " + conversationId
                : tenant.isEmpty() ? conversationId : "tenant '" + tenant + "' conversation '" + conversationId + "'";
    }
}
