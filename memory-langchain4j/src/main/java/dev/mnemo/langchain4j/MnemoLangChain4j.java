package dev.mnemo.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.guardrail.OutputGuardrail;
import dev.langchain4j.model.TokenCountEstimator;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.observability.api.listener.AiServiceListener;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.Result;
import dev.langchain4j.service.TokenStream;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.llm.LanguageModel;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Mnemo's memory inside LangChain4j {@link AiServices}: the memory instructions on every model
 * call (also inside the tool loop), the memory tools, citation stripping with usage counting, and
 * each exchange recorded for Phase 1. The conversation is the service method's {@code @MemoryId}
 * (its {@code toString()}), opened with {@link MemoryEngine#conversation(String)} on first use,
 * which also starts the startup task.
 *
 * <pre>{@code
 * MnemoLangChain4j mnemo = MnemoLangChain4j.create(engine);
 * Assistant assistant = mnemo.configure(AiServices.builder(Assistant.class)
 *         .chatModel(chatModel)
 *         .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20)))
 *         .build();
 * String answer = assistant.chat("alice-1", "How do we deploy?");   // @MemoryId String id, @UserMessage String text
 * }</pre>
 *
 * <p><b>Safe defaults.</b> {@link #configure} refuses a service method without a {@code @MemoryId}
 * (LangChain4j would put every user in one {@code "default"} conversation); a memory id whose
 * {@code toString()} is not stable is refused when called. The model gets the memory tools and the
 * tool audience's instructions, which name no path on this machine. A streamed answer reaches the
 * application without citation markup, from a plain {@code TokenStream}. Each conversation runs one
 * exchange at a time: a second call while one is answering fails with
 * {@link dev.mnemo.ConversationBusyException} before anything of it is recorded. With
 * {@link #create(MemoryEngines, TenantResolver)} the tenant comes from the application, never from
 * the memory id's text.
 *
 * <p><b>Projects.</b> With a {@link ProjectResolver} ({@link #create(MemoryEngine, ProjectResolver)}),
 * each conversation opens in the project it names for the memory id: its instructions carry that
 * project's summary and the global one, never another project's, and its tools search that project
 * first and file notes under it. Without one, every conversation sees the global memory.
 *
 * <p><b>Conversations end</b> when the engine closes them idle (its
 * {@code conversationIdleTimeout}, 30 minutes by default), or at once with {@link #endConversation}
 * (also called by {@code evictChatMemory} on a service interface that extends LangChain4j's
 * {@code ChatMemoryAccess}). Between its calls this object keeps, per conversation, only the
 * newest receipt, for at most 1,024 conversations (the least recently answered
 * dropped first; an ended conversation's at once).
 *
 * <p><b>Receipts.</b> Each recorded answer has a {@link MemoryReceipt}: what memory it was given,
 * read and cited, the one its {@link dev.mnemo.MemorySession} returned and logged in the
 * conversation's thread log. A service built by {@link #configure} puts it on the answer's
 * {@link AiMessage} (attribute {@link #RECEIPT}) of a method returning {@code Result<T>},
 * {@code ChatResponse} or {@code AiMessage}, and on the complete response of a {@code TokenStream}:
 * read it with {@link #receipt(Result)}, {@link #receipt(ChatResponse)} or {@link #receipt(AiMessage)}.
 * For any method, also a {@code String} one, {@link #lastReceipt(Object)} gives the newest
 * receipt of a conversation.
 *
 * <p>Each hook also works alone; {@link #configure} applies them all. The hooks are thin:
 * instructions, tools, citations and recording are {@link dev.mnemo.MemorySession}'s, used through it.
 *
 * <p><b>Concurrency and tenancy.</b> One instance serves any number of conversations at once. A
 * conversation is the pair of the tenant resolved for the call and the memory id: every hook finds
 * the exchange of its own call (by the LangChain4j invocation it is handed, or the thread its call
 * runs on; a hook used alone by the tenant it resolves for that call), never by the memory id alone,
 * so two conversations, also two tenants' conversations with the same memory id, never see each
 * other's instructions, tool calls or recordings, and one is never refused because the other is
 * busy. LangChain4j's own {@code ChatMemory} keys history by the memory id alone: wrap its store with
 * {@link #chatMemoryStore(ChatMemoryStore)}.
 */
public final class MnemoLangChain4j {

    /**
     * The {@link AiMessage} attribute under which an answer carries its {@link MemoryReceipt} (see
     * {@link #receipt(AiMessage)}).
     */
    public static final String RECEIPT = "mnemo_receipt";

    private final Exchanges exchanges;
    private final InstructionsTransformer transformer;
    private final MemoryToolProvider toolProvider;
    private final MemoryToolProvider proxiedToolProvider;
    private final CitationGuardrail guardrail;
    private final List<AiServiceListener<?>> listeners;
    private final List<AiServiceListener<?>> proxiedListeners;

    private MnemoLangChain4j(Conversations conversations) {
        this.exchanges = new Exchanges(conversations);
        this.transformer = new InstructionsTransformer(exchanges);
        this.toolProvider = new MemoryToolProvider(exchanges, false);
        this.proxiedToolProvider = new MemoryToolProvider(exchanges, true);
        this.guardrail = new CitationGuardrail(exchanges);
        this.listeners = new TurnListeners(exchanges, true).all();
        this.proxiedListeners = new TurnListeners(exchanges, false).all();
    }

    /**
     * Hooks over one engine shared by every caller: every memory id is a conversation of
     * {@code engine}, and every conversation reads the same memory. For an application with one
     * user, or a team that shares what it learns; for many users, use
     * {@link #create(MemoryEngines, TenantResolver)}.
     *
     * @param engine the memory every conversation reads and records into; not null
     * @return the hooks, to apply with {@link #configure}
     */
    public static MnemoLangChain4j create(MemoryEngine engine) {
        return create(engine, ProjectResolver.none());
    }

    /**
     * {@link #create(MemoryEngine)} with each conversation in the project {@code projects} names for
     * its memory id: a conversation in a project gets that project's memory and the global one,
     * never another project's (see {@link ProjectResolver}).
     *
     * @param engine the memory every conversation reads and records into; not null
     * @param projects names the project of each memory id; not null
     * @return the hooks, to apply with {@link #configure}
     */
    public static MnemoLangChain4j create(MemoryEngine engine, ProjectResolver projects) {
        return new MnemoLangChain4j(Conversations.of(engine, projects));
    }

    /**
     * Hooks over one engine per tenant: each call's tenant is what {@code tenants} says for it (see
     * {@link TenantResolver}: the application's authenticated user, never text the client chose),
     * its conversation the memory id's {@code toString()} within that tenant's engine. The engine is
     * leased for each exchange, so it is not closed under a running call. A call whose tenant is
     * {@code null} runs without memory and records nothing.
     *
     * @param engines the tenants' memories, one engine a tenant; not null
     * @param tenants names the tenant of each call, on the caller's thread; not null
     * @return the hooks, to apply with {@link #configure}
     */
    public static MnemoLangChain4j create(MemoryEngines engines, TenantResolver tenants) {
        return create(engines, tenants, ProjectResolver.none());
    }

    /**
     * {@link #create(MemoryEngines, TenantResolver)} with each conversation in the project
     * {@code projects} names for its memory id, inside its tenant's memory (see
     * {@link ProjectResolver}).
     *
     * @param engines the tenants' memories, one engine a tenant; not null
     * @param tenants names the tenant of each call, on the caller's thread; not null
     * @param projects names the project of each memory id within its tenant's memory; not null
     * @return the hooks, to apply with {@link #configure}
     */
    public static MnemoLangChain4j create(MemoryEngines engines, TenantResolver tenants, ProjectResolver projects) {
        return new MnemoLangChain4j(Conversations.of(engines, tenants, projects));
    }

    /**
     * Applies every hook and returns the builder to build the service from: {@link #requestTransformer()}
     * as the builder's {@code chatRequestTransformer}, the memory tools, {@link #listeners()}, and
     * {@link #citationGuardrail()} as the output guardrails unless a method returns
     * {@code TokenStream} (LangChain4j holds a stream back until output guardrails ran; the
     * returned service strips such a service's text answers itself).
     *
     * <p>The returned builder shares every setting with {@code services}; set anything on either,
     * before or after, but call {@code build()} on the returned one. Its service makes each call one
     * exchange of the conversation named by the call's {@code @MemoryId}: a second call on a
     * conversation that is still answering fails with {@link dev.mnemo.ConversationBusyException}
     * before anything of it is recorded or reaches the model; a {@code TokenStream} shows visible
     * text only (text held back for a possible citation is shown before the stream completes), and
     * its answer is recorded when it completes, or what was shown when it fails. A service built
     * from {@code services} itself fails its first call, naming this method.
     *
     * <p>LangChain4j keeps a single {@code chatRequestTransformer} and a single list of output
     * guardrails per builder: this replaces any set before. To keep one of your own, set it
     * after this call, composed with Mnemo's:
     * {@code builder.chatRequestTransformer((request, id) -> mine.apply(mnemo.requestTransformer().apply(request, id), id))},
     * and list {@link #citationGuardrail()} last among your output guardrails. LangChain4j 1.19
     * adds tool providers to those set before; 1.11 keeps only the last one.
     *
     * @param <T> the service interface
     * @param services the builder of the application's service; not null, and not built yet
     * @return the builder to call {@code build()} on, sharing its settings with {@code services}
     * @throws IllegalArgumentException naming the method, when a method of the service interface has
     *     no {@code @MemoryId} parameter, one of a type without its own {@code toString()}, or a
     *     return type whose citations Mnemo could not keep from the user (a {@code Flux} or other
     *     adapted stream; a structured object next to streaming methods)
     */
    public <T> AiServices<T> configure(AiServices<T> services) {
        Objects.requireNonNull(services, "services");
        MnemoAiServices<T> configured = MnemoAiServices.over(services, exchanges, this::endConversation);
        services.chatRequestTransformer(transformer);
        services.toolProvider(proxiedToolProvider);
        services.registerListeners(proxiedListeners);
        if (configured.methods().citationGuardrail()) {
            services.outputGuardrails(List.of(guardrail));
        }
        return configured;
    }

    /**
     * For {@code AiServices.chatRequestTransformer}: appends the conversation's memory
     * instructions to the system message of each outgoing request (adding one when there is
     * none), on the first call and on every call of the tool loop. They are written for a model
     * handed the memory tools and name no path on this machine. The request is rebuilt; the
     * application's {@code ChatMemory} never holds the instructions.
     *
     * @return the transformer adding the memory instructions; the same instance on every call
     */
    public BiFunction<ChatRequest, Object, ChatRequest> requestTransformer() {
        return transformer;
    }

    /**
     * For {@code AiServices.toolProvider}: the memory tools (list, read, search, add an ad-hoc
     * note) with Mnemo's JSON schemas as LangChain4j schema elements. Each call runs through the
     * conversation's {@code MemorySession.callTool}, so the call and its output are recorded in
     * that conversation. With {@code strictTools(true)} on LangChain4j's OpenAI models the tools
     * are strict: optional arguments become nullable, which the tools read as absent. A call that
     * {@link #listeners()} could not claim (its conversation busy) is refused here, as LangChain4j
     * asks for the tools.
     *
     * @return the provider of the memory tools; the same instance on every call
     */
    public ToolProvider toolProvider() {
        return toolProvider;
    }

    /**
     * For {@code AiServices.outputGuardrails}: rewrites the final answer to its visible text (the
     * {@code <oai-mem-citation>} markup removed), records it and counts the cited memories as
     * used. List it last among output guardrails, so an answer a later guardrail retries is not
     * counted twice. On a streamed call LangChain4j still replays the raw tokens to
     * {@code onPartialResponse} after the guardrail ran; {@link #configure} leaves it out of
     * services that stream.
     *
     * @return the guardrail stripping citation markup; the same instance on every call
     */
    public OutputGuardrail citationGuardrail() {
        return guardrail;
    }

    /**
     * For {@code AiServices.registerListeners}: each call is one exchange of its conversation. Its
     * user message is recorded when it starts, claiming the conversation unless {@link #configure}'s
     * service did; its answer when it completes, unless {@link #citationGuardrail()} or a visible
     * token stream recorded it already; the claim is released when it completes or fails.
     * LangChain4j ignores what a listener throws, so a call the listeners cannot claim is logged and
     * records nothing. Without the guardrail the answer is recorded as visible text and its
     * citations counted, but the caller still receives the raw text; answers of methods returning a
     * structured object are recorded only through the guardrail. Used without {@link #configure}, a
     * streamed call holds its conversation until LangChain4j reports its end: start every
     * {@code TokenStream} and give it {@code onError}.
     *
     * @return the listeners to register with {@code AiServices.registerListeners}
     */
    public List<AiServiceListener<?>> listeners() {
        return listeners;
    }

    /**
     * For a service not built by {@link #configure}'s builder (whose streams are visible already):
     * the stream of a call with its partial responses reduced to the visible text. Citation markup
     * is held back however the tokens split it, text held back at the end is shown before the
     * stream completes, the complete response carries the visible text, and the answer is
     * recorded and its citations counted once when the stream completes; when it fails, what was
     * shown is recorded at once. Set handlers on the returned stream, not on {@code stream}. Call it
     * on the same instance whose hooks configured the service.
     *
     * <pre>{@code
     * mnemo.visibleTokens(assistant.stream(id, text), id)
     *         .onPartialResponse(System.out::print)
     *         .onCompleteResponse(done -> latch.countDown())
     *         .onError(Throwable::printStackTrace)
     *         .start();
     * }</pre>
     *
     * @param stream the stream the service method returned, not started yet; not null
     * @param memoryId the {@code @MemoryId} the call was made with
     * @return a stream of visible text; {@code stream} itself when it is one already
     */
    public TokenStream visibleTokens(TokenStream stream, Object memoryId) {
        Objects.requireNonNull(stream, "stream");
        if (stream instanceof VisibleTokenStream visible) {
            return visible;
        }
        MemoryIds.conversationId(memoryId);
        return new VisibleTokenStream(stream, memoryId, exchanges);
    }

    /**
     * The application's own short-term chat memory, kept apart per tenant: a decorator over
     * {@code store} that hands it a {@link TenantScopedChatMemoryStore.Key} of the tenant and the
     * memory id, so two tenants that pick the same memory id never read or extend each other's
     * history. Each read and write finds its tenant as the hooks do (the exchange of the call running
     * on the thread, on the HTTP client's thread of a stream too when {@link #listeners()} are
     * registered, as {@link #configure} does; else this instance's {@link TenantResolver}); one whose
     * tenant cannot be found is refused with
     * {@link IllegalStateException}. Use it for every {@code ChatMemory} of a service made with
     * {@link #create(MemoryEngines, TenantResolver)}: a plain store keys history by the memory id
     * alone.
     *
     * <pre>{@code
     * ChatMemoryStore history = mnemo.chatMemoryStore(new InMemoryChatMemoryStore());
     * builder.chatMemoryProvider(id -> MessageWindowChatMemory.builder().id(id).maxMessages(20)
     *         .chatMemoryStore(history).build());
     * }</pre>
     *
     * @param store the application's chat memory store; not null
     * @return a store keyed by tenant and memory id, delegating to {@code store}
     */
    public ChatMemoryStore chatMemoryStore(ChatMemoryStore store) {
        Objects.requireNonNull(store, "store");
        return new TenantScopedChatMemoryStore(store, exchanges::tenantOf);
    }

    /**
     * Ends a conversation now ({@link MemoryEngine#closeConversation}): what an application calls
     * when a chat is closed or its user signs out. Its recording stops; an answer still running on
     * it is not recorded. The conversation is marked finished, so the next pipeline run (the next
     * conversation's startup task, or {@code engine.admin().runPhase1(..)}) extracts it without
     * waiting {@code min_rollout_idle_hours}. A later call with the same memory id continues the same
     * rollout and puts it back under the idle rule. With
     * {@link #create(MemoryEngines, TenantResolver)} the tenant is resolved here, on the caller's
     * thread, and only that tenant's conversation is ended.
     *
     * @param memoryId the {@code @MemoryId} of the conversation, as the service was called with it
     * @return false when the conversation was not open (it is marked finished all the same)
     */
    public boolean endConversation(Object memoryId) {
        return exchanges.endConversation(memoryId);
    }

    /**
     * The receipt of the newest answer recorded in the conversation of {@code memoryId}, by any hook
     * of this instance (through {@link #configure}'s service, the hooks alone, or
     * {@link #visibleTokens}): what memory it was given, read and cited. For methods whose answer
     * carries no {@code AiMessage}, such as one returning {@code String}:
     *
     * <pre>{@code
     * String answer = assistant.chat("alice-1", "How do we deploy?");
     * mnemo.lastReceipt("alice-1").ifPresent(receipt -> audit.record("alice-1", receipt));
     * }</pre>
     *
     * A conversation runs one exchange at a time, so right after a call returns (or its stream
     * completed) this is that call's receipt, until the conversation's next answer. With
     * {@link #create(MemoryEngines, TenantResolver)} the tenant is resolved here, on the caller's
     * thread, and only that tenant's conversation is looked up.
     *
     * @param memoryId the {@code @MemoryId} of the conversation, as the service was called with it
     * @return empty when no answer of the conversation was recorded since it last ended, when the
     *     call had no tenant, or when 1,024 other conversations were answered since
     */
    public Optional<MemoryReceipt> lastReceipt(Object memoryId) {
        return exchanges.lastReceipt(memoryId);
    }

    /**
     * The receipt on an answer's message, under {@link #RECEIPT}; empty when it carries none.
     *
     * @param message an answer's message; not null
     * @return the receipt, or empty when the message carries none
     */
    public static Optional<MemoryReceipt> receipt(AiMessage message) {
        return Receipts.of(Objects.requireNonNull(message, "message"));
    }

    /**
     * The receipt on a response's message (a {@code ChatResponse} answer, or a stream's complete response).
     *
     * @param response a chat response; not null
     * @return the receipt, or empty when the response has no message or its message carries none
     */
    public static Optional<MemoryReceipt> receipt(ChatResponse response) {
        Objects.requireNonNull(response, "response");
        return response.aiMessage() == null ? Optional.empty() : Receipts.of(response.aiMessage());
    }

    /**
     * The receipt on a {@code Result}'s final response: what memory the answer was given, read and cited.
     *
     * <pre>{@code
     * interface Assistant { Result<String> chat(@MemoryId String id, @UserMessage String text); }
     * Result<String> result = assistant.chat("alice-1", "How do we deploy?");
     * MnemoLangChain4j.receipt(result).ifPresent(receipt -> log.info("cited memory: {}", receipt.cited()));
     * }</pre>
     *
     * @param result a service method's {@code Result}; not null
     * @return the receipt, or empty when the result has no final response or it carries none
     */
    public static Optional<MemoryReceipt> receipt(Result<?> result) {
        Objects.requireNonNull(result, "result");
        return result.finalResponse() == null ? Optional.empty() : receipt(result.finalResponse());
    }

    /**
     * Mnemo's model SPI over a LangChain4j {@link ChatModel}, to run Phase 1 and Phase 2 on the
     * application's model: {@code MemoryEngine.builder().model(MnemoLangChain4j.languageModel(chatModel))}.
     * Tools and tool calls, Phase 1's JSON schema as a {@code ResponseFormat}, token usage and
     * finish reason are carried across; LangChain4j's exceptions become {@code ModelException}s
     * with a reason and {@code retryable()} (a provider's context-length error is
     * {@code CONTEXT_WINDOW_EXCEEDED}, its message kept). Tokens are counted by {@code model} when
     * it is a LangChain4j {@link TokenCountEstimator}, else estimated at four UTF-8 bytes each; see
     * {@link #languageModel(ChatModel, TokenCountEstimator)}.
     *
     * @param model the LangChain4j chat model to call; not null
     * @return a language model for {@code MemoryEngine.builder().model(..)}
     */
    public static LanguageModel languageModel(ChatModel model) {
        return new LangChain4jLanguageModel(model);
    }

    /**
     * As {@link #languageModel(ChatModel)}, counting tokens with {@code estimator}'s
     * {@code estimateTokenCountInText} (it must be thread-safe), e.g.
     * {@code new OpenAiTokenCountEstimator("gpt-4o")} from {@code langchain4j-open-ai}.
     *
     * @param model the LangChain4j chat model to call; not null
     * @param estimator counts the tokens of a text; thread-safe, not null
     * @return a language model for {@code MemoryEngine.builder().model(..)}
     */
    public static LanguageModel languageModel(ChatModel model, TokenCountEstimator estimator) {
        return new LangChain4jLanguageModel(model, Objects.requireNonNull(estimator, "estimator"));
    }
}
