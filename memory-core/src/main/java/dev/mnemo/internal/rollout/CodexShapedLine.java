package dev.mnemo.internal.rollout;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

/**
 * Reads, without Jackson's tokenizer, the lines of a rollout in the exact shape Codex writes:
 * {@code {"timestamp":"…","type":"…","payload":{…}}} with plain ASCII timestamp and type
 * (printable, no quote or backslash), no whitespace between these members, and nothing but
 * whitespace after the line's closing brace. Jackson tokenizes every byte a char at a time, also
 * of the payloads nobody reads (an {@code event_msg}, the encrypted body of a reasoning item): here
 * those are only checked ({@link StrictJsonSkip}) and the payloads that are read are built from
 * their bytes ({@link StrictJsonTree}).
 *
 * <p>Anything else, or anything those two are not sure of, gives null and the line goes to
 * Jackson as before — so a line is read here only when Jackson would read it too, to the same
 * {@link RolloutLine}, and malformed lines are still counted by Jackson. One instance a read.
 */
final class CodexShapedLine {

    private static final byte[] TIMESTAMP = bytes("{\"timestamp\":\"");
    private static final byte[] TYPE = bytes("\",\"type\":\"");
    private static final byte[] PAYLOAD = bytes("\",\"payload\":{");
    private static final byte[] PAYLOAD_TYPE = bytes("\"type\":\"");
    private static final byte[] TYPE_NAME = bytes("type");

    private final StrictJsonTree tree = new StrictJsonTree();

    private int next;

    /**
     * The line {@code b[offset, offset + length)}, its payload built, left empty or given by its
     * type alone as {@link RolloutReader#read(java.nio.file.Path, Predicate, Predicate,
     * java.util.function.Consumer)} says; null when Jackson must read it.
     */
    RolloutLine read(long lineNumber, byte[] b, int offset, int length,
            Predicate<RolloutLine.Kind> wantPayload, Predicate<String> typeAlone) {
        int end = offset + length;
        RolloutLine line = readUpTo(lineNumber, b, offset, end, wantPayload, typeAlone);
        return line != null && next == end ? line : null;
    }

    /**
     * Like {@link #read(long, byte[], int, int, Predicate, Predicate)}, for the line that starts at
     * {@code b[offset]} and ends at the first newline in {@code b[offset, limit)}, or at {@code limit}
     * when {@code limitEndsInput}: a line read here is found to end where it does by reading it, so
     * the reader need not look for its newline first. Null also when the line might not end before
     * {@code limit}; {@link #next()} is then meaningless.
     */
    RolloutLine readToNewline(long lineNumber, byte[] b, int offset, int limit, boolean limitEndsInput,
            Predicate<RolloutLine.Kind> wantPayload, Predicate<String> typeAlone) {
        RolloutLine line = readUpTo(lineNumber, b, offset, limit, wantPayload, typeAlone);
        if (line == null) {
            return null;
        }
        if (next < limit && b[next] == '\n') {
            next++;
            return line;
        }
        return next == limit && limitEndsInput ? line : null;
    }

    /** Where the line {@link #readToNewline} read ends: just after its newline, or at the limit. */
    int next() {
        return next;
    }

    /**
     * Reads a line from {@code b[offset]} up to its closing brace and the spaces, tabs and carriage
     * returns after it, not past {@code end}, and sets {@link #next} there; null when not sure of it.
     * No token of a line spans a newline (whitespace here has none, and a string cannot hold a raw
     * one), so a line read here never runs into the next.
     */
    private RolloutLine readUpTo(long lineNumber, byte[] b, int offset, int end,
            Predicate<RolloutLine.Kind> wantPayload, Predicate<String> typeAlone) {
        int timestampStart = skip(b, offset, end, TIMESTAMP);
        int timestampEnd = plainAscii(b, timestampStart, end);
        int typeStart = skip(b, timestampEnd, end, TYPE);
        int typeEnd = plainAscii(b, typeStart, end);
        int payloadStart = skip(b, typeEnd, end, PAYLOAD);
        if (payloadStart < 0) {
            return null;
        }
        String type = ascii(b, typeStart, typeEnd);
        RolloutLine.Kind kind = RolloutLine.Kind.of(type);
        ObjectNode payload;
        int payloadEnd;
        if (!wantPayload.test(kind)) {
            payload = RolloutReader.MAPPER.createObjectNode();
            payloadEnd = StrictJsonSkip.object(b, payloadStart, end, 2);
        } else {
            String itemType = typeAlone(b, payloadStart, end, typeAlone);
            if (itemType != null) {
                payload = RolloutReader.MAPPER.createObjectNode().put("type", itemType);
                // A second "type" would win in a built tree: leave such a payload to Jackson.
                int afterType = payloadStart + PAYLOAD_TYPE.length + itemType.length() + 1;
                payloadEnd = StrictJsonSkip.objectAfterMember(b, afterType, end, 2, TYPE_NAME);
            } else {
                payload = tree.object(b, payloadStart, end, 2);
                payloadEnd = payload == null ? -1 : tree.position();
            }
        }
        if (payloadEnd < 0) {
            return null;
        }
        int close = StrictJsonSkip.whitespace(b, payloadEnd, end);
        if (close >= end || b[close] != '}') {
            return null;
        }
        next = StrictJsonSkip.whitespace(b, close + 1, end);
        return new RolloutLine(lineNumber, ascii(b, timestampStart, timestampEnd), kind, type, payload);
    }

    /** The payload's type when the payload starts with it in plain ASCII and {@code typeAlone} accepts it, else null. */
    private static String typeAlone(byte[] b, int payloadStart, int end, Predicate<String> typeAlone) {
        int start = skip(b, payloadStart, end, PAYLOAD_TYPE);
        int close = plainAscii(b, start, end);
        if (close < 0) {
            return null;
        }
        String type = ascii(b, start, close);
        return typeAlone.test(type) ? type : null;
    }

    /** The index just after {@code expected} when it is at {@code i}, else -1 (also when {@code i} is). */
    private static int skip(byte[] b, int i, int end, byte[] expected) {
        if (i < 0 || end - i < expected.length) {
            return -1;
        }
        for (int k = 0; k < expected.length; k++) {
            if (b[i + k] != expected[k]) {
                return -1;
            }
        }
        return i + expected.length;
    }

    /** The index of the closing quote of a string of printable ASCII without backslashes from {@code i}, else -1. */
    private static int plainAscii(byte[] b, int i, int end) {
        if (i < 0) {
            return -1;
        }
        for (; i < end; i++) {
            byte c = b[i];
            if (c == '"') {
                return i;
            }
            if (c < 0x20 || c > 0x7E || c == '\\') {
                return -1;
            }
        }
        return -1;
    }

    private static String ascii(byte[] b, int from, int to) {
        return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
