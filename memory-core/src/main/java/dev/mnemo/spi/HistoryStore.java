package dev.mnemo.spi;

import dev.mnemo.HistoryEntry;
import dev.mnemo.MessageHistory;
import java.util.List;

/**
 * Where the message history's lines are kept: {@code <home>/history.jsonl} by default, a table per
 * tenant in fleet mode ({@link MemoryStore#messageHistory()}). The engine decides what is kept
 * ({@code [history] persistence}, blank texts skipped, secrets redacted, the timestamp from its
 * clock) before it calls {@link #append}; a store only keeps lines, trims them and finds them.
 *
 * <p>Offsets ({@link HistoryEntry#offset()}) must never name a different entry later: an offset
 * whose line was trimmed or removed finds nothing, which Codex's line numbers do not guarantee.
 */
public interface HistoryStore extends MessageHistory {

    /** Codex's {@code HISTORY_SOFT_CAP_RATIO}: a trim goes down to this share of {@code max_bytes}. */
    double SOFT_CAP_RATIO = 0.8;

    /**
     * Appends one line, then trims when {@code maxBytes > 0} and the lines kept pass it: the oldest
     * whole lines go until at most {@code max(floor(SOFT_CAP_RATIO · maxBytes), size of the new line)}
     * are left; the newest line is never dropped. Safe while other processes append.
     *
     * @param sessionId the thread the message belongs to
     * @param ts seconds since the epoch
     * @param text the message, already redacted; never blank
     * @param maxBytes the cap ({@code [history] max_bytes}); 0 for none
     */
    void append(String sessionId, long ts, String text, long maxBytes);

    /**
     * Removes every line of {@code sessionId}; returns how many went.
     *
     * @param sessionId the thread whose lines to remove
     * @return how many lines were removed
     */
    int removeSession(String sessionId);

    /** Searched where the lines are, not through {@link #recent}. */
    @Override
    List<HistoryEntry> search(String text, int limit);

    /**
     * The line of one entry in Codex's format, {@code {"session_id","ts","text"}} and a newline:
     * what {@code history.jsonl} holds, and what a line counts for against {@code max_bytes} (its
     * UTF-8 length) in every store, so all of them trim alike.
     *
     * @param sessionId the thread the message belongs to
     * @param ts seconds since the epoch
     * @param text the message
     * @return the JSON line, ending in a newline
     */
    static String jsonLine(String sessionId, long ts, String text) {
        return HistoryLines.jsonLine(sessionId, ts, text);
    }
}
