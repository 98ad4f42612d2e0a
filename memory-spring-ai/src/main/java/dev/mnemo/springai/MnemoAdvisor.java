package dev.mnemo.springai;

import dev.mnemo.ConversationBusyException;
import dev.mnemo.MemoryCitation;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.MemorySession;
import dev.mnemo.SessionContext;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.Advisor;
import org.springframework.ai.chat.client.advisor.api.BaseAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisor;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import org.springframework.ai.chat.memory.ChatMemory;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Long-term memory for a Spring AI {@code ChatClient}: a thin layer over Mnemo's
 * {@link MemorySession}, which does the recording, the tools and the citation counting. A client
 * gets memory by adding the advisor, as it adds any other:
 *
 * <pre>{@code
 * ChatClient chat = chatClientBuilder
 *         .defaultAdvisors(mnemoAdvisor)
 *         .build();
 * String answer = chat.prompt().user(question)
 *         .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversationId))
 *         .call().content();
 * }</pre>
 *
 * <p>Per request, for the conversation named by the advisor param {@link ChatMemory#CONVERSATION_ID}
 * (opened with {@link MemoryEngine#conversation(String)} on first use, which starts the background
 * startup task; in a project, see below):
 * <ol>
 *   <li>the conversation is claimed for this exchange ({@link MemorySession#beginTurn()}): while a
 *       request of the conversation is being answered, a second one fails with
 *       {@link ConversationBusyException} before anything of it is recorded or sent to the model;</li>
 *   <li>the memory instructions are appended to the system message (the application's own system
 *       text stays first and unchanged; a system message is added when there is none). They are
 *       the tool-audience ones ({@link MemorySession#developerInstructions()}): every step names a
 *       memory tool, every path is relative to the memory folder, and nothing sent to the model
 *       provider names a path on this server;</li>
 *   <li>the memory tools are added to the request's tool callbacks, run by Spring AI's own
 *       tool-calling advisor, each call and output recorded;</li>
 *   <li>the last user message is recorded;</li>
 *   <li>{@code call}: the answer's citation markup is stripped, the visible text recorded and the
 *       cited memories counted; {@code stream}: per subscription, each chunk passes on at once
 *       with only its visible part (markup split across any chunk boundaries never reaches the
 *       subscriber). The model's closing chunk (the one with its finish reason) is held back and
 *       goes out last, with what the filter still held, the citation, and the model's finish
 *       reason, usage and model name. A cancelled or failed stream records what was shown up to
 *       then and counts any citation complete by then, once;</li>
 *   <li>the parsed {@link MemoryCitation} is put in the response context under {@link #CITATION},
 *       and the turn's {@link MemoryReceipt} (what memory the answer was given, read and cited, as
 *       the session returned it and logged it in the conversation's thread log) under
 *       {@link #RECEIPT}; streaming: both in the last chunk's context. Read it with
 *       {@link #receipt(ChatClientResponse)}.</li>
 * </ol>
 * Without a conversation id the advisor still adds the instructions (and the tools, run without
 * recording) and strips citations, but records and counts nothing; it logs that once.
 *
 * <p><b>Projects.</b> A request in a project (the advisor param {@link #PROJECT}, else the
 * builder's {@link Builder#projectResolver project resolver}) opens its conversation in that project
 * ({@link MemoryEngine#conversation(SessionContext)} with {@link SessionContext#inProject}): its
 * instructions carry that project's summary and the global one, never another project's, its tools
 * search that project first and file notes under it. A conversation keeps the project it was opened
 * in; naming another project for a conversation that is still open fails the request with
 * {@link IllegalArgumentException}. A request without a project sees the global memory.
 *
 * <pre>{@code
 * chat.prompt().user(question)
 *         .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversationId).param(MnemoAdvisor.PROJECT, "acme/billing"))
 *         .call().content();
 * }</pre>
 *
 * <p><b>Threads.</b> For {@code stream}, everything that touches files, the database or git
 * (opening the conversation, reading the summary, recording) runs on the advisor's scheduler,
 * {@link Schedulers#boundedElastic()} by default, as Spring AI's own {@link BaseAdvisor}s do; never
 * on a non-blocking thread. {@code call} is blocking by nature and runs on the caller's thread.
 *
 * <p><b>Order.</b> {@link #DEFAULT_ORDER} places it after (inside) a chat-memory advisor such as
 * {@code MessageChatMemoryAdvisor} ({@link Advisor#DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER}) and before
 * (outside) Spring AI's {@code ToolCallingAdvisor} ({@code ToolCallingAdvisor.DEFAULT_ORDER}). So the
 * application's {@code ChatMemory} stores the user message and the answer as the user saw it,
 * citations removed, and never the memory instructions (chat-memory advisors store no system
 * message); and the advisor sees one exchange per user turn while the tool loop inside it runs the
 * memory tools.
 */
public final class MnemoAdvisor implements CallAdvisor, StreamAdvisor {

    /** The advisor param naming the request's user, for an advisor built over {@link MemoryEngines}. */
    public static final String USER_ID = "mnemo_user_id";

    /**
     * The advisor param naming the request's project (any non-blank key: a workspace, a case, a
     * repository); it wins over the builder's {@link Builder#projectResolver project resolver}.
     */
    public static final String PROJECT = "mnemo_project";

    /** The response-context key of the parsed {@link MemoryCitation}, when the answer cited memories. */
    public static final String CITATION = "mnemo.citation";

    /**
     * The response-context key of the turn's {@link MemoryReceipt}: the very receipt
     * {@link MemorySession#assistantMessage} (or, streaming, {@code AnswerStream.finish()}) returned
     * for the answer, which the session also logs in the conversation's thread log. Present on
     * every answer of a request with a conversation (streaming: on the last chunk, and so on the
     * response Spring AI's {@code ChatClientMessageAggregator} builds from the chunks); absent
     * without a conversation, where no turn is recorded, and on a stream cancelled or failed before
     * it completed. {@link #receipt(ChatClientResponse)} reads it.
     */
    public static final String RECEIPT = "mnemo.receipt";

    /**
     * {@code Ordered.HIGHEST_PRECEDENCE + 250}: inside chat-memory advisors ({@code + 200}), outside
     * the tool-calling advisor ({@code + 300}).
     */
    public static final int DEFAULT_ORDER = Advisor.DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER + 50;

    private static final Logger LOG = LoggerFactory.getLogger(MnemoAdvisor.class);

    /**
     * The request-context key a Mnemo advisor sets on the request it passes down the chain: a second
     * Mnemo advisor on the same client (added twice, or once by the application and once by
     * {@code mnemo.chat-client.advisor.enabled}) sees it and passes the request on untouched.
     */
    static final String HANDLED = "mnemo.advisor.handled";

    private final RequestMemory memory;
    private final StreamPath stream;
    private final int order;
    private final AtomicBoolean toldSecond = new AtomicBoolean();

    private MnemoAdvisor(Builder builder) {
        this.memory = new RequestMemory(builder.engine, builder.engines, builder.tenants, builder.projects);
        this.stream = new StreamPath(memory, builder.scheduler);
        this.order = builder.order;
    }

    /**
     * An advisor over one memory for every request (one user, or a team sharing one memory).
     *
     * @param engine the memory every request reads and records into; not null
     * @return a new builder; {@link Builder#build()} makes the advisor
     */
    public static Builder builder(MemoryEngine engine) {
        return new Builder(Objects.requireNonNull(engine, "engine"), null);
    }

    /**
     * An advisor over one memory per user: each request's user comes from the
     * {@link Builder#tenantResolver tenant resolver}, by default the advisor param {@link #USER_ID}.
     * A request without a user reads and records nothing (no instructions, no tools, no recording;
     * citation markup is still removed from its answer); the advisor logs that once. A user's
     * memories are never guessed.
     *
     * <pre>{@code
     * chat.prompt().user(question)
     *         .advisors(a -> a.param(MnemoAdvisor.USER_ID, userId).param(ChatMemory.CONVERSATION_ID, conversationId))
     *         .call().content();
     * }</pre>
     *
     * @param engines the per-user memories, one engine a user; not null
     * @return a new builder; {@link Builder#build()} makes the advisor
     */
    public static Builder builder(MemoryEngines engines) {
        return new Builder(null, Objects.requireNonNull(engines, "engines"));
    }

    /**
     * The {@link MemoryReceipt} of the answer in {@code response}: what memory it was given, read
     * and cited (see {@link #RECEIPT}); empty when the request had no conversation, or for a
     * streamed chunk other than the last.
     *
     * <pre>{@code
     * ChatClientResponse response = chat.prompt().user(question)
     *         .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversationId))
     *         .call().chatClientResponse();
     * MnemoAdvisor.receipt(response).ifPresent(receipt -> log.info("memory cited: {}", receipt.cited()));
     * }</pre>
     *
     * @param response a response this advisor took part in; not null
     * @return the answer's receipt, or empty when there is none
     */
    public static Optional<MemoryReceipt> receipt(ChatClientResponse response) {
        Objects.requireNonNull(response, "response");
        return response.context().get(RECEIPT) instanceof MemoryReceipt receipt ? Optional.of(receipt)
                : Optional.empty();
    }

    @Override
    public String getName() {
        return "MnemoAdvisor";
    }

    @Override
    public int getOrder() {
        return order;
    }

    @Override
    public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
        if (handledByAnother(request)) {
            return chain.nextCall(request);
        }
        request = handled(request);
        Exchange exchange = memory.begin(request, memory.user(request), memory.project(request));
        try {
            return exchange.answer(chain.nextCall(exchange.request()));
        } finally {
            exchange.end();
        }
    }

    @Override
    public Flux<ChatClientResponse> adviseStream(ChatClientRequest given, StreamAdvisorChain chain) {
        if (handledByAnother(given)) {
            return chain.nextStream(given);
        }
        return stream.advise(handled(given), chain);
    }

    /**
     * Ends a conversation now, as {@link MemoryEngine#closeConversation} does: its session is
     * closed and it is marked finished, so the next pipeline run (the next conversation's startup
     * task, or {@code engine.admin().runPhase1(..)}) extracts it without waiting
     * {@code min_rollout_idle_hours}. What an application calls when a chat is closed or its user
     * signs out. A later request with the same conversation id continues it, and puts it back under
     * the idle rule.
     *
     * <p>Over {@link MemoryEngines}, the user is found as for a request: the advisor's
     * {@link Builder#tenantResolver tenant resolver} is asked on the caller's thread, with a request
     * carrying only this conversation id (advisor param {@link ChatMemory#CONVERSATION_ID}), so a
     * resolver reading thread-bound context (Spring Security) finds the caller. The default resolver
     * reads the advisor param {@link #USER_ID}, which such a request lacks: name the user with
     * {@link #endConversation(String, String)}. Without a user nothing is ended.
     *
     * @param conversationId the conversation's id, as the requests gave it in
     *     {@link ChatMemory#CONVERSATION_ID}; not blank
     * @return false when no session of the conversation was open (it is marked finished all the same)
     * @throws IllegalArgumentException when {@code conversationId} is blank
     */
    public boolean endConversation(String conversationId) {
        requireConversationId(conversationId);
        return memory.end(memory.perUser() ? memory.userOutsideARequest(conversationId) : null, conversationId);
    }

    /**
     * {@link #endConversation(String)} for a named user of an advisor over {@link MemoryEngines}: the
     * user's own conversation with this id, never another user's.
     *
     * @param userId the user whose conversation to end; not blank
     * @param conversationId the conversation's id, as the requests gave it; not blank
     * @return false when no session of the conversation was open (it is marked finished all the same)
     * @throws IllegalStateException for an advisor over one engine, which has no users to tell apart
     * @throws IllegalArgumentException when {@code userId} or {@code conversationId} is blank
     */
    public boolean endConversation(String userId, String conversationId) {
        Objects.requireNonNull(userId, "userId");
        requireConversationId(conversationId);
        if (!memory.perUser()) {
            throw new IllegalStateException("this advisor is over one MemoryEngine, which has no users: call"
                    + " endConversation(conversationId)");
        }
        if (userId.isBlank()) {
            throw new IllegalArgumentException("userId must not be blank");
        }
        return memory.end(userId, conversationId);
    }

    private static void requireConversationId(String conversationId) {
        Objects.requireNonNull(conversationId, "conversationId");
        if (conversationId.isBlank()) {
            throw new IllegalArgumentException("conversationId must not be blank");
        }
    }

    @Override
    public String toString() {
        return "MnemoAdvisor[order=" + order + (memory.perUser() ? ", per user" : "") + "]";
    }

    /**
     * Whether a Mnemo advisor earlier in the chain already handles this request: a second one would
     * claim the same conversation again (and fail as busy) and record the turn twice. Logged once.
     */
    private boolean handledByAnother(ChatClientRequest request) {
        if (!request.context().containsKey(HANDLED)) {
            return false;
        }
        if (toldSecond.compareAndSet(false, true)) {
            LOG.warn("A second Mnemo advisor on one ChatClient ({} after {}) is ignored: one advisor per client "
                    + "gives memory. Add it with .defaultAdvisors(..) or set mnemo.chat-client.advisor.enabled=true, "
                    + "not both (logged once per advisor)", this, request.context().get(HANDLED));
        }
        return true;
    }

    private ChatClientRequest handled(ChatClientRequest request) {
        return request.mutate().context(HANDLED, toString()).build();
    }

    /** An advisor param's text; empty when the request has none or a blank one. */
    static Optional<String> param(ChatClientRequest request, String name) {
        Object value = request.context().get(name);
        return value == null || value.toString().isBlank() ? Optional.empty() : Optional.of(value.toString());
    }

    /** Configures a {@link MnemoAdvisor}. */
    public static final class Builder {
        private final @Nullable MemoryEngine engine;
        private final @Nullable MemoryEngines engines;
        private MnemoTenantResolver tenants = MnemoTenantResolver.advisorParam();
        private MnemoProjectResolver projects = request -> Optional.empty();
        private int order = DEFAULT_ORDER;
        private Scheduler scheduler = BaseAdvisor.DEFAULT_SCHEDULER;

        private Builder(@Nullable MemoryEngine engine, @Nullable MemoryEngines engines) {
            this.engine = engine;
            this.engines = engines;
        }

        /**
         * The advisor order; default {@link #DEFAULT_ORDER}. Keep it below the tool-calling advisor's.
         *
         * @param order the Spring AI advisor order; lower runs earlier
         * @return this builder
         */
        public Builder order(int order) {
            this.order = order;
            return this;
        }

        /**
         * Who a request's user is, for an advisor over {@link MemoryEngines}; default
         * {@link MnemoTenantResolver#advisorParam()}. The resolver alone decides: when it finds no
         * user, the request reads and records no memory.
         *
         * @param resolver finds the user of each request; not null
         * @return this builder
         * @throws IllegalStateException for an advisor over one engine, which has no users to tell apart
         */
        public Builder tenantResolver(MnemoTenantResolver resolver) {
            Objects.requireNonNull(resolver, "resolver");
            if (engines == null) {
                throw new IllegalStateException("a tenant resolver picks a user's engine of a MemoryEngines; this "
                        + "advisor is over one MemoryEngine");
            }
            this.tenants = resolver;
            return this;
        }

        /**
         * Which project a request is in when it has no advisor param {@link #PROJECT}; by default
         * none (such a request sees the global memory). Works over one engine and over
         * {@link MemoryEngines} alike: a project lives inside the request's memory.
         *
         * @param resolver finds the project of a request without the advisor param; not null
         * @return this builder
         */
        public Builder projectResolver(MnemoProjectResolver resolver) {
            this.projects = Objects.requireNonNull(resolver, "resolver");
            return this;
        }

        /**
         * Where a streamed request's blocking work (opening the conversation, reading the summary,
         * recording) runs; default {@link BaseAdvisor#DEFAULT_SCHEDULER}, Reactor's bounded elastic
         * scheduler, as for Spring AI's own advisors.
         *
         * @param scheduler runs a streamed request's blocking work; not null
         * @return this builder
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /**
         * The advisor this builder describes; the builder may be used again.
         *
         * @return a new advisor
         */
        public MnemoAdvisor build() {
            return new MnemoAdvisor(this);
        }
    }
}
