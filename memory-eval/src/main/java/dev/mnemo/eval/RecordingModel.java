package dev.mnemo.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.llm.FinishReason;
import dev.mnemo.llm.ForwardingLanguageModel;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.llm.ToolSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The model as the eval uses it: every request and answer is appended to {@code model-log.jsonl}
 * in the run directory, and a request already answered there (same content, same purpose) is
 * answered from the log — which makes a run resumable and a re-run cheap.
 */
final class RecordingModel implements ForwardingLanguageModel {

    static final String LOG_FILE = "model-log.jsonl";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final LanguageModel model;
    private final Path log;
    private final Map<String, ModelResponse> answered = new ConcurrentHashMap<>();

    RecordingModel(LanguageModel model, Path runDir) {
        this.model = model;
        this.log = runDir.resolve(LOG_FILE);
        load();
    }

    @Override
    public LanguageModel delegate() {
        return model;
    }

    @Override
    public ModelResponse respond(ModelRequest request) {
        ObjectNode requestJson = requestJson(request);
        String key = sha256(requestJson.toString());
        ModelResponse cached = answered.get(key);
        if (cached != null) {
            return cached;
        }
        ModelResponse response = model.respond(request);
        answered.put(key, response);
        append(key, requestJson, response);
        return response;
    }

    private void load() {
        if (!Files.isRegularFile(log)) {
            return;
        }
        try {
            for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
                if (line.isBlank()) {
                    continue;
                }
                try {
                    JsonNode entry = JSON.readTree(line);
                    answered.put(entry.path("key").asText(), response(entry.path("response")));
                } catch (JsonProcessingException | RuntimeException e) {
                    // A torn last line from an interrupted run: that request is simply asked again.
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the model log " + log, e);
        }
    }

    private synchronized void append(String key, ObjectNode request, ModelResponse response) {
        ObjectNode entry = JSON.createObjectNode().put("key", key);
        entry.set("request", request);
        entry.set("response", responseJson(response));
        try {
            Files.writeString(log, entry + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the model log " + log, e);
        }
    }

    private static ObjectNode requestJson(ModelRequest request) {
        ObjectNode json = JSON.createObjectNode().put("model", request.model()).put("instructions", request.instructions())
                .put("reasoning_effort", String.valueOf(request.reasoningEffort()))
                .put("output_schema", request.outputSchema().map(s -> s.name()).orElse(null));
        ArrayNode tools = json.putArray("tools");
        for (ToolSpec tool : request.tools()) {
            tools.add(tool.name());
        }
        ArrayNode messages = json.putArray("messages");
        for (ModelMessage message : request.messages()) {
            ObjectNode m = messages.addObject().put("role", message.role().name()).put("text", message.text());
            message.toolCallId().ifPresent(id -> m.put("tool_call_id", id));
            toolCalls(m, message.toolCalls());
        }
        return json;
    }

    private static ObjectNode responseJson(ModelResponse response) {
        ObjectNode json = JSON.createObjectNode().put("text", response.text())
                .put("finish_reason", response.finishReason().name());
        toolCalls(json, response.toolCalls());
        TokenUsage u = response.usage();
        json.putObject("usage").put("input", u.inputTokens()).put("cached_input", u.cachedInputTokens())
                .put("output", u.outputTokens()).put("reasoning", u.reasoningTokens());
        return json;
    }

    private static void toolCalls(ObjectNode json, List<ToolCall> calls) {
        if (!calls.isEmpty()) {
            ArrayNode array = json.putArray("tool_calls");
            for (ToolCall call : calls) {
                array.addObject().put("id", call.id()).put("name", call.name()).put("arguments", call.argumentsJson());
            }
        }
    }

    private static ModelResponse response(JsonNode json) {
        List<ToolCall> calls = new ArrayList<>();
        for (JsonNode call : json.path("tool_calls")) {
            calls.add(new ToolCall(call.path("id").asText(), call.path("name").asText(), call.path("arguments").asText()));
        }
        JsonNode u = json.path("usage");
        TokenUsage usage = new TokenUsage(u.path("input").asLong(), u.path("cached_input").asLong(),
                u.path("output").asLong(), u.path("reasoning").asLong());
        return new ModelResponse(json.path("text").asText(""), calls, usage,
                FinishReason.valueOf(json.path("finish_reason").asText("STOP")));
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
