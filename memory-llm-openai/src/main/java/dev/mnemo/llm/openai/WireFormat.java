package dev.mnemo.llm.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.ReasoningEffort;
import java.io.IOException;
import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/** One wire API: where requests go, how a {@link ModelRequest} is written and an answer read. */
interface WireFormat {

    /** The operation's path below the base URL, e.g. {@code /chat/completions}. */
    String path();

    /**
     * The request body for {@code request}, asking for {@code model} with {@code effort} (which
     * replaces the request's own; {@link ReasoningEffort#NONE} sends no reasoning parameter).
     */
    ObjectNode encode(ModelRequest request, String model, ReasoningEffort effort);

    /**
     * The response a successful answer stands for.
     *
     * @throws ModelException when the answer reports a failure or lacks what every answer has
     */
    ModelResponse decode(JsonNode answer, URI endpoint);

    /**
     * The JSON object of a successful answer's body from {@code endpoint}.
     *
     * @throws ModelException {@code UNKNOWN} when the body is not a JSON object, quoting its start
     */
    static JsonNode answer(String body, URI endpoint) {
        try {
            JsonNode json = OpenAiLanguageModel.JSON.readTree(body);
            if (json == null || !json.isObject()) {
                throw new IOException("not a JSON object");
            }
            return json;
        } catch (IOException e) {
            throw new ModelException(ModelException.Reason.UNKNOWN, "the answer from " + endpoint
                    + " is not a JSON object (" + e.getMessage() + "); it starts with: " + ErrorMapping.excerpt(body),
                    e);
        }
    }

    /** The wire value for {@code effort}; empty for {@link ReasoningEffort#NONE}. */
    static Optional<String> effort(ReasoningEffort effort) {
        return effort == ReasoningEffort.NONE ? Optional.empty() : Optional.of(effort.name().toLowerCase(Locale.ROOT));
    }

    /**
     * Parses a JSON Schema given as text.
     *
     * @throws ModelException {@code INVALID_REQUEST} naming {@code what} when it is not a JSON object
     */
    static JsonNode schema(String what, String jsonSchema) {
        try {
            JsonNode node = OpenAiLanguageModel.JSON.readTree(jsonSchema);
            if (node != null && node.isObject()) {
                return node;
            }
        } catch (JsonProcessingException e) {
            throw new ModelException(ModelException.Reason.INVALID_REQUEST,
                    what + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
        throw new ModelException(ModelException.Reason.INVALID_REQUEST,
                what + " must be a JSON object, was: " + ErrorMapping.excerpt(jsonSchema));
    }

    /** The number at {@code path} (e.g. {@code /usage/input_tokens}), 0 when absent or negative. */
    static long count(JsonNode answer, String path) {
        JsonNode n = answer.at(path);
        return n.canConvertToLong() ? Math.max(0, n.asLong()) : 0;
    }

    /** The text of {@code field}, empty when absent or null. */
    static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? "" : value.asText();
    }
}
