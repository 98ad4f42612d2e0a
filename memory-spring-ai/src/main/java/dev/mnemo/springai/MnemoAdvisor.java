package dev.mnemo.springai;

import dev.mnemo.ConversationBusyException;
import dev.mnemo.MemoryCitation;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.MemorySession;
import dev.mnemo.MemoryTools;
import dev.mnemo.SessionContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
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
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
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
 *   <li>the parsed {@link MemoryCitation} is put in the response context under {@link #CITATION}
 *       (streaming: in the last chunk's context).</li>
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

    private final @Nullable MemoryEngine engine;
    private final @Nullable MemoryEngines engines;
    private final MnemoTenantResolver tenants;
    private final MnemoProjectResolver projects;
    private final int order;
    private final Scheduler scheduler;
    private final AtomicBoolean toldNoConversation = new AtomicBoolean();
    private final AtomicBoolean toldNoUser = new AtomicBoolean();
    private final AtomicBoolean toldNoTools = new AtomicBoolean();
    private final AtomicBoolean toldSecond = new AtomicBoolean();

    private MnemoAdvisor(Builder builder) {
        this.engine = builder.engine;
        this.engines = builder.engines;
        this.tenants = builder.tenants;
        this.projects = builder.projects;
        this.order = builder.order;
        this.scheduler = builder.scheduler;
    }

    /** An advisor over one memory for every request (one user, or a team sharing one memory). */
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
     */
    public static Builder builder(MemoryEngines engines) {
        return new Builder(null, Objects.requireNonNull(engines, "engines"));
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
        Exchange exchange = begin(request, user(request), project(request));
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
        ChatClientRequest request = handled(given);
        return Flux.defer(() -> {
            String user = user(request); // here, where thread-bound context is still visible
            String project = project(request);
            AtomicReference<Exchange> begun = new AtomicReference<>();
            AtomicBoolean cancelled = new AtomicBoolean();
            return Mono.fromCallable(() -> {
                        Exchange exchange = begin(request, user, project);
                        begun.set(exchange);
                        if (cancelled.get()) { // cancelled while it began: nobody will end it but us
                            exchange.abandon();
                            return null;
                        }
                        return exchange;
                    })
                    .subscribeOn(scheduler)
                    .doOnCancel(() -> {
                        cancelled.set(true);
                        Exchange exchange = begun.get();
                        if (exchange != null) {
                            offload(exchange::abandon);
                        }
                    })
                    .flatMapMany(exchange -> answer(exchange, chain));
        });
    }

    @Override
    public String toString() {
        return "MnemoAdvisor[order=" + order + (engines != null ? ", per user" : "") + "]";
    }

    /**
     * The model's stream, filtered chunk by chunk. When it completes, the answer is recorded (on the
     * scheduler) and the exchange ended before the last chunk goes out, so a subscriber that saw
     * the stream complete may send the conversation's next request at once.
     */
    private Flux<ChatClientResponse> answer(Exchange exchange, StreamAdvisorChain chain) {
        StreamedAnswer answer = exchange.streamedAnswer();
        return chain.nextStream(exchange.request())
                .concatMapIterable(answer::visible)
                .concatWith(Flux.defer(() -> {
                    List<ChatClientResponse> last = answer.complete();
                    exchange.end();
                    return Flux.fromIterable(last);
                }).subscribeOn(scheduler))
                .doOnError(failure -> offload(exchange::abandon))   // before the subscriber hears of it
                .doOnCancel(() -> offload(exchange::abandon));
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

    /** Runs {@code work} here, or on the scheduler when this is a thread that must not block. */
    private void offload(Runnable work) {
        Runnable logged = () -> {
            try {
                work.run();
            } catch (RuntimeException e) {
                LOG.warn("Recording the end of a cut-short memory exchange failed", e);
            }
        };
        if (Schedulers.isInNonBlockingThread()) {
            scheduler.schedule(logged);
        } else {
            logged.run();
        }
    }

    /**
     * The request's user, resolved on the caller's thread; null without one, and always over one
     * engine, whose memory every request shares.
     */
    private @Nullable String user(ChatClientRequest request) {
        return engines == null ? null : tenants.tenantId(request).filter(id -> !id.isBlank()).orElse(null);
    }

    /** The request's project key (the advisor param, else the resolver's), on the caller's thread; null without one. */
    private @Nullable String project(ChatClientRequest request) {
        return param(request, PROJECT).or(() -> projects.projectKey(request).filter(key -> !key.isBlank()))
                .orElse(null);
    }

    /**
     * Steps 1–4: the request's memory held (its user's engine leased), its conversation claimed
     * (in its project, if it has one), the instructions and tools added, the user message recorded.
     * Blocking: file, database and git work.
     */
    private Exchange begin(ChatClientRequest request, @Nullable String user, @Nullable String project) {
        if (engines != null && user == null) {
            if (toldNoUser.compareAndSet(false, true)) {
                LOG.info("A ChatClient request without a user: with one memory per user, such a request reads and "
                        + "records no memory (set the advisor param '{}' or declare a MnemoTenantResolver; logged "
                        + "once per advisor)", USER_ID);
            }
            return Exchange.withoutMemory(request);
        }
        MemoryEngines.Lease lease = engines == null ? null : engines.lease(user);
        MemorySession.Turn turn = null;
        try {
            MemoryEngine memory = lease == null ? engine : lease.engine();
            String conversationId = param(request, ChatMemory.CONVERSATION_ID).orElse(null);
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
            Prompt prompt = withInstructions(request.prompt(), session != null ? session.developerInstructions()
                    : project != null ? memory.buildToolInstructions(project) : memory.buildToolInstructions());
            if (prompt.getOptions() instanceof ToolCallingChatOptions options) {
                prompt = prompt.mutate().chatOptions(withMemoryTools(options, session != null
                        ? MnemoToolCallbackProvider.forSession(session)
                        : MnemoToolCallbackProvider.of(tools(memory, project)))).build();
            } else if (toldNoTools.compareAndSet(false, true)) {
                LOG.warn("The ChatModel's options ({}) take no tool callbacks: the model cannot be handed the memory "
                        + "tools its memory instructions name (logged once per advisor)",
                        prompt.getOptions() == null ? "none" : prompt.getOptions().getClass().getSimpleName());
            }
            if (session != null) {
                lastUserText(prompt).ifPresent(session::userMessage);
            }
            return new Exchange(request.mutate().prompt(prompt).build(), session, turn, lease);
        } catch (RuntimeException e) {
            new Exchange(request, null, turn, lease).end();
            throw e;
        }
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

    /** An advisor param's text; empty when the request has none or a blank one. */
    static Optional<String> param(ChatClientRequest request, String name) {
        Object value = request.context().get(name);
        return value == null || value.toString().isBlank() ? Optional.empty() : Optional.of(value.toString());
    }

    /** The instructions appended to the system message (one is added when there is none). */
    private static Prompt withInstructions(Prompt prompt, String instructions) {
        if (instructions.isEmpty()) {
            return prompt;
        }
        return prompt.augmentSystemMessage(system -> system.mutate()
                .text(system.getText() == null || system.getText().isEmpty() ? instructions
                        : system.getText() + "\n\n" + instructions)
                .build());
    }

    /** The memory tools added to the request's callbacks; a callback of the same name is replaced. */
    private static ChatOptions withMemoryTools(ToolCallingChatOptions options, MnemoToolCallbackProvider memory) {
        Set<String> names = memory.toolCallbacks().stream().map(c -> c.getToolDefinition().name())
                .collect(Collectors.toSet());
        List<ToolCallback> callbacks = new ArrayList<>();
        if (options.getToolCallbacks() != null) {
            options.getToolCallbacks().stream().filter(c -> !names.contains(c.getToolDefinition().name()))
                    .forEach(callbacks::add);
        }
        callbacks.addAll(memory.toolCallbacks());
        return options.mutate().toolCallbacks(callbacks).build();
    }

    /** The text of the prompt's last message when it is the user's. */
    private static Optional<String> lastUserText(Prompt prompt) {
        List<org.springframework.ai.chat.messages.Message> messages = prompt.getInstructions();
        if (messages.isEmpty() || !(messages.get(messages.size() - 1) instanceof UserMessage user)) {
            return Optional.empty();
        }
        return Optional.ofNullable(user.getText()).filter(text -> !text.isEmpty());
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

        /** The advisor order; default {@link #DEFAULT_ORDER}. Keep it below the tool-calling advisor's. */
        public Builder order(int order) {
            this.order = order;
            return this;
        }

        /**
         * Who a request's user is, for an advisor over {@link MemoryEngines}; default
         * {@link MnemoTenantResolver#advisorParam()}. The resolver alone decides: when it finds no
         * user, the request reads and records no memory.
         *
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
         */
        public Builder projectResolver(MnemoProjectResolver resolver) {
            this.projects = Objects.requireNonNull(resolver, "resolver");
            return this;
        }

        /**
         * Where a streamed request's blocking work (opening the conversation, reading the summary,
         * recording) runs; default {@link BaseAdvisor#DEFAULT_SCHEDULER}, Reactor's bounded elastic
         * scheduler, as for Spring AI's own advisors.
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        public MnemoAdvisor build() {
            return new MnemoAdvisor(this);
        }
    }
}
