package dev.mnemo.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.TokenCountEstimator;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.request.ResponseFormatType;
import dev.langchain4j.model.chat.request.json.JsonSchema;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.mnemo.llm.FinishReason;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.OutputSchema;
import dev.mnemo.llm.TokenCounter;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.llm.ToolSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Mnemo's {@link LanguageModel} over a LangChain4j {@link ChatModel}, so Phase 1 and Phase 2 run
 * on the model the application already configured.
 *
 * <p>Instructions become the first system message, developer messages system messages; tools
 * become {@code ToolSpecification}s and a Phase 1 output schema a JSON-schema
 * {@code ResponseFormat} (strict when the model is built so: {@code strictJsonSchema(true)} on
 * LangChain4j's OpenAI models). {@code reasoningEffort} and {@code metadata} have no
 * provider-neutral place in a {@code ChatRequest} and are not passed on; cached and reasoning
 * token counts are provider-specific and reported as 0.
 *
 * <p>Tokens are counted with a LangChain4j {@link TokenCountEstimator}'s
 * {@code estimateTokenCountInText}: the one given, else the {@code ChatModel} itself when it is
 * one, else {@link TokenCounter#estimate()}.
 */
final class LangChain4jLanguageModel implements LanguageModel {

    private final ChatModel model;
    private final TokenCounter tokenCounter;

    LangChain4jLanguageModel(ChatModel model) {
        this(model, model instanceof TokenCountEstimator own ? own : null);
    }

    /** Over {@code model}, counting with {@code estimator}; null for the four-byte estimate. */
    LangChain4jLanguageModel(ChatModel model, TokenCountEstimator estimator) {
        this.model = Objects.requireNonNull(model, "model");
        this.tokenCounter = estimator == null ? TokenCounter.estimate() : new EstimatorTokenCounter(estimator);
    }

    @Override
    public TokenCounter tokenCounter() {
        return tokenCounter;
    }

    @Override
    public ModelResponse respond(ModelRequest request) {
        ChatRequest chatRequest = chatRequest(request);
        ChatResponse response;
        try {
            response = model.chat(chatRequest);
        } catch (RuntimeException e) {
            throw ModelErrors.translate(e);
        }
        return modelResponse(response);
    }

    static ChatRequest chatRequest(ModelRequest request) {
        ChatRequest.Builder chat = ChatRequest.builder().messages(messages(request));
        if (!request.model().isEmpty()) {
            chat.modelName(request.model());
        }
        if (!request.tools().isEmpty()) {
            List<ToolSpecification> tools = new ArrayList<>();
            for (ToolSpec tool : request.tools()) {
                tools.add(MemoryToolProvider.specification(tool));
            }
            chat.toolSpecifications(tools);
        }
        request.outputSchema().ifPresent(schema -> chat.responseFormat(responseFormat(schema)));
        return chat.build();
    }

    private static ResponseFormat responseFormat(OutputSchema schema) {
        return ResponseFormat.builder()
                .type(ResponseFormatType.JSON)
                .jsonSchema(JsonSchema.builder()
                        .name(schema.name())
                        .rootElement(JsonSchemas.object("output " + schema.name(), schema.jsonSchema()))
                        .build())
                .build();
    }

    private static List<ChatMessage> messages(ModelRequest request) {
        List<ChatMessage> messages = new ArrayList<>();
        if (!request.instructions().isEmpty()) {
            messages.add(SystemMessage.from(request.instructions()));
        }
        Map<String, String> toolNames = new HashMap<>();
        for (ModelMessage message : request.messages()) {
            switch (message.role()) {
                case DEVELOPER -> messages.add(SystemMessage.from(message.text()));
                case USER -> messages.add(UserMessage.from(message.text()));
                case ASSISTANT -> messages.add(assistant(message, toolNames));
                case TOOL -> {
                    String callId = message.toolCallId().orElseThrow();
                    messages.add(ToolExecutionResultMessage.from(callId, toolNames.getOrDefault(callId, ""),
                            message.text()));
                }
            }
        }
        return messages;
    }

    private static AiMessage assistant(ModelMessage message, Map<String, String> toolNames) {
        if (message.toolCalls().isEmpty()) {
            return AiMessage.from(message.text());
        }
        List<ToolExecutionRequest> calls = new ArrayList<>();
        for (ToolCall call : message.toolCalls()) {
            toolNames.put(call.id(), call.name());
            calls.add(ToolExecutionRequest.builder().id(call.id()).name(call.name()).arguments(call.argumentsJson())
                    .build());
        }
        return message.text().isEmpty() ? AiMessage.from(calls) : AiMessage.from(message.text(), calls);
    }

    static ModelResponse modelResponse(ChatResponse response) {
        AiMessage message = response.aiMessage();
        List<ToolCall> calls = new ArrayList<>();
        if (message.hasToolExecutionRequests()) {
            for (ToolExecutionRequest call : message.toolExecutionRequests()) {
                calls.add(new ToolCall(Objects.requireNonNullElse(call.id(), ""), call.name(),
                        Objects.requireNonNullElse(call.arguments(), "{}")));
            }
        }
        String text = Objects.requireNonNullElse(message.text(), "");
        return new ModelResponse(text, calls, usage(response.tokenUsage()), finishReason(response, calls));
    }

    private static TokenUsage usage(dev.langchain4j.model.output.TokenUsage usage) {
        if (usage == null) {
            return TokenUsage.ZERO;
        }
        return new TokenUsage(count(usage.inputTokenCount()), 0, count(usage.outputTokenCount()), 0);
    }

    private static long count(Integer tokens) {
        return tokens == null ? 0 : tokens;
    }

    private static FinishReason finishReason(ChatResponse response, List<ToolCall> calls) {
        dev.langchain4j.model.output.FinishReason reason = response.finishReason();
        if (reason == null) {
            return calls.isEmpty() ? FinishReason.STOP : FinishReason.TOOL_CALLS;
        }
        return switch (reason) {
            case STOP -> FinishReason.STOP;
            case TOOL_EXECUTION -> FinishReason.TOOL_CALLS;
            case LENGTH -> FinishReason.LENGTH;
            case CONTENT_FILTER -> FinishReason.CONTENT_FILTER;
            default -> FinishReason.OTHER;
        };
    }
}
