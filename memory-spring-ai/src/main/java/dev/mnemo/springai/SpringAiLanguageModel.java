package dev.mnemo.springai;

import dev.mnemo.llm.FinishReason;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.OutputSchema;
import dev.mnemo.llm.RateLimitSnapshot;
import dev.mnemo.llm.TokenCounter;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.llm.ToolSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.metadata.RateLimit;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.StructuredOutputChatOptions;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tokenizer.TokenCountEstimator;
import org.springframework.ai.tool.ToolCallback;

/**
 * Mnemo's {@link LanguageModel} over any Spring AI {@link ChatModel}: Phase 1 and Phase 2 run
 * through the model the application already configured.
 *
 * <ul>
 *   <li>Instructions and developer messages become system messages; tool calls and tool outputs
 *       become Spring AI's assistant tool calls and tool responses.</li>
 *   <li>Tools are offered as definitions only: the model's tool calls come back in the
 *       {@link ModelResponse} for Mnemo's own loop to run (a Spring AI {@code ChatModel} never runs
 *       tools itself; that is the {@code ToolCallingAdvisor}'s job, which is not involved here).</li>
 *   <li>A strict output schema (Phase 1) is the provider's structured-output option when its
 *       options support {@link StructuredOutputChatOptions} (OpenAI: {@code response_format}
 *       {@code json_schema}, strict); otherwise the schema is added to the instructions.</li>
 *   <li>The request's model name, when not blank, overrides the {@code ChatModel}'s default.
 *       Reasoning effort and request metadata are provider-specific options and are not passed.</li>
 *   <li>Token usage, the finish reason and, where the response metadata carries them, rate-limit
 *       figures are read back; failures become {@link ModelException}s whose
 *       {@link ModelException#retryable()} is true for 408, 429, 5xx, time-outs and network errors;
 *       a 4xx whose message says the context length was exceeded is
 *       {@link ModelException.Reason#CONTEXT_WINDOW_EXCEEDED}, the provider's words kept.</li>
 *   <li>Tokens are counted with the Spring AI {@link TokenCountEstimator} given to
 *       {@link #of(ChatModel, TokenCountEstimator)} (e.g. {@code new JTokkitTokenCountEstimator(EncodingType.O200K_BASE)}
 *       for OpenAI's recent models), else with {@link TokenCounter#estimate()}: a {@code ChatModel}
 *       does not say which tokenizer its model uses, and Spring AI's own default encoding
 *       ({@code cl100k_base}) would be wrong for most.</li>
 * </ul>
 *
 * <p>Thread-safe when the {@code ChatModel} is.
 */
public final class SpringAiLanguageModel implements LanguageModel {

    private final ChatModel chatModel;
    private final TokenCounter tokenCounter;
    private final AtomicReference<RateLimitSnapshot> lastRateLimits = new AtomicReference<>();

    private SpringAiLanguageModel(ChatModel chatModel, TokenCounter tokenCounter) {
        this.chatModel = chatModel;
        this.tokenCounter = tokenCounter;
    }

    /**
     * Mnemo's model over {@code chatModel}, with that model's default options; tokens are estimated.
     *
     * @param chatModel the Spring AI model to call; not null
     * @return a language model for Mnemo's pipeline
     */
    public static SpringAiLanguageModel of(ChatModel chatModel) {
        return new SpringAiLanguageModel(Objects.requireNonNull(chatModel, "chatModel"), TokenCounter.estimate());
    }

    /**
     * Mnemo's model over {@code chatModel}, counting tokens with {@code estimator} (which must be
     * thread-safe, as Spring AI's {@code JTokkitTokenCountEstimator} is). A text the estimator cannot
     * count is estimated at four bytes a token.
     *
     * @param chatModel the Spring AI model to call; not null
     * @param estimator counts tokens of a text; thread-safe
     * @return a language model for Mnemo's pipeline
     */
    public static SpringAiLanguageModel of(ChatModel chatModel, TokenCountEstimator estimator) {
        return new SpringAiLanguageModel(Objects.requireNonNull(chatModel, "chatModel"),
                new EstimatorTokenCounter(estimator));
    }

    @Override
    public ModelResponse respond(ModelRequest request) {
        Objects.requireNonNull(request, "request");
        Prompt prompt = new Prompt(messages(request), options(request));
        ChatResponse response;
        try {
            response = chatModel.call(prompt);
        } catch (RuntimeException e) {
            throw ModelErrors.map(e);
        }
        return read(response);
    }

    /** The estimator given to {@link #of(ChatModel, TokenCountEstimator)}, else {@link TokenCounter#estimate()}. */
    @Override
    public TokenCounter tokenCounter() {
        return tokenCounter;
    }

    /** The figures of the last response whose metadata carried rate limits. */
    @Override
    public Optional<RateLimitSnapshot> rateLimits() {
        return Optional.ofNullable(lastRateLimits.get());
    }

    @Override
    public String toString() {
        return "SpringAiLanguageModel[" + chatModel.getClass().getSimpleName() + ", " + tokenCounter + "]";
    }

    private List<Message> messages(ModelRequest request) {
        List<Message> out = new ArrayList<>();
        String instructions = request.instructions();
        if (request.outputSchema().isPresent() && !supportsStructuredOutput()) {
            instructions = withSchemaInstructions(instructions, request.outputSchema().get());
        }
        if (!instructions.isBlank()) {
            out.add(new SystemMessage(instructions));
        }
        Map<String, String> toolNames = new HashMap<>();
        for (ModelMessage message : request.messages()) {
            switch (message.role()) {
                case DEVELOPER -> out.add(new SystemMessage(message.text()));
                case USER -> out.add(new UserMessage(message.text()));
                case ASSISTANT -> {
                    List<AssistantMessage.ToolCall> calls = new ArrayList<>();
                    for (ToolCall call : message.toolCalls()) {
                        toolNames.put(call.id(), call.name());
                        calls.add(new AssistantMessage.ToolCall(call.id(), "function", call.name(),
                                call.argumentsJson()));
                    }
                    out.add(AssistantMessage.builder().content(message.text()).toolCalls(calls).build());
                }
                case TOOL -> {
                    String callId = message.toolCallId().orElseThrow();
                    out.add(ToolResponseMessage.builder().responses(List.of(new ToolResponseMessage.ToolResponse(
                            callId, toolNames.getOrDefault(callId, ""), message.text()))).build());
                }
            }
        }
        return out;
    }

    private ChatOptions options(ModelRequest request) {
        ChatOptions.Builder<?> builder = chatModel.getOptions().mutate();
        if (!request.model().isBlank()) {
            builder.model(request.model());
        }
        if (!request.tools().isEmpty()) {
            if (!(builder instanceof ToolCallingChatOptions.Builder<?> tools)) {
                throw new ModelException(ModelException.Reason.INVALID_REQUEST, chatModel.getClass().getSimpleName()
                        + " takes no tools (its options are not ToolCallingChatOptions); the request offers "
                        + request.tools().stream().map(ToolSpec::name).toList());
            }
            tools.toolCallbacks(request.tools().stream().map(SpringAiLanguageModel::definitionOnly).toList());
        }
        if (request.outputSchema().isPresent() && builder instanceof StructuredOutputChatOptions.Builder<?> structured) {
            structured.outputSchema(request.outputSchema().get().jsonSchema());
        }
        return builder.build();
    }

    private boolean supportsStructuredOutput() {
        return chatModel.getOptions().mutate() instanceof StructuredOutputChatOptions.Builder<?>;
    }

    private static String withSchemaInstructions(String instructions, OutputSchema schema) {
        String rule = "Answer with one JSON object and nothing else. It must match this JSON schema ("
                + schema.name() + "):\n" + schema.jsonSchema();
        return instructions.isBlank() ? rule : instructions + "\n\n" + rule;
    }

    /** A tool the model may call; the call comes back to the caller, so running it here is a bug. */
    private static ToolCallback definitionOnly(ToolSpec spec) {
        return new MemoryToolCallback(spec, (callId, arguments) -> {
            throw new IllegalStateException("SpringAiLanguageModel hands tool calls back to its caller; tool "
                    + spec.name() + " must not be run by a ToolCallingManager here");
        });
    }

    private ModelResponse read(ChatResponse response) {
        Generation generation = response == null ? null : response.getResult();
        if (generation == null) {
            throw new ModelException(ModelException.Reason.UNKNOWN, chatModel.getClass().getSimpleName()
                    + " answered without a generation");
        }
        AssistantMessage output = generation.getOutput();
        List<ToolCall> calls = output.getToolCalls().stream()
                .map(c -> new ToolCall(c.id(), c.name(), c.arguments() == null || c.arguments().isBlank()
                        ? "{}" : c.arguments()))
                .toList();
        recordRateLimits(response.getMetadata().getRateLimit());
        String text = output.getText() == null ? "" : output.getText();
        return new ModelResponse(text, calls, usage(response.getMetadata().getUsage()),
                finishReason(generation.getMetadata().getFinishReason(), calls));
    }

    private static TokenUsage usage(Usage usage) {
        if (usage == null) {
            return TokenUsage.ZERO;
        }
        long input = usage.getPromptTokens() == null ? 0 : usage.getPromptTokens();
        long output = usage.getCompletionTokens() == null ? 0 : usage.getCompletionTokens();
        long cached = usage.getCacheReadInputTokens() == null ? 0 : Math.min(input, usage.getCacheReadInputTokens());
        return new TokenUsage(input, cached, output, 0);
    }

    private static FinishReason finishReason(String reason, List<ToolCall> calls) {
        String normalized = reason == null ? "" : reason.toLowerCase(Locale.ROOT);
        return switch (normalized) {
            case "length", "max_tokens" -> FinishReason.LENGTH;
            case "content_filter", "safety" -> FinishReason.CONTENT_FILTER;
            case "tool_calls", "tool_use", "function_call" -> FinishReason.TOOL_CALLS;
            case "stop", "end_turn", "" -> calls.isEmpty() ? FinishReason.STOP : FinishReason.TOOL_CALLS;
            default -> calls.isEmpty() ? FinishReason.OTHER : FinishReason.TOOL_CALLS;
        };
    }

    /** Used shares of the request and token windows; providers that report none leave the last figures. */
    private void recordRateLimits(RateLimit limits) {
        if (limits == null) {
            return;
        }
        OptionalDouble requests = usedPercent(limits.getRequestsLimit(), limits.getRequestsRemaining());
        OptionalDouble tokens = usedPercent(limits.getTokensLimit(), limits.getTokensRemaining());
        if (requests.isEmpty() && tokens.isEmpty()) {
            return;
        }
        boolean reached = isZero(limits.getRequestsRemaining(), limits.getRequestsLimit())
                || isZero(limits.getTokensRemaining(), limits.getTokensLimit());
        lastRateLimits.set(new RateLimitSnapshot(requests, tokens, reached));
    }

    private static OptionalDouble usedPercent(Long limit, Long remaining) {
        if (limit == null || remaining == null || limit <= 0) {
            return OptionalDouble.empty();
        }
        long used = Math.max(0, limit - Math.min(limit, remaining));
        return OptionalDouble.of(100.0 * used / limit);
    }

    private static boolean isZero(Long remaining, Long limit) {
        return remaining != null && limit != null && limit > 0 && remaining <= 0;
    }
}
