package dev.mnemo.langchain4j;

import dev.langchain4j.guardrail.OutputGuardrail;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.observability.api.listener.AiServiceListener;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.TokenStream;
import dev.langchain4j.service.tool.ToolProvider;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.llm.LanguageModel;
import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Mnemo's memory inside LangChain4j {@link AiServices}: the memory instructions on every model
 * call (also inside the tool loop), the memory tools, citation stripping with usage counting, and
 * each turn recorded for Phase 1. The conversation is the service method's {@code @MemoryId}
 * (its {@code toString()}; {@code "default"} for methods without one), opened with
 * {@link MemoryEngine#conversation(String)} on first use, which also starts the startup task.
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
 * <p>Each hook works alone; {@link #configure} applies them all. The hooks are thin: instructions,
 * tools, citations and recording are {@link dev.mnemo.MemorySession}'s, used through it.
 *
 * <p><b>Concurrency.</b> One instance serves any number of conversations at once: every hook finds
 * its conversation from the memory id LangChain4j hands it with each request, tool call and event,
 * never from shared or thread-local state, so two conversations never see each other's
 * instructions, tool calls or recordings. Calls on <em>one</em> memory id at the same time are
 * recorded in the order their steps happen, interleaved; LangChain4j itself does not support
 * concurrent calls on one memory id, and {@link #visibleTokens} refuses a second running stream
 * for one.
 */
public final class MnemoLangChain4j {

    /** Separates tenant and conversation in the memory ids {@link #create(MemoryEngines)} reads. */
    public static final char TENANT_SEPARATOR = ':';

    private final Conversations conversations;
    private final Turns turns = new Turns();
    private final InstructionsTransformer transformer;
    private final MemoryToolProvider toolProvider;
    private final CitationGuardrail guardrail;
    private final List<AiServiceListener<?>> listeners;

    private MnemoLangChain4j(Conversations conversations) {
        this.conversations = conversations;
        this.transformer = new InstructionsTransformer(conversations);
        this.toolProvider = new MemoryToolProvider(conversations);
        this.guardrail = new CitationGuardrail(conversations, turns);
        this.listeners = new TurnListeners(conversations, turns).all();
    }

    /** Hooks over one engine: every memory id is a conversation of {@code engine}. */
    public static MnemoLangChain4j create(MemoryEngine engine) {
        return new MnemoLangChain4j(Conversations.of(engine));
    }

    /**
     * Hooks over one engine per tenant, for memory ids written {@code "<tenant>:<conversation>"}:
     * the tenant is the part before the first {@code ':'}, the conversation id the whole memory id.
     * A memory id without a tenant part fails the call with an {@link IllegalArgumentException}.
     */
    public static MnemoLangChain4j create(MemoryEngines engines) {
        return create(engines, MnemoLangChain4j::tenantPrefix);
    }

    /**
     * Hooks over one engine per tenant, the tenant of a call being {@code tenantResolver} applied
     * to its memory id (for instance a field of the application's own memory-id type); the
     * conversation id is the memory id's {@code toString()} within that tenant's engine.
     *
     * @param tenantResolver gives a non-blank tenant id for every memory id the services use; it
     *     is called for every request, tool call and event, so it must be cheap and pure
     */
    public static MnemoLangChain4j create(MemoryEngines engines, Function<Object, String> tenantResolver) {
        return new MnemoLangChain4j(Conversations.of(engines, tenantResolver));
    }

    /**
     * Applies every hook: {@link #requestTransformer()} as the builder's
     * {@code chatRequestTransformer}, {@link #toolProvider()}, {@link #citationGuardrail()} as the
     * output guardrails and {@link #listeners()}.
     *
     * <p>LangChain4j keeps a single {@code chatRequestTransformer} and a single list of output
     * guardrails per builder: this replaces any set before. To keep one of your own, set it
     * after this call, composed with Mnemo's:
     * {@code builder.chatRequestTransformer((request, id) -> mine.apply(mnemo.requestTransformer().apply(request, id), id))},
     * and list {@link #citationGuardrail()} last among your output guardrails. LangChain4j 1.19
     * adds tool providers to those set before; 1.11 keeps only the last one.
     *
     * <p>For methods returning {@code TokenStream}, prefer {@link #configureStreaming}: output
     * guardrails make LangChain4j hold a streamed answer back until it is complete.
     */
    public <T> AiServices<T> configure(AiServices<T> services) {
        configureStreaming(services);
        services.outputGuardrails(List.of(guardrail));
        return services;
    }

    /**
     * Applies every hook except the citation guardrail, for services that stream: wrap each
     * {@code TokenStream} with {@link #visibleTokens} to show the visible text as it arrives and
     * have the answer recorded and its citations counted.
     */
    public <T> AiServices<T> configureStreaming(AiServices<T> services) {
        Objects.requireNonNull(services, "services");
        services.chatRequestTransformer(transformer);
        services.toolProvider(toolProvider);
        services.registerListeners(listeners);
        return services;
    }

    /**
     * For {@code AiServices.chatRequestTransformer}: appends the conversation's memory
     * instructions to the system message of each outgoing request (adding one when there is
     * none), on the first call and on every call of the tool loop. The request is rebuilt;
     * the application's {@code ChatMemory} never holds the instructions.
     */
    public BiFunction<ChatRequest, Object, ChatRequest> requestTransformer() {
        return transformer;
    }

    /**
     * For {@code AiServices.toolProvider}: the memory tools (list, read, search, add an ad-hoc
     * note) with Mnemo's JSON schemas as LangChain4j schema elements. Each call runs through the
     * conversation's {@code MemorySession.callTool}, so the call and its output are recorded in
     * that conversation. With {@code strictTools(true)} on LangChain4j's OpenAI models the tools
     * are strict: optional arguments become nullable, which the tools read as absent.
     */
    public ToolProvider toolProvider() {
        return toolProvider;
    }

    /**
     * For {@code AiServices.outputGuardrails}: rewrites the final answer to its visible text (the
     * {@code <oai-mem-citation>} markup removed), records it and counts the cited memories as
     * used. List it last among output guardrails, so an answer a later guardrail retries is not
     * counted twice. On a streamed call LangChain4j still replays the raw tokens to
     * {@code onPartialResponse} after the guardrail ran; use {@link #visibleTokens} there.
     */
    public OutputGuardrail citationGuardrail() {
        return guardrail;
    }

    /**
     * For {@code AiServices.registerListeners}: each call's user message is recorded when it
     * starts; its answer when it completes, unless {@link #citationGuardrail()} or
     * {@link #visibleTokens} recorded it already. Without the guardrail the answer is recorded as
     * visible text and its citations counted, but the caller still receives the raw text; answers
     * of methods returning a structured object are recorded only through the guardrail.
     */
    public List<AiServiceListener<?>> listeners() {
        return listeners;
    }

    /**
     * The stream of a service call with its partial responses reduced to the visible text:
     * citation markup is held back however the tokens split it, the complete response carries the
     * visible text, and the answer is recorded and its citations counted once, when the stream
     * completes. Set handlers on the returned stream, not on {@code stream}. Call it on the same
     * instance whose hooks configured the service: that is how its guardrail and listeners know
     * the stream takes the answer, so it is recorded and counted once.
     *
     * <pre>{@code
     * mnemo.visibleTokens(assistant.stream(id, text), id)
     *         .onPartialResponse(System.out::print)
     *         .onCompleteResponse(done -> latch.countDown())
     *         .onError(Throwable::printStackTrace)
     *         .start();
     * }</pre>
     *
     * @param memoryId the {@code @MemoryId} the call was made with
     */
    public TokenStream visibleTokens(TokenStream stream, Object memoryId) {
        Objects.requireNonNull(stream, "stream");
        return new VisibleTokenStream(stream, memoryId, conversations, turns);
    }

    /**
     * Mnemo's model SPI over a LangChain4j {@link ChatModel}, to run Phase 1 and Phase 2 on the
     * application's model: {@code MemoryEngine.builder().model(MnemoLangChain4j.languageModel(chatModel))}.
     * Tools and tool calls, Phase 1's JSON schema as a {@code ResponseFormat}, token usage and
     * finish reason are carried across; LangChain4j's exceptions become {@code ModelException}s
     * with a reason and {@code retryable()}.
     */
    public static LanguageModel languageModel(ChatModel model) {
        return new LangChain4jLanguageModel(model);
    }

    private static String tenantPrefix(Object memoryId) {
        String id = memoryId.toString();
        int separator = id.indexOf(TENANT_SEPARATOR);
        if (separator <= 0) {
            throw new IllegalArgumentException("memory id '" + id + "' names no tenant: with create(MemoryEngines)"
                    + " memory ids are \"<tenant>" + TENANT_SEPARATOR + "<conversation>\", or pass a tenant resolver");
        }
        return id.substring(0, separator);
    }
}
