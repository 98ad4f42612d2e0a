package dev.mnemo.langchain4j;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.MemorySession;
import dev.mnemo.SessionContext;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the memory of a LangChain4j memory id lives: the session {@code engine.conversation(id)}
 * of one shared engine, or of the tenant's engine, the tenant given by the application's
 * {@link TenantResolver}, never read from the memory id's text; in the project the application's
 * {@link ProjectResolver} names, if any.
 */
interface Conversations {

    /**
     * The key of this call's conversation: resolves the tenant (once per exchange, or once per hook
     * call for a hook used alone).
     *
     * @param conversationId {@code MemoryIds.conversationId(memoryId)}
     */
    ConversationKey key(Object memoryId, String conversationId);

    /**
     * Opens the conversation {@code key} names for one use (an exchange, or one hook call): holds its
     * tenant's engine open until {@link Opened#close()}, and gives the session, opened in the
     * conversation's project. The tenant is the key's, never resolved again.
     */
    Opened open(ConversationKey key, Object memoryId);

    /**
     * Ends the conversation in its engine now ({@code MemoryEngine.closeConversation}): its session
     * is closed and the conversation marked finished, so Phase 1 need not wait for its idle window.
     *
     * @return false when it had no session open
     */
    boolean close(ConversationKey key);

    /**
     * A conversation held open: the session, {@code null} when the call has no tenant (memory off).
     * Closing releases the engine; the session itself stays open, shared by later calls.
     */
    record Opened(MemorySession session, AutoCloseable release) implements AutoCloseable {

        /** A call without a tenant: no memory, nothing recorded. */
        static final Opened OFF = new Opened(null, () -> {});

        @Override
        public void close() {
            try {
                release.close();
            } catch (Exception e) {
                throw new IllegalStateException("cannot release the engine of a conversation", e);
            }
        }
    }

    static Conversations of(MemoryEngine engine, ProjectResolver projects) {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(projects, "projectResolver");
        return new Conversations() {
            @Override
            public ConversationKey key(Object memoryId, String conversationId) {
                return new ConversationKey(ConversationKey.SHARED, conversationId);
            }

            @Override
            public Opened open(ConversationKey key, Object memoryId) {
                return new Opened(session(engine, memoryId, key.conversationId(), projects), () -> {});
            }

            @Override
            public boolean close(ConversationKey key) {
                return engine.closeConversation(key.conversationId());
            }
        };
    }

    static Conversations of(MemoryEngines engines, TenantResolver tenants, ProjectResolver projects) {
        Objects.requireNonNull(engines, "engines");
        Objects.requireNonNull(tenants, "tenantResolver");
        Objects.requireNonNull(projects, "projectResolver");
        Logger log = LoggerFactory.getLogger(Conversations.class);
        return new Conversations() {
            @Override
            public ConversationKey key(Object memoryId, String conversationId) {
                String tenant = tenants.tenantOf(memoryId);
                if (tenant == null || tenant.isBlank()) {
                    log.debug("no tenant for conversation {}: the call runs without memory and records nothing",
                            conversationId);
                    return new ConversationKey(null, conversationId);
                }
                return new ConversationKey(tenant, conversationId);
            }

            @Override
            public Opened open(ConversationKey key, Object memoryId) {
                if (!key.hasMemory()) {
                    return Opened.OFF;
                }
                MemoryEngines.Lease lease = engines.lease(key.tenant());
                try {
                    return new Opened(session(lease.engine(), memoryId, key.conversationId(), projects), lease);
                } catch (RuntimeException e) {
                    lease.close();
                    throw e;
                }
            }

            /**
             * In the key's tenant's engine only. Visited, not leased: ending is not a use, and an
             * engine closed meanwhile (whose conversation was closed with it) is opened for the call
             * so the end is still recorded, then closed again.
             */
            @Override
            public boolean close(ConversationKey key) {
                if (!key.hasMemory()) {
                    return false;
                }
                return engines.visit(key.tenant(), engine -> engine.closeConversation(key.conversationId()));
            }
        };
    }

    /** The conversation's shared session in {@code engine}, opened in the project {@code projects} names. */
    private static MemorySession session(MemoryEngine engine, Object memoryId, String conversationId,
            ProjectResolver projects) {
        Optional<String> project = Objects.requireNonNull(projects.projectOf(memoryId),
                () -> "the ProjectResolver answered null for conversation " + conversationId + "; answer Optional.empty()")
                .filter(key -> !key.isBlank());
        return project.isPresent() ? engine.conversation(SessionContext.root(conversationId).inProject(project.get()))
                : engine.conversation(conversationId);
    }
}
