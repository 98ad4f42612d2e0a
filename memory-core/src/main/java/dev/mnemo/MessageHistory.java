package dev.mnemo;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The short-term layer: every user message of a recorded session, one line each, in
 * {@code <home>/history.jsonl} in Codex's format ({@code {"session_id","ts","text"}}), redacted,
 * mode 0600 ({@code [history] persistence}, {@code max_bytes}).
 */
public interface MessageHistory {

    /**
     * The newest {@code limit} entries, newest last.
     *
     * @param limit the most entries to return
     * @return the entries, oldest first; empty when there are none
     */
    List<HistoryEntry> recent(int limit);

    /**
     * The entry at {@code offset} (as {@link HistoryEntry#offset()} gave it), or empty when there is
     * none or the offset went stale (a trim dropped or shifted it).
     *
     * @param offset the entry's offset, from {@link HistoryEntry#offset()}
     * @return the entry, or empty
     */
    Optional<HistoryEntry> entry(long offset);

    /**
     * The newest {@code limit} entries whose text contains {@code text}, ignoring case; newest last.
     * The default filters {@link #recent}; stores search where the lines are.
     *
     * @param text the text to look for, ignoring case
     * @param limit the most entries to return
     * @return the matching entries, oldest first; empty when none match
     */
    default List<HistoryEntry> search(String text, int limit) {
        String needle = text.toLowerCase(Locale.ROOT);
        List<HistoryEntry> found = recent(Integer.MAX_VALUE).stream()
                .filter(entry -> entry.text().toLowerCase(Locale.ROOT).contains(needle)).toList();
        return found.subList(Math.max(0, found.size() - limit), found.size());
    }
}
