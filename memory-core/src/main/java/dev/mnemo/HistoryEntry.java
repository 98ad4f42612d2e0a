package dev.mnemo;

import java.util.Objects;

/**
 * One line of the message history.
 *
 * @param sessionId the thread the message belongs to
 * @param ts when it was recorded, in Unix seconds
 * @param text the message, redacted
 * @param offset where to find it again with {@link MessageHistory#entry(long)}
 */
public record HistoryEntry(String sessionId, long ts, String text, long offset) {
    /**
     * Checks the components.
     *
     * @param sessionId the thread the message belongs to
     * @param ts when it was recorded, in Unix seconds
     * @param text the message, redacted
     * @param offset where to find it again with {@link MessageHistory#entry(long)}
     * @throws NullPointerException when {@code sessionId} or {@code text} is null
     */
    public HistoryEntry {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(text, "text");
    }
}
