package dev.mnemo.spi;

import java.util.Objects;

/**
 * Renders {@link HistoryStore#jsonLine}: Codex's {@code history.jsonl} line, written here by hand
 * so the SPI needs no JSON library. The escaping is JSON's minimum, as serde_json and Jackson write
 * it: the quote and the backslash, the five short control escapes, every other control character
 * as a six-character Unicode escape with upper-case hex digits; everything else, non-ASCII
 * included, as it is.
 */
final class HistoryLines {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private HistoryLines() {
    }

    static String jsonLine(String sessionId, long ts, String text) {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(text, "text");
        StringBuilder line = new StringBuilder(sessionId.length() + text.length() + 48);
        line.append("{\"session_id\":");
        appendString(line, sessionId);
        line.append(",\"ts\":").append(ts).append(",\"text\":");
        appendString(line, text);
        return line.append("}\n").toString();
    }

    private static void appendString(StringBuilder out, String value) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
