package dev.mnemo.internal.rollout;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Steps over JSON values in UTF-8 bytes without Jackson, for the parts of a rollout line nobody
 * reads (an {@code event_msg} payload, the encrypted body of a reasoning item). It only ever
 * answers "certainly well-formed, and it ends here" or {@link #UNSURE}; on UNSURE the caller hands
 * the line to Jackson, which decides. So it must never accept what {@link RolloutReader}'s
 * Jackson parser rejects, and it accepts less: RFC 8259 with strictly valid UTF-8, JSON's
 * whitespace but the newline (which never occurs inside a line), no escaped surrogates, and
 * tighter limits than Jackson's
 * {@link com.fasterxml.jackson.core.StreamReadConstraints} (nesting, number and name lengths).
 *
 * <p>Strings, most of the bytes skipped, are scanned eight bytes at a time: a word is looked at
 * byte by byte only when it holds a quote, a backslash, a control byte or a non-ASCII byte.
 */
final class StrictJsonSkip {

    /** Not known to be well-formed: ask Jackson. */
    static final int UNSURE = -1;

    /** Jackson allows 1000 levels, 1000-character numbers and 50,000-character names. */
    static final int MAX_DEPTH = 200;
    private static final int MAX_NUMBER_BYTES = 100;
    static final int MAX_NAME_BYTES = 1000;
    /** {@link RolloutReader}'s Jackson limit is in chars; a string has at least as many bytes. */
    static final int MAX_STRING_BYTES = RolloutReader.MAX_STRING_LENGTH;

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;

    private StrictJsonSkip() {}

    /**
     * The index just after the rest of an object whose opening brace is just before {@code i}, or
     * {@link #UNSURE}.
     *
     * @param depth the object's nesting depth (a line's payload is at depth 2)
     */
    static int object(byte[] b, int i, int end, int depth) {
        if (depth > MAX_DEPTH) {
            return UNSURE;
        }
        i = whitespace(b, i, end);
        if (i < end && b[i] == '}') {
            return i + 1;
        }
        return members(b, i, end, depth, null);
    }

    /**
     * The index just after the rest of an object at depth {@code depth} of which one member was
     * read and ends just before {@code i}, or {@link #UNSURE} — also when a later member's name is
     * {@code forbiddenName} or has an escape (it might spell that name).
     */
    static int objectAfterMember(byte[] b, int i, int end, int depth, byte[] forbiddenName) {
        i = whitespace(b, i, end);
        if (i < end && b[i] == '}') {
            return i + 1;
        }
        if (i >= end || b[i] != ',') {
            return UNSURE;
        }
        return members(b, whitespace(b, i + 1, end), end, depth, forbiddenName);
    }

    /** Index just after the rest of an object from a member's name at {@code i}; forbiddenName may be null. */
    private static int members(byte[] b, int i, int end, int depth, byte[] forbiddenName) {
        while (true) {
            if (i >= end || b[i] != '"') {
                return UNSURE;
            }
            int nameEnd = string(b, i + 1, end);
            if (nameEnd < 0 || nameEnd - i - 2 > MAX_NAME_BYTES
                    || forbiddenName != null && mightSpell(b, i + 1, nameEnd - 1, forbiddenName)) {
                return UNSURE;
            }
            i = whitespace(b, nameEnd, end);
            if (i >= end || b[i] != ':') {
                return UNSURE;
            }
            i = value(b, whitespace(b, i + 1, end), end, depth);
            if (i < 0) {
                return UNSURE;
            }
            i = whitespace(b, i, end);
            if (i >= end) {
                return UNSURE;
            }
            if (b[i] == '}') {
                return i + 1;
            }
            if (b[i] != ',') {
                return UNSURE;
            }
            i = whitespace(b, i + 1, end);
        }
    }

    /** Whether the raw name bytes {@code b[from, to)} are {@code name} or hold an escape. */
    private static boolean mightSpell(byte[] b, int from, int to, byte[] name) {
        for (int i = from; i < to; i++) {
            if (b[i] == '\\') {
                return true;
            }
        }
        if (to - from != name.length) {
            return false;
        }
        for (int i = 0; i < name.length; i++) {
            if (b[from + i] != name[i]) {
                return false;
            }
        }
        return true;
    }

    /** Index just after the value starting at {@code i} (no whitespace first) inside a container at {@code depth}. */
    private static int value(byte[] b, int i, int end, int depth) {
        if (i >= end) {
            return UNSURE;
        }
        switch (b[i]) {
            case '"':
                return string(b, i + 1, end);
            case '{':
                return object(b, i + 1, end, depth + 1);
            case '[':
                return array(b, i + 1, end, depth + 1);
            case 't':
                return literal(b, i, end, "true");
            case 'f':
                return literal(b, i, end, "false");
            case 'n':
                return literal(b, i, end, "null");
            default:
                return number(b, i, end);
        }
    }

    private static int array(byte[] b, int i, int end, int depth) {
        if (depth > MAX_DEPTH) {
            return UNSURE;
        }
        i = whitespace(b, i, end);
        if (i < end && b[i] == ']') {
            return i + 1;
        }
        while (true) {
            i = value(b, i, end, depth);
            if (i < 0) {
                return UNSURE;
            }
            i = whitespace(b, i, end);
            if (i >= end) {
                return UNSURE;
            }
            if (b[i] == ']') {
                return i + 1;
            }
            if (b[i] != ',') {
                return UNSURE;
            }
            i = whitespace(b, i + 1, end);
        }
    }

    /** Index just after the closing quote of a string whose opening quote is just before {@code i}. */
    private static int string(byte[] b, int i, int end) {
        int start = i;
        while (true) {
            i = special(b, i, end);
            if (i >= end) {
                return UNSURE;
            }
            int c = b[i] & 0xFF;
            if (c == '"') {
                return i - start <= MAX_STRING_BYTES ? i + 1 : UNSURE;
            } else if (c == '\\') {
                i = escape(b, i + 1, end);
            } else if (c >= 0x80) {
                i = utf8(b, i, c, end);
            } else if (c < 0x20) {
                return UNSURE;
            } else {
                i++;
            }
            if (i < 0) {
                return UNSURE;
            }
        }
    }

    /**
     * The index of the first byte at or after {@code i} that a string cannot simply hold — a quote,
     * a backslash, a control byte or a non-ASCII byte — or {@code end}; eight bytes at a time.
     */
    static int special(byte[] b, int i, int end) {
        for (; i + Long.BYTES <= end; i += Long.BYTES) {
            long special = special((long) LONGS.get(b, i));
            if (special != 0) { // the lowest flagged byte is always a real one (borrows only run upwards)
                return i + (Long.numberOfTrailingZeros(special) >>> 3);
            }
        }
        for (; i < end; i++) {
            int c = b[i] & 0xFF;
            if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) {
                return i;
            }
        }
        return end;
    }

    /** The high bit set in each byte of {@code word} that is a quote, a backslash, below 0x20 or above 0x7F (and maybe above one). */
    private static long special(long word) {
        long quote = word ^ 0x2222222222222222L;
        long backslash = word ^ 0x5C5C5C5C5C5C5C5CL;
        long zeroQuote = (quote - ONES) & ~quote;
        long zeroBackslash = (backslash - ONES) & ~backslash;
        long control = (word - 0x2020202020202020L) & ~word;
        return (zeroQuote | zeroBackslash | control | word) & HIGH_BITS;
    }

    /** After a backslash: one of {@code "\/bfnrt}, or {@code u} and four hex digits that are not a surrogate. */
    private static int escape(byte[] b, int i, int end) {
        if (i >= end) {
            return UNSURE;
        }
        switch (b[i]) {
            case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
                return i + 1;
            case 'u':
                break;
            default:
                return UNSURE;
        }
        if (i + 4 >= end) {
            return UNSURE;
        }
        int value = 0;
        for (int k = 1; k <= 4; k++) {
            int digit = Character.digit(b[i + k], 16);
            if (digit < 0) {
                return UNSURE;
            }
            value = value << 4 | digit;
        }
        return Character.isSurrogate((char) value) ? UNSURE : i + 5;
    }

    /** After a lead byte {@code c} at {@code i}: the end of a shortest-form, non-surrogate UTF-8 sequence. */
    static int utf8(byte[] b, int i, int c, int end) {
        int length;
        int min = 0x80;
        int max = 0xBF; // the allowed range of the second byte
        if (c >= 0xC2 && c <= 0xDF) {
            length = 2;
        } else if (c >= 0xE0 && c <= 0xEF) {
            length = 3;
            min = c == 0xE0 ? 0xA0 : 0x80;
            max = c == 0xED ? 0x9F : 0xBF;
        } else if (c >= 0xF0 && c <= 0xF4) {
            length = 4;
            min = c == 0xF0 ? 0x90 : 0x80;
            max = c == 0xF4 ? 0x8F : 0xBF;
        } else {
            return UNSURE;
        }
        if (i + length > end) {
            return UNSURE;
        }
        int second = b[i + 1] & 0xFF;
        if (second < min || second > max) {
            return UNSURE;
        }
        for (int k = 2; k < length; k++) {
            if ((b[i + k] & 0xC0) != 0x80) {
                return UNSURE;
            }
        }
        return i + length;
    }

    private static int literal(byte[] b, int i, int end, String word) {
        if (i + word.length() > end) {
            return UNSURE;
        }
        for (int k = 0; k < word.length(); k++) {
            if (b[i + k] != word.charAt(k)) {
                return UNSURE;
            }
        }
        return i + word.length();
    }

    /** {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}; what follows is checked by the caller. */
    private static int number(byte[] b, int i, int end) {
        int start = i;
        if (b[i] == '-') {
            i++;
        }
        if (i < end && b[i] == '0') {
            i++;
        } else {
            int digits = i;
            i = digits(b, i, end);
            if (i == digits) {
                return UNSURE;
            }
        }
        if (i < end && b[i] == '.') {
            int digits = i + 1;
            i = digits(b, digits, end);
            if (i == digits) {
                return UNSURE;
            }
        }
        if (i < end && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < end && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            int digits = i;
            i = digits(b, i, end);
            if (i == digits) {
                return UNSURE;
            }
        }
        return i - start <= MAX_NUMBER_BYTES ? i : UNSURE;
    }

    private static int digits(byte[] b, int i, int end) {
        while (i < end && b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        return i;
    }

    /**
     * The index of the first byte at or after {@code i} that is not a space, tab or carriage return:
     * JSON whitespace but the newline, which ends a rollout line (so never occurs inside one).
     */
    static int whitespace(byte[] b, int i, int end) {
        while (i < end && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r')) {
            i++;
        }
        return i;
    }
}
