package dev.mnemo.internal.cite;

import dev.mnemo.CitationStreamFilter;
import dev.mnemo.StrippedText;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Hides {@code <oai-mem-citation>…</oai-mem-citation>} blocks from text that may arrive in chunks,
 * collecting their bodies.
 *
 * <p>Tags are literal and case-sensitive, have no attributes and do not nest (an opener inside a
 * block is plain body text). A suffix that could still grow into a tag is held back until the next
 * chunk, so the concatenated output never depends on where the chunks were cut. At
 * {@link #finish()} an open block is closed (its body is kept, nothing is shown) and a dangling
 * partial opener is released as visible text. Not thread-safe: one parser per answer.
 */
public final class CitationStreamParser implements CitationStreamFilter {

    /** The opening tag, exactly as the model writes it. */
    public static final String OPEN_TAG = "<oai-mem-citation>";

    /** The closing tag, exactly as the model writes it. */
    public static final String CLOSE_TAG = "</oai-mem-citation>";

    private final StringBuilder pending = new StringBuilder();
    private final List<String> bodies = new ArrayList<>();
    private StringBuilder activeBody;
    private boolean finished;

    /** Strips every block from a complete text in one pass. */
    public static StrippedText strip(String text) {
        Objects.requireNonNull(text, "text");
        CitationStreamParser parser = new CitationStreamParser();
        String visible = parser.push(text) + parser.finish();
        return new StrippedText(visible, parser.bodies());
    }

    @Override
    public String push(String chunk) {
        Objects.requireNonNull(chunk, "chunk");
        if (finished) {
            throw new IllegalStateException("push after finish(): a citation filter serves one answer");
        }
        pending.append(chunk);
        StringBuilder visible = new StringBuilder();
        while (true) {
            if (activeBody != null) {
                int close = pending.indexOf(CLOSE_TAG);
                if (close >= 0) {
                    activeBody.append(pending, 0, close);
                    bodies.add(activeBody.toString());
                    activeBody = null;
                    pending.delete(0, close + CLOSE_TAG.length());
                    continue;
                }
                int take = pending.length() - longestSuffixThatStarts(CLOSE_TAG);
                activeBody.append(pending, 0, take);
                pending.delete(0, take);
                return visible.toString();
            }
            int open = pending.indexOf(OPEN_TAG);
            if (open >= 0) {
                visible.append(pending, 0, open);
                pending.delete(0, open + OPEN_TAG.length());
                activeBody = new StringBuilder();
                continue;
            }
            int take = pending.length() - longestSuffixThatStarts(OPEN_TAG);
            if (take > 0 && Character.isHighSurrogate(pending.charAt(take - 1))) {
                take--; // keep a split surrogate pair together for the next chunk
            }
            visible.append(pending, 0, take);
            pending.delete(0, take);
            return visible.toString();
        }
    }

    @Override
    public String finish() {
        if (finished) {
            return "";
        }
        finished = true;
        if (activeBody != null) {
            activeBody.append(pending);
            bodies.add(activeBody.toString());
            activeBody = null;
            pending.setLength(0);
            return "";
        }
        String rest = pending.toString();
        pending.setLength(0);
        return rest;
    }

    @Override
    public List<String> bodies() {
        return List.copyOf(bodies);
    }

    /** Length of the longest suffix of {@code pending} that is a proper prefix of {@code tag}. */
    private int longestSuffixThatStarts(String tag) {
        int max = Math.min(pending.length(), tag.length() - 1);
        for (int k = max; k > 0; k--) {
            if (endsWith(tag, k)) {
                return k;
            }
        }
        return 0;
    }

    private boolean endsWith(String tag, int prefixLength) {
        int start = pending.length() - prefixLength;
        for (int i = 0; i < prefixLength; i++) {
            if (pending.charAt(start + i) != tag.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}
