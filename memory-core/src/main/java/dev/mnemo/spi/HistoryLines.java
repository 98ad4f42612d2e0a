package dev.mnemo.spi;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Objects;

/** Renders {@link HistoryStore#jsonLine}; Jackson stays out of the SPI's signatures. */
final class HistoryLines {

    private static final ObjectMapper JSON = new ObjectMapper();

    private HistoryLines() {
    }

    static String jsonLine(String sessionId, long ts, String text) {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(text, "text");
        return JSON.createObjectNode().put("session_id", sessionId).put("ts", ts).put("text", text) + "\n";
    }
}
