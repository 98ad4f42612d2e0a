package dev.mnemo.internal.tools;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * The memory tools' JSON mapper (configured once, then only read: safe to share) and schemas. A
 * holder class, so they are made when a tool is first used rather than with every engine: most
 * engines that are opened build instructions and never call a tool, and Jackson's databind would
 * be most of a cold start.
 */
final class ToolJson {

    static final ObjectMapper MAPPER = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    static final ToolSchemas SCHEMAS = new ToolSchemas(MAPPER);

    private ToolJson() {
    }

    /** Sets {@code field} to {@code value}, or to JSON {@code null} when it is empty (Codex's optional fields). */
    static void putNullable(ObjectNode node, String field, Optional<String> value) {
        value.ifPresentOrElse(v -> node.put(field, v), () -> node.putNull(field));
    }
}
