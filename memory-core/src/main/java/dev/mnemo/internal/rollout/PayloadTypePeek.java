package dev.mnemo.internal.rollout;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

/**
 * Lets {@link RolloutReader} give a payload by its {@code "type"} alone without building it: the
 * bytes right after the payload's opening brace are looked at first, and only when they read exactly
 * {@code "type":"<printable ASCII, no quote or backslash>"} (as Codex writes every payload) and the
 * caller accepts that type is the rest of the payload skipped (tokenized, so a malformed line is
 * still malformed). The bytes only choose the path: the parser confirms the first field, and a
 * second {@code "type"} key in the payload (which would win in a built tree) throws
 * {@link Mismatch}, on which the line is parsed again with its payload built.
 */
final class PayloadTypePeek {

    private static final byte[] TYPE_FIELD = {'"', 't', 'y', 'p', 'e', '"', ':', '"'};

    private final byte[] bytes;
    private final int offset;
    private final int end;
    private final Predicate<String> typeAlone;

    /** A peek into the line {@code bytes[offset, offset + length)} that a parser reads. */
    PayloadTypePeek(byte[] bytes, int offset, int length, Predicate<String> typeAlone) {
        this.bytes = bytes;
        this.offset = offset;
        this.end = offset + length;
        this.typeAlone = typeAlone;
    }

    /**
     * With {@code parser} on the payload's {@code START_OBJECT}: the payload's type when its bytes
     * start with it in the strict shape and {@code typeAlone} accepts it, else null (build the payload).
     */
    String typeAloneAt(JsonParser parser) {
        long after = parser.currentLocation().getByteOffset();
        if (after < 0 || after > end - offset) {
            return null;
        }
        int at = offset + (int) after;
        if (end - at < TYPE_FIELD.length) {
            return null;
        }
        for (int i = 0; i < TYPE_FIELD.length; i++) {
            if (bytes[at + i] != TYPE_FIELD[i]) {
                return null;
            }
        }
        int valueStart = at + TYPE_FIELD.length;
        for (int i = valueStart; i < end; i++) {
            byte b = bytes[i];
            if (b == '"') {
                String type = new String(bytes, valueStart, i - valueStart, StandardCharsets.US_ASCII);
                return typeAlone.test(type) ? type : null;
            }
            if (b < 0x20 || b > 0x7E || b == '\\') {
                return null;
            }
        }
        return null;
    }

    /**
     * Reads the rest of the payload {@link #typeAloneAt} accepted without building it, and returns
     * {@code {"type": type}}.
     *
     * @throws Mismatch when the payload does not start with that type after all, or names a type twice
     */
    JsonNode skipRest(JsonParser parser, String type) throws IOException {
        if (parser.nextToken() != JsonToken.FIELD_NAME || !parser.currentName().equals("type")
                || parser.nextToken() != JsonToken.VALUE_STRING || !parser.getText().equals(type)) {
            throw new Mismatch();
        }
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            if (parser.currentName().equals("type")) {
                throw new Mismatch();
            }
            parser.nextToken();
            parser.skipChildren();
        }
        return RolloutReader.MAPPER.createObjectNode().put("type", type);
    }

    /** The payload is not what its first bytes said; parse the line again with its payload built. */
    static final class Mismatch extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Mismatch() {
            super(null, null, false, false);
        }
    }
}
