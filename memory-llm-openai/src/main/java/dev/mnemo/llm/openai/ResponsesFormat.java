package dev.mnemo.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.llm.FinishReason;
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
import java.util.Locale;

/**
 * OpenAI's Responses API ({@code POST /responses}): instructions in {@code instructions}, the
 * conversation as {@code input} items (messages, {@code function_call} and
 * {@code function_call_output}), structured output in {@code text.format}, reasoning in
 * {@code reasoning.effort}. Requests carry {@code store: false}.
 */
final class ResponsesFormat implements WireFormat {

    private final ErrorMapping errors;

    ResponsesFormat(ErrorMapping errors) {
        this.errors = errors;
    }

    @Override
    public String path() {
        return "/responses";
    }

    @Override
    public ObjectNode encode(ModelRequest request, String model, ReasoningEffort effort) {
        ObjectNode root = OpenAiLanguageModel.JSON.createObjectNode();
        root.put("model", model);
        if (!request.instructions().isEmpty()) {
            root.put("instructions", request.instructions());
        }
        ArrayNode input = root.putArray("input");
        request.messages().forEach(m -> addInput(input, m));
        if (!request.tools().isEmpty()) {
            ArrayNode tools = root.putArray("tools");
            request.tools().forEach(t -> tools.add(tool(t)));
        }
        request.outputSchema().ifPresent(s -> root.putObject("text").set("format", format(s)));
        WireFormat.effort(effort)
                .ifPresent(e -> root.putObject("reasoning").put("effort", e));
        root.put("store", false);
        if (!request.metadata().isEmpty()) {
            ObjectNode metadata = root.putObject("metadata");
            request.metadata().forEach(metadata::put);
        }
        return root;
    }

    private static void addInput(ArrayNode input, ModelMessage m) {
        switch (m.role()) {
            case DEVELOPER, USER -> input.add(message(m.role().name().toLowerCase(Locale.ROOT), m.text()));
            case ASSISTANT -> {
                if (!m.text().isEmpty() || m.toolCalls().isEmpty()) {
                    input.add(message("assistant", m.text()));
                }
                for (ToolCall call : m.toolCalls()) {
                    input.addObject().put("type", "function_call").put("call_id", call.id())
                            .put("name", call.name()).put("arguments", call.argumentsJson());
                }
            }
            case TOOL -> input.addObject().put("type", "function_call_output")
                    .put("call_id", m.toolCallId().orElseThrow()).put("output", m.text());
        }
    }

    private static ObjectNode message(String role, String text) {
        return OpenAiLanguageModel.JSON.createObjectNode().put("type", "message").put("role", role)
                .put("content", text);
    }

    private static ObjectNode tool(ToolSpec spec) {
        ObjectNode tool = OpenAiLanguageModel.JSON.createObjectNode().put("type", "function")
                .put("name", spec.name()).put("description", spec.description());
        tool.set("parameters", WireFormat.schema("parameters of tool '" + spec.name() + "'", spec.parametersJsonSchema()));
        tool.put("strict", true);
        return tool;
    }

    private static ObjectNode format(OutputSchema schema) {
        ObjectNode format = OpenAiLanguageModel.JSON.createObjectNode().put("type", "json_schema")
                .put("name", schema.name());
        format.set("schema", WireFormat.schema("output schema '" + schema.name() + "'", schema.jsonSchema()));
        format.put("strict", schema.strict());
        return format;
    }

    @Override
    public ModelResponse decode(JsonNode answer, URI endpoint) {
        String status = WireFormat.text(answer, "status");
        JsonNode error = answer.get("error");
        if (status.equals("failed") || (error != null && error.isObject() && !answer.has("output"))) {
            throw errors.fromApiError(endpoint, error != null && error.isObject() ? error
                    : OpenAiLanguageModel.JSON.createObjectNode().put("message", "status failed without an error"));
        }
        StringBuilder text = new StringBuilder();
        StringBuilder refusal = new StringBuilder();
        List<ToolCall> calls = new ArrayList<>();
        for (JsonNode item : answer.path("output")) {
            switch (WireFormat.text(item, "type")) {
                case "message" -> {
                    for (JsonNode part : item.path("content")) {
                        switch (WireFormat.text(part, "type")) {
                            case "output_text" -> text.append(WireFormat.text(part, "text"));
                            case "refusal" -> refusal.append(WireFormat.text(part, "refusal"));
                            default -> { }
                        }
                    }
                }
                case "function_call" -> calls.add(new ToolCall(WireFormat.text(item, "call_id"),
                        WireFormat.text(item, "name"), WireFormat.text(item, "arguments")));
                default -> { } // reasoning summaries and built-in tool items carry nothing Mnemo uses
            }
        }
        TokenUsage usage = new TokenUsage(WireFormat.count(answer, "/usage/input_tokens"),
                WireFormat.count(answer, "/usage/input_tokens_details/cached_tokens"),
                WireFormat.count(answer, "/usage/output_tokens"),
                WireFormat.count(answer, "/usage/output_tokens_details/reasoning_tokens"));
        if (text.isEmpty() && refusal.length() > 0) {
            return new ModelResponse(refusal.toString(), calls, usage, FinishReason.CONTENT_FILTER);
        }
        return new ModelResponse(text.toString(), calls, usage, finishReason(answer, status, calls, refusal));
    }

    private static FinishReason finishReason(JsonNode answer, String status, List<ToolCall> calls,
            CharSequence refusal) {
        if (status.equals("incomplete")) {
            return switch (answer.at("/incomplete_details/reason").asText("")) {
                case "max_output_tokens" -> FinishReason.LENGTH;
                case "content_filter" -> FinishReason.CONTENT_FILTER;
                default -> FinishReason.OTHER;
            };
        }
        if (refusal.length() > 0) {
            return FinishReason.CONTENT_FILTER;
        }
        if (!calls.isEmpty()) {
            return FinishReason.TOOL_CALLS;
        }
        return status.equals("completed") || status.isEmpty() ? FinishReason.STOP : FinishReason.OTHER;
    }
}
