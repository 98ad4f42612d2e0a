package dev.mnemo.internal.extract;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.mnemo.spi.SecretRedactor;
import dev.mnemo.spi.Stage1Result;
import java.util.Iterator;
import java.util.Optional;
import java.util.Set;

/**
 * The extraction model's reply: the strict JSON schema sent with the request, and the equally
 * strict parser for what comes back (Codex's {@code StageOneOutput} with {@code deny_unknown_fields}).
 */
final class Stage1Reply {

    /** The output schema: all three keys required, the slug nullable, nothing else allowed. */
    static final String JSON_SCHEMA = """
            {"type":"object","properties":{"rollout_summary":{"type":"string"},\
            "rollout_slug":{"type":["string","null"]},"raw_memory":{"type":"string"}},\
            "required":["rollout_summary","rollout_slug","raw_memory"],"additionalProperties":false}""";

    static final String SCHEMA_NAME = "stage1_memory";

    private static final Set<String> KEYS = Set.of("rollout_summary", "rollout_slug", "raw_memory");

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private Stage1Reply() {}

    /**
     * Parses a reply.
     *
     * @throws InvalidReplyException saying exactly what is wrong, for the retry prompt and {@code last_error}
     */
    static Stage1Result parse(String reply) {
        JsonNode root;
        try {
            root = JSON.readTree(reply);
        } catch (JsonProcessingException e) {
            throw new InvalidReplyException("the reply is not valid JSON: " + e.getOriginalMessage());
        }
        if (root == null || root.isMissingNode()) {
            throw new InvalidReplyException("the reply is empty");
        }
        if (!root.isObject()) {
            throw new InvalidReplyException("the reply must be a JSON object, was " + root.getNodeType());
        }
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!KEYS.contains(name)) {
                throw new InvalidReplyException("unknown field '" + abbreviate(name) + "'; only rollout_summary, "
                        + "rollout_slug and raw_memory are allowed");
            }
        }
        String rawMemory = requiredString(root, "raw_memory");
        String rolloutSummary = requiredString(root, "rollout_summary");
        JsonNode slug = root.get("rollout_slug");
        if (slug != null && !slug.isNull() && !slug.isTextual()) {
            throw new InvalidReplyException("rollout_slug must be a string or null, was " + slug.getNodeType());
        }
        Optional<String> rolloutSlug = slug == null || slug.isNull() ? Optional.empty() : Optional.of(slug.textValue());
        return new Stage1Result(rawMemory, rolloutSummary, rolloutSlug);
    }

    /** The result with secrets redacted from all three fields (an empty slug becomes none). */
    static Stage1Result redact(Stage1Result result, SecretRedactor redactor) {
        return new Stage1Result(redactor.redact(result.rawMemory()), redactor.redact(result.rolloutSummary()),
                result.rolloutSlug().map(redactor::redact).filter(s -> !s.isEmpty()));
    }

    /** Codex's rule: a memory needs both fields non-empty (untrimmed), else the rollout had nothing to keep. */
    static boolean hasOutput(Stage1Result result) {
        return !result.rawMemory().isEmpty() && !result.rolloutSummary().isEmpty();
    }

    private static String requiredString(JsonNode root, String key) {
        JsonNode node = root.get(key);
        if (node == null) {
            throw new InvalidReplyException("missing required field '" + key + "'");
        }
        if (!node.isTextual()) {
            throw new InvalidReplyException(key + " must be a string, was " + node.getNodeType());
        }
        return node.textValue();
    }

    private static String abbreviate(String text) {
        return text.length() <= 60 ? text : text.substring(0, 60) + "…";
    }

    /** The model's reply does not match the schema. */
    static final class InvalidReplyException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InvalidReplyException(String message) {
            super(message);
        }
    }
}
