package dev.mnemo.internal.rollout;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Builds the tree of a payload Phase 1 renders (a message, a tool call or output) from UTF-8 bytes
 * without Jackson's tokenizer, the same tree Jackson would build. Most of such a payload is a few
 * long strings; Jackson decodes them a byte at a time into chars, here a run without escapes is
 * found eight bytes at a time (as in {@link StrictJsonSkip}) and the JDK decodes it whole.
 *
 * <p>Like {@link StrictJsonSkip} it accepts only what {@link RolloutReader}'s Jackson parser reads
 * to the same tree, and gives null when not sure: on a number (Jackson picks int, long, big integer
 * or double nodes), a repeated member name (whichever Jackson keeps), an escaped lone surrogate or
 * a byte sequence that is not strict UTF-8 (Jackson's replacement path), or anything malformed.
 * Then Jackson reads the line. One instance a read: it keeps its decoding buffer between lines.
 */
final class StrictJsonTree {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private byte[] b;
    private int i;
    private int end;
    private byte[] unescaped = new byte[1024];

    /**
     * The object whose opening brace is just before {@code b[from]} at nesting depth {@code depth},
     * or null when not sure; {@link #position()} is then just after it.
     */
    ObjectNode object(byte[] bytes, int from, int to, int depth) {
        this.b = bytes;
        this.i = from;
        this.end = to;
        ObjectNode node = object(depth);
        this.b = null;
        return node;
    }

    /** Where the last {@link #object} ended. */
    int position() {
        return i;
    }

    private ObjectNode object(int depth) {
        if (depth > StrictJsonSkip.MAX_DEPTH) {
            return null;
        }
        ObjectNode node = NODES.objectNode();
        i = StrictJsonSkip.whitespace(b, i, end);
        if (i < end && b[i] == '}') {
            i++;
            return node;
        }
        while (true) {
            if (i >= end || b[i] != '"') {
                return null;
            }
            i++;
            String name = string();
            if (name == null || name.length() > StrictJsonSkip.MAX_NAME_BYTES || node.has(name)) {
                return null;
            }
            i = StrictJsonSkip.whitespace(b, i, end);
            if (i >= end || b[i] != ':') {
                return null;
            }
            i = StrictJsonSkip.whitespace(b, i + 1, end);
            JsonNode value = value(depth);
            if (value == null) {
                return null;
            }
            node.set(name, value);
            if (!next('}')) {
                return i < 0 ? null : node;
            }
        }
    }

    private ArrayNode array(int depth) {
        if (depth > StrictJsonSkip.MAX_DEPTH) {
            return null;
        }
        ArrayNode node = NODES.arrayNode();
        i = StrictJsonSkip.whitespace(b, i, end);
        if (i < end && b[i] == ']') {
            i++;
            return node;
        }
        while (true) {
            JsonNode value = value(depth);
            if (value == null) {
                return null;
            }
            node.add(value);
            if (!next(']')) {
                return i < 0 ? null : node;
            }
        }
    }

    /**
     * After a member or element: true on a comma (and moves to what follows it), false on
     * {@code close} (and moves past it), false with the position at -1 on anything else.
     */
    private boolean next(char close) {
        i = StrictJsonSkip.whitespace(b, i, end);
        if (i < end && b[i] == ',') {
            i = StrictJsonSkip.whitespace(b, i + 1, end);
            return true;
        }
        i = i < end && b[i] == close ? i + 1 : -1;
        return false;
    }

    private JsonNode value(int depth) {
        if (i >= end) {
            return null;
        }
        switch (b[i++]) {
            case '"': {
                String text = string();
                return text == null ? null : NODES.textNode(text);
            }
            case '{':
                return object(depth + 1);
            case '[':
                return array(depth + 1);
            case 't':
                return literal("rue") ? BooleanNode.TRUE : null;
            case 'f':
                return literal("alse") ? BooleanNode.FALSE : null;
            case 'n':
                return literal("ull") ? NullNode.getInstance() : null;
            default:
                return null;
        }
    }

    private boolean literal(String rest) {
        if (end - i < rest.length()) {
            return false;
        }
        for (int k = 0; k < rest.length(); k++) {
            if (b[i + k] != rest.charAt(k)) {
                return false;
            }
        }
        i += rest.length();
        return true;
    }

    /**
     * The string whose opening quote is just before {@code i}, or null. Runs between escapes stay
     * UTF-8 (validated, copied only when an escape follows) and are decoded once at the end.
     */
    private String string() {
        int start = i;
        int run = i;
        int length = 0; // bytes in unescaped; 0 while the string has had no escape
        while (true) {
            int at = StrictJsonSkip.special(b, i, end);
            if (at >= end) {
                return null;
            }
            int c = b[at] & 0xFF;
            if (c == '"') {
                i = at + 1;
                if (at - start > StrictJsonSkip.MAX_STRING_BYTES) {
                    return null;
                }
                if (run == start) {
                    return new String(b, start, at - start, StandardCharsets.UTF_8);
                }
                length = append(length, b, run, at - run);
                return new String(unescaped, 0, length, StandardCharsets.UTF_8);
            } else if (c >= 0x80) {
                i = StrictJsonSkip.utf8(b, at, c, end);
            } else if (c == '\\') {
                length = append(length, b, run, at - run);
                i = at + 1;
                length = unescape(length);
                run = i;
            } else {
                return null; // a raw control byte, not allowed in a JSON string: Jackson decides
            }
            if (i < 0 || length < 0) {
                return null;
            }
        }
    }

    /** Appends the escape after a backslash at {@code i} as UTF-8; the new length, or -1. */
    private int unescape(int length) {
        if (i >= end) {
            return -1;
        }
        byte c = b[i++];
        switch (c) {
            case '"': case '\\': case '/':
                return appendByte(length, c);
            case 'b':
                return appendByte(length, '\b');
            case 'f':
                return appendByte(length, '\f');
            case 'n':
                return appendByte(length, '\n');
            case 'r':
                return appendByte(length, '\r');
            case 't':
                return appendByte(length, '\t');
            case 'u':
                break;
            default:
                return -1;
        }
        int unit = hex4();
        if (unit < 0 || Character.isLowSurrogate((char) unit)) {
            return -1;
        }
        int codePoint = unit;
        if (Character.isHighSurrogate((char) unit)) {
            // Only a pair makes a code point; a lone surrogate is left to Jackson.
            if (end - i < 2 || b[i] != '\\' || b[i + 1] != 'u') {
                return -1;
            }
            i += 2;
            int low = hex4();
            if (low < 0 || !Character.isLowSurrogate((char) low)) {
                return -1;
            }
            codePoint = Character.toCodePoint((char) unit, (char) low);
        }
        byte[] utf8 = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
        return append(length, utf8, 0, utf8.length);
    }

    /** Four hex digits at {@code i} as a number, or -1. */
    private int hex4() {
        if (end - i < 4) {
            return -1;
        }
        int value = 0;
        for (int k = 0; k < 4; k++) {
            int digit = Character.digit(b[i + k], 16);
            if (digit < 0) {
                return -1;
            }
            value = value << 4 | digit;
        }
        i += 4;
        return value;
    }

    private int appendByte(int length, int c) {
        ensure(length + 1);
        unescaped[length] = (byte) c;
        return length + 1;
    }

    private int append(int length, byte[] from, int offset, int count) {
        ensure(length + count);
        System.arraycopy(from, offset, unescaped, length, count);
        return length + count;
    }

    private void ensure(int capacity) {
        if (capacity > unescaped.length) {
            unescaped = Arrays.copyOf(unescaped, Math.max(capacity, unescaped.length * 2));
        }
    }
}
