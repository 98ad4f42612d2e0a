package dev.mnemo.internal.cite;

import dev.mnemo.CitationEntry;
import dev.mnemo.MemoryCitation;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Parses the bodies of citation blocks (wrapper already removed) into entries and rollout ids, the
 * way Codex's {@code parse_memory_citation} does.
 *
 * <p>Entries come from the first {@code <citation_entries>…</citation_entries>} of each body, one
 * per line, {@code path:start-end|note=[note]}, split at the last {@code |note=[} and then at the
 * last {@code :}; a line that does not fit is dropped silently. Ids come from
 * {@code <rollout_ids>}, or the legacy {@code <thread_ids>} when that block is absent or unclosed;
 * they are kept verbatim (not validated) and de-duplicated across all bodies in first-seen order.
 */
public final class CitationBodyParser {

    private static final String NOTE_SEPARATOR = "|note=[";

    private CitationBodyParser() {}

    /** The merged citation of all bodies, or empty when no body yields an entry or an id. */
    public static Optional<MemoryCitation> parse(List<String> bodies) {
        Objects.requireNonNull(bodies, "bodies");
        List<CitationEntry> entries = new ArrayList<>();
        Set<String> ids = new LinkedHashSet<>();
        for (String body : bodies) {
            Objects.requireNonNull(body, "a citation body was null");
            blockContent(body, "citation_entries").ifPresent(block -> lines(block)
                    .map(CitationBodyParser::parseEntry)
                    .flatMap(Optional::stream)
                    .forEach(entries::add));
            blockContent(body, "rollout_ids").or(() -> blockContent(body, "thread_ids"))
                    .ifPresent(block -> lines(block)
                            .map(String::strip)
                            .filter(line -> !line.isEmpty())
                            .forEach(ids::add));
        }
        if (entries.isEmpty() && ids.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new MemoryCitation(entries, List.copyOf(ids)));
    }

    /** Lines split on {@code \n} only, as Rust's {@code str::lines} does (a trailing CR is trimmed later). */
    private static Stream<String> lines(String block) {
        return Arrays.stream(block.split("\n", -1));
    }

    /** Text between the first {@code <tag>} and the next {@code </tag>}; empty if either is missing. */
    private static Optional<String> blockContent(String body, String tag) {
        String open = "<" + tag + ">";
        String close = "</" + tag + ">";
        int start = body.indexOf(open);
        if (start < 0) {
            return Optional.empty();
        }
        start += open.length();
        int end = body.indexOf(close, start);
        return end < 0 ? Optional.empty() : Optional.of(body.substring(start, end));
    }

    /** One {@code path:start-end|note=[note]} line, or empty when it does not have that shape. */
    static Optional<CitationEntry> parseEntry(String rawLine) {
        String line = rawLine.strip();
        int noteAt = line.lastIndexOf(NOTE_SEPARATOR);
        if (line.isEmpty() || noteAt < 0) {
            return Optional.empty();
        }
        String location = line.substring(0, noteAt);
        String noteRest = line.substring(noteAt + NOTE_SEPARATOR.length()).strip();
        if (!noteRest.endsWith("]")) {
            return Optional.empty();
        }
        String note = noteRest.substring(0, noteRest.length() - 1).strip();
        int colon = location.lastIndexOf(':');
        if (colon < 0) {
            return Optional.empty();
        }
        String path = location.substring(0, colon).strip();
        String range = location.substring(colon + 1);
        int dash = range.indexOf('-');
        if (dash < 0) {
            return Optional.empty();
        }
        Optional<Integer> start = parseLineNumber(range.substring(0, dash));
        Optional<Integer> end = parseLineNumber(range.substring(dash + 1));
        if (start.isEmpty() || end.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new CitationEntry(path, start.get(), end.get(), note));
    }

    /**
     * A line number as Rust's {@code u32} parse accepts it: ASCII digits with an optional leading
     * {@code +}, at most 4,294,967,295. Values above {@link Integer#MAX_VALUE} cannot be held by
     * {@link CitationEntry} and are dropped too.
     */
    private static Optional<Integer> parseLineNumber(String raw) {
        String text = raw.strip();
        if (text.startsWith("+")) {
            text = text.substring(1);
        }
        if (text.isEmpty() || text.length() > 10) {
            return Optional.empty();
        }
        long value = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return Optional.empty();
            }
            value = value * 10 + (c - '0');
        }
        return value > Integer.MAX_VALUE ? Optional.empty() : Optional.of((int) value);
    }
}
