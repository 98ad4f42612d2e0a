package dev.mnemo.springai;

import dev.mnemo.AssistantMessage;
import dev.mnemo.Citations;
import dev.mnemo.MemoryCitation;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.MemorySession;
import dev.mnemo.StrippedText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.Advisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisor;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Long-term memory for a Spring AI {@code ChatClient}: a thin layer over Mnemo's
 * {@link MemorySession}, which does the recording, the tools and the citation counting.
 *
 * <pre>{@code
 * ChatClient chat = ChatClient.builder(chatModel)
 *         .defaultAdvisors(MnemoAdvisor.builder(memory).build())
 *         .build();
 * String answer = chat.prompt().user(question)
 *         .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversationId))
 *         .call().content();
 * }</pre>
 *
 * <p>Per request, for the conversation named by the advisor param {@link ChatMemory#CONVERSATION_ID}
 * (opened with {@link MemoryEngine#conversation(String)} on first use, which starts the background
 * startup task):
 * <ol>
 *   <li>the memory instructions are appended to the system message (the application's own system
 *       text stays first and unchanged; a system message is added when there is none);</li>
 *   <li>when {@code dedicated_tools} is on, the memory tools are added to the request's tool
 *       callbacks, run by Spring AI's own tool-calling advisor, each call and output recorded;
 *       with it off the instructions are the shell-audience ones of
 *       {@link MemoryEngine#buildDeveloperInstructions()} and no tool is added;</li>
 *   <li>the last user message is recorded;</li>
 *   <li>{@code call}: the answer's citation markup is stripped, the visible text recorded and the
 *       cited memories counted; {@code stream}: per subscription, each chunk passes on at once
 *       with only its visible part (markup split across any chunk boundaries never reaches the
 *       subscriber), and when the model's stream completes one last chunk carries what the filter
 *       held back and the citation, and usage is counted. A cancelled or failed stream records
 *       what was shown up to then and counts any citation complete by then, once;</li>
 *   <li>the parsed {@link MemoryCitation} is put in the response context under {@link #CITATION}
 *       (streaming: in the last chunk's context).</li>
 * </ol>
 * Without a conversation id the advisor still adds the instructions (and the tools, run without
 * recording) and strips citations, but records and counts nothing; it logs that once.
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

    /** The advisor param naming the tenant, for an advisor built over {@link MemoryEngines}. */
    public static final String USER_ID = "mnemo_user_id";

    /** The response-context key of the parsed {@link MemoryCitation}, when the answer cited memories. */
    public static final String CITATION = "mnemo.citation";

    /**
     * {@code Ordered.HIGHEST_PRECEDENCE + 250}: inside chat-memory advisors ({@code + 200}), outside
     * the tool-calling advisor ({@code + 300}).
     */
    public static final int DEFAULT_ORDER = Advisor.DEFAULT_CHAT_MEMORY_PRECEDENCE_ORDER + 50;

    private static final Logger LOG = LoggerFactory.getLogger(MnemoAdvisor.class);

    private final Function<Map<String, @Nullable Object>, MemoryEngine> engineFor;
    private final int order;
    private final AtomicBoolean toldNoConversation = new AtomicBoolean();

    private MnemoAdvisor(Builder builder) {
        this.engineFor = builder.engineFor;
        this.order = builder.order;
    }

    /** An advisor over one engine. */
    public static Builder builder(MemoryEngine engine) {
        Objects.requireNonNull(engine, "engine");
        return new Builder(context -> engine);
    }

    /**
     * An advisor over one engine per tenant: each request names its tenant with the advisor param
     * {@link #USER_ID}, next to {@link ChatMemory#CONVERSATION_ID}. A request without it fails
     * with an {@link IllegalStateException} before anything reaches the model: a tenant's memories
     * are never guessed.
     *
     * <pre>{@code
     * chat.prompt().user(question)
     *         .advisors(a -> a.param(MnemoAdvisor.USER_ID, userId).param(ChatMemory.CONVERSATION_ID, conversationId))
     *         .call().content();
     * }</pre>
     */
    public static Builder builder(MemoryEngines engines) {
        Objects.requireNonNull(engines, "engines");
        return new Builder(context -> {
            Object tenant = context.get(USER_ID);
            if (tenant == null || tenant.toString().isBlank()) {
                throw new IllegalStateException("MnemoAdvisor keeps one memory per user: give the request the "
                        + "advisor param '" + USER_ID + "' (MnemoAdvisor.USER_ID) naming its user; this request has "
                        + (tenant == null ? "none" : "a blank one"));
            }
            return engines.forTenant(tenant.toString());
        });
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
        Turn turn = begin(request);
        ChatClientResponse response = chain.nextCall(turn.request());
        return turn.answer(response);
    }

    @Override
    public Flux<ChatClientResponse> adviseStream(ChatClientRequest request, StreamAdvisorChain chain) {
        return Flux.defer(() -> {
            Turn turn = begin(request);
            StreamedAnswer answer = turn.session() == null ? StreamedAnswer.unrecorded()
                    : StreamedAnswer.recorded(turn.session().streamAnswer());
            return chain.nextStream(turn.request())
                    .map(answer::visible)
                    .concatWith(Mono.fromCallable(answer::complete))
                    .doOnCancel(answer::cutShort)
                    .doOnError(e -> answer.cutShort());
        });
    }

    @Override
    public String toString() {
        return "MnemoAdvisor[order=" + order + "]";
    }

    /** Steps 1–3: the conversation, the instructions, the tools, the user message recorded. */
    private Turn begin(ChatClientRequest request) {
        MemoryEngine engine = engineFor.apply(request.context());
        String conversationId = conversationId(request.context());
        MemorySession session = conversationId == null ? null : engine.conversation(conversationId);
        if (session == null && toldNoConversation.compareAndSet(false, true)) {
            LOG.info("A ChatClient request without the advisor param '{}': memory instructions and citation "
                    + "stripping still apply, but no conversation is recorded and no citation counted "
                    + "(logged once per advisor)", ChatMemory.CONVERSATION_ID);
        }
        Prompt prompt = request.prompt();
        boolean tools = engine.config().dedicatedTools() && prompt.getOptions() instanceof ToolCallingChatOptions;
        String instructions = session != null && tools ? session.developerInstructions()
                : engine.buildDeveloperInstructions();
        if (!instructions.isEmpty()) {
            prompt = prompt.augmentSystemMessage(system -> system.mutate()
                    .text(system.getText() == null || system.getText().isEmpty() ? instructions
                            : system.getText() + "\n\n" + instructions)
                    .build());
        }
        if (tools) {
            prompt = prompt.mutate().chatOptions(withMemoryTools((ToolCallingChatOptions) prompt.getOptions(),
                    session != null ? MnemoToolCallbackProvider.forSession(session)
                            : MnemoToolCallbackProvider.of(engine))).build();
        }
        if (session != null) {
            lastUserText(prompt).ifPresent(session::userMessage);
        }
        return new Turn(request.mutate().prompt(prompt).build(), session);
    }

    private static @Nullable String conversationId(Map<String, @Nullable Object> context) {
        Object id = context.get(ChatMemory.CONVERSATION_ID);
        return id == null || id.toString().isBlank() ? null : id.toString();
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

    /** One request on its way: the request as advised, and its conversation when it names one. */
    private record Turn(ChatClientRequest request, @Nullable MemorySession session) {

        /** Steps 4–5 for a whole answer. */
        ChatClientResponse answer(ChatClientResponse response) {
            ChatResponse chat = response.chatResponse();
            Generation first = chat == null ? null : chat.getResult();
            if (first == null || first.getOutput().getText() == null) {
                return response;
            }
            String raw = first.getOutput().getText();
            String visible;
            Optional<MemoryCitation> citation;
            if (session != null) {
                AssistantMessage message = session.assistantMessage(raw);
                visible = message.visibleText();
                citation = message.citation();
            } else {
                StrippedText stripped = Citations.strip(raw);
                visible = stripped.visibleText();
                citation = Citations.parse(stripped.bodies());
            }
            ChatResponse shown = CitationText.rewrite(CitationText.withText(chat, visible), 1,
                    text -> Citations.strip(text).visibleText());
            ChatClientResponse.Builder out = response.mutate().chatResponse(shown);
            citation.ifPresent(c -> out.context(CITATION, c));
            return out.build();
        }
    }

    /** Configures a {@link MnemoAdvisor}. */
    public static final class Builder {
        private final Function<Map<String, @Nullable Object>, MemoryEngine> engineFor;
        private int order = DEFAULT_ORDER;

        private Builder(Function<Map<String, @Nullable Object>, MemoryEngine> engineFor) {
            this.engineFor = engineFor;
        }

        /** The advisor order; default {@link #DEFAULT_ORDER}. Keep it below the tool-calling advisor's. */
        public Builder order(int order) {
            this.order = order;
            return this;
        }

        public MnemoAdvisor build() {
            return new MnemoAdvisor(this);
        }
    }
}
