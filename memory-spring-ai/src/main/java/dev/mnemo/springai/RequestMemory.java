package dev.mnemo.springai;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.MemorySession;
import dev.mnemo.MemoryTools;
import dev.mnemo.SessionContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;

/**
 * Which memory a {@link MnemoAdvisor} request reads and records, and the opening of its
 * {@link Exchange}: the request's user (over {@link MemoryEngines}) and project, resolved on the
 * caller's thread; then, where blocking is allowed, its user's engine leased, its conversation's
 * shared {@link MemorySession} opened and claimed, the session's instructions and tools added to its
 * prompt and its user message recorded. Every memory decision is core's; this class only picks
 * which engine, conversation and project to ask, and logs once per advisor what a request lacks.
 */
final class RequestMemory {

    /** Logged under the advisor's name: these are the advisor's lines. */
    private static final Logger LOG = LoggerFactory.getLogger(MnemoAdvisor.class);

    private final @Nullable MemoryEngine engine;
    private final @Nullable MemoryEngines engines;
    private final MnemoTenantResolver tenants;
    private final MnemoProjectResolver projects;
    private final AtomicBoolean toldNoConversation = new AtomicBoolean();
    private final AtomicBoolean toldNoUser = new AtomicBoolean();
    private final AtomicBoolean toldNoTools = new AtomicBoolean();

    RequestMemory(@Nullable MemoryEngine engine, @Nullable MemoryEngines engines, MnemoTenantResolver tenants,
            MnemoProjectResolver projects) {
        this.engine = engine;
        this.engines = engines;
        this.tenants = tenants;
        this.projects = projects;
    }

    /** Whether each request's user has a memory of their own ({@link MemoryEngines}). */
    boolean perUser() {
        return engines != null;
    }

    /**
     * The request's user, resolved on the caller's thread; null without one, and always over one
     * engine, whose memory every request shares.
     */
    @Nullable String user(ChatClientRequest request) {
        return engines == null ? null : tenants.tenantId(request).filter(id -> !id.isBlank()).orElse(null);
    }

    /** The request's project key (the advisor param, else the resolver's), on the caller's thread; null without one. */
    @Nullable String project(ChatClientRequest request) {
        return MnemoAdvisor.param(request, MnemoAdvisor.PROJECT)
                .or(() -> projects.projectKey(request).filter(key -> !key.isBlank()))
                .orElse(null);
    }

    /**
     * Steps 1–4: the request's memory held (its user's engine leased), its conversation claimed
     * (in its project, if it has one), the instructions and tools added, the user message recorded.
     * Blocking: file, database and git work.
     */
    Exchange begin(ChatClientRequest request, @Nullable String user, @Nullable String project) {
        if (engines != null && user == null) {
            if (toldNoUser.compareAndSet(false, true)) {
                LOG.info("A ChatClient request without a user: with one memory per user, such a request reads and "
                        + "records no memory (set the advisor param '{}' or declare a MnemoTenantResolver; logged "
                        + "once per advisor)", MnemoAdvisor.USER_ID);
            }
            return Exchange.withoutMemory(request);
        }
        MemoryEngines.Lease lease = engines == null ? null : engines.lease(user);
        MemorySession.Turn turn = null;
        try {
            MemoryEngine memory = lease == null ? engine : lease.engine();
            String conversationId = MnemoAdvisor.param(request, ChatMemory.CONVERSATION_ID).orElse(null);
            MemorySession session = null;
            if (conversationId == null) {
                if (toldNoConversation.compareAndSet(false, true)) {
                    LOG.info("A ChatClient request without the advisor param '{}': memory instructions and citation "
                            + "stripping still apply, but no conversation is recorded and no citation counted "
                            + "(logged once per advisor)", ChatMemory.CONVERSATION_ID);
                }
            } else {
                session = conversation(memory, conversationId, project);
                try {
                    turn = session.beginTurn();
                } catch (IllegalStateException closedMeanwhile) { // evicted or closed since conversation(id)
                    session = conversation(memory, conversationId, project);
                    turn = session.beginTurn();
                }
            }
            Prompt prompt = AdvisedPrompt.withInstructions(request.prompt(), session != null
                    ? session.developerInstructions()
                    : project != null ? memory.buildToolInstructions(project) : memory.buildToolInstructions());
            if (prompt.getOptions() instanceof ToolCallingChatOptions options) {
                prompt = prompt.mutate().chatOptions(AdvisedPrompt.withMemoryTools(options, session != null
                        ? MnemoToolCallbackProvider.forSession(session)
                        : MnemoToolCallbackProvider.of(tools(memory, project)))).build();
            } else if (toldNoTools.compareAndSet(false, true)) {
                LOG.warn("The ChatModel's options ({}) take no tool callbacks: the model cannot be handed the memory "
                        + "tools its memory instructions name (logged once per advisor)",
                        prompt.getOptions() == null ? "none" : prompt.getOptions().getClass().getSimpleName());
            }
            if (session != null) {
                AdvisedPrompt.lastUserText(prompt).ifPresent(session::userMessage);
            }
            return new Exchange(request.mutate().prompt(prompt).build(), session, turn, lease);
        } catch (RuntimeException e) {
            new Exchange(request, null, turn, lease).end();
            throw e;
        }
    }

    /**
     * Ends a conversation ({@link MemoryEngine#closeConversation}): over one engine, that engine's;
     * over {@link MemoryEngines}, the user's, visited without counting as use (an engine not open is
     * opened for the call and closed after it). No user, no memory: nothing to end.
     *
     * @return false when no session of the conversation was open
     */
    boolean end(@Nullable String user, String conversationId) {
        if (engines == null) {
            return engine.closeConversation(conversationId);
        }
        if (user == null) {
            LOG.info("Conversation {} ended without a user: with one memory per user there is no memory to end it in",
                    conversationId);
            return false;
        }
        return engines.visit(user, memory -> memory.closeConversation(conversationId));
    }

    /**
     * The user the tenant resolver finds for a call outside any request (ending a conversation): it
     * is asked, on the caller's thread, with a request that carries only the conversation id as its
     * advisor param {@link ChatMemory#CONVERSATION_ID}.
     */
    @Nullable String userOutsideARequest(String conversationId) {
        return user(ChatClientRequest.builder().prompt(new Prompt(List.of()))
                .context(Map.of(ChatMemory.CONVERSATION_ID, conversationId)).build());
    }

    /** The conversation's shared session, opened in {@code project} when the request has one. */
    private static MemorySession conversation(MemoryEngine memory, String conversationId, @Nullable String project) {
        return project == null ? memory.conversation(conversationId)
                : memory.conversation(SessionContext.root(conversationId).inProject(project));
    }

    /** The memory tools for a request without a conversation, bound to its project when it has one. */
    private static MemoryTools tools(MemoryEngine memory, @Nullable String project) {
        return project == null ? memory.tools() : memory.tools().inProject(project);
    }
}
