package dev.mnemo.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.llm.FinishReason;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.OutputSchema;
import dev.mnemo.llm.ReasoningEffort;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.llm.ToolSpec;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * The Chat Completions API ({@code POST /chat/completions}): instructions as a leading
 * {@code system} message, tool calls as {@code tool_calls} answered by {@code tool} messages with
 * {@code tool_call_id}, structured output in {@code response_format}, reasoning in
 * {@code reasoning_effort}.
 *
 * <p>Developer messages are sent with role {@code system}: OpenAI treats the two alike, and the chat
 * templates of many local servers know no {@code developer} role. Request metadata is not sent,
 * since OpenAI accepts it here only for stored completions and local servers not at all.
 */
final class ChatCompletionsFormat implements WireFormat {

    private final ErrorMapping errors;

    ChatCompletionsFormat(ErrorMapping errors) {
        this.errors = errors;
    }

    @Override
    public String path() {
        return "/chat/completions";
    }

    @Override
    public ObjectNode encode(ModelRequest request, String model, ReasoningEffort effort) {
        ObjectNode root = OpenAiLanguageModel.JSON.createObjectNode();
        root.put("model", model);
        ArrayNode messages = root.putArray("messages");
        if (!request.instructions().isEmpty()) {
            messages.addObject().put("role", "system").put("content", request.instructions());
        }
        request.messages().forEach(m -> messages.add(message(m)));
        if (!request.tools().isEmpty()) {
            ArrayNode tools = root.putArray("tools");
            request.tools().forEach(t -> tools.add(tool(t)));
        }
        request.outputSchema().ifPresent(s -> root.set("response_format", responseFormat(s)));
        WireFormat.effort(effort).ifPresent(e -> root.put("reasoning_effort", e));
        return root;
    }

    private static ObjectNode message(ModelMessage m) {
        ObjectNode node = OpenAiLanguageModel.JSON.createObjectNode();
        switch (m.role()) {
            case DEVELOPER -> node.put("role", "system").put("content", m.text());
            case USER -> node.put("role", "user").put("content", m.text());
            case ASSISTANT -> {
                node.put("role", "assistant");
                if (m.toolCalls().isEmpty() || !m.text().isEmpty()) {
                    node.put("content", m.text());
                } else {
                    node.putNull("content");
                }
                if (!m.toolCalls().isEmpty()) {
                    ArrayNode calls = node.putArray("tool_calls");
                    for (ToolCall call : m.toolCalls()) {
                        ObjectNode c = calls.addObject().put("id", call.id()).put("type", "function");
                        c.putObject("function").put("name", call.name()).put("arguments", call.argumentsJson());
                    }
                }
            }
            case TOOL -> node.put("role", "tool").put("tool_call_id", m.toolCallId().orElseThrow())
                    .put("content", m.text());
        }
        return node;
    }

    private static ObjectNode tool(ToolSpec spec) {
        ObjectNode tool = OpenAiLanguageModel.JSON.createObjectNode().put("type", "function");
        ObjectNode function = tool.putObject("function").put("name", spec.name()).put("description", spec.description());
        function.set("parameters", WireFormat.schema("parameters of tool '" + spec.name() + "'",
                spec.parametersJsonSchema()));
        function.put("strict", true);
        return tool;
    }

    private static ObjectNode responseFormat(OutputSchema schema) {
        ObjectNode format = OpenAiLanguageModel.JSON.createObjectNode().put("type", "json_schema");
        ObjectNode jsonSchema = format.putObject("json_schema").put("name", schema.name());
        jsonSchema.set("schema", WireFormat.schema("output schema '" + schema.name() + "'", schema.jsonSchema()));
        jsonSchema.put("strict", schema.strict());
        return format;
    }

    @Override
    public ModelResponse decode(JsonNode answer, URI endpoint) {
        JsonNode choice = answer.path("choices").path(0);
        if (choice.isMissingNode()) {
            JsonNode error = answer.get("error");
            if (error != null && error.isObject()) {
                throw errors.fromApiError(endpoint, error);
            }
            throw new ModelException(ModelException.Reason.UNKNOWN, "the answer from " + endpoint
                    + " has no choices: " + ErrorMapping.excerpt(answer.toString()));
        }
        JsonNode message = choice.path("message");
        List<ToolCall> calls = new ArrayList<>();
        int index = 0;
        for (JsonNode call : message.path("tool_calls")) {
            JsonNode function = call.path("function");
            JsonNode arguments = function.path("arguments");
            String id = WireFormat.text(call, "id");
            calls.add(new ToolCall(id.isEmpty() ? "call_" + index : id, WireFormat.text(function, "name"),
                    arguments.isTextual() ? arguments.asText() : arguments.isMissingNode() ? "{}" : arguments.toString()));
            index++;
        }
        String text = content(message.path("content"));
        String refusal = WireFormat.text(message, "refusal");
        TokenUsage usage = new TokenUsage(WireFormat.count(answer, "/usage/prompt_tokens"),
                WireFormat.count(answer, "/usage/prompt_tokens_details/cached_tokens"),
                WireFormat.count(answer, "/usage/completion_tokens"),
                WireFormat.count(answer, "/usage/completion_tokens_details/reasoning_tokens"));
        if (!refusal.isEmpty()) {
            return new ModelResponse(text.isEmpty() ? refusal : text, calls, usage, FinishReason.CONTENT_FILTER);
        }
        return new ModelResponse(text, calls, usage, finishReason(WireFormat.text(choice, "finish_reason"), calls));
    }

    /** Content is a string, or (from some servers) an array of {@code {"type":"text","text":...}} parts. */
    private static String content(JsonNode content) {
        if (content.isArray()) {
            StringBuilder sb = new StringBuilder();
            content.forEach(part -> sb.append(WireFormat.text(part, "text")));
            return sb.toString();
        }
        return content.isMissingNode() || content.isNull() ? "" : content.asText();
    }

    private static FinishReason finishReason(String reason, List<ToolCall> calls) {
        return switch (reason) {
            case "length" -> FinishReason.LENGTH;
            case "content_filter" -> FinishReason.CONTENT_FILTER;
            case "tool_calls", "function_call" -> FinishReason.TOOL_CALLS;
            // Some local servers say "stop" after a tool call; the calls are what matters.
            case "stop", "" -> calls.isEmpty() ? FinishReason.STOP : FinishReason.TOOL_CALLS;
            default -> FinishReason.OTHER;
        };
    }
}
