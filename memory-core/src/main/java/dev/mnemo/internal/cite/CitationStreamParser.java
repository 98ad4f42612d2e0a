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
        // Work on the chunk itself (plus the few held-back characters, if any): String.indexOf is an
        // intrinsic, and a chunk without a tag in it is returned as it is, without a copy.
        String text = chunk;
        if (pending.length() > 0) {
            text = pending.append(chunk).toString();
            pending.setLength(0);
        }
        StringBuilder visible = null;
        String single = "";
        int pos = 0;
        int length = text.length();
        while (true) {
            if (activeBody != null) {
                int close = text.indexOf(CLOSE_TAG, pos);
                if (close >= 0) {
                    activeBody.append(text, pos, close);
                    bodies.add(activeBody.toString());
                    activeBody = null;
                    pos = close + CLOSE_TAG.length();
                    continue;
                }
                int take = length - heldBack(text, pos, CLOSE_TAG);
                activeBody.append(text, pos, take);
                pending.append(text, take, length);
                break;
            }
            int open = text.indexOf(OPEN_TAG, pos);
            if (open >= 0) {
                if (open > pos) {
                    visible = visible == null ? new StringBuilder(single) : visible;
                    visible.append(text, pos, open);
                }
                pos = open + OPEN_TAG.length();
                activeBody = new StringBuilder();
                continue;
            }
            int take = length - heldBack(text, pos, OPEN_TAG);
            if (take > pos && Character.isHighSurrogate(text.charAt(take - 1))) {
                take--; // keep a split surrogate pair together for the next chunk
            }
            if (visible == null) {
                single = pos == 0 && take == length ? text : text.substring(pos, take);
            } else {
                visible.append(text, pos, take);
            }
            pending.append(text, take, length);
            break;
        }
        return visible == null ? single : visible.toString();
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

    /**
     * Length of the longest suffix of {@code text} (from {@code from} on) that is a proper prefix of
     * {@code tag}: the characters that may still grow into the tag. Only a {@code <} can start one.
     */
    private static int heldBack(String text, int from, String tag) {
        int length = text.length();
        int start = Math.max(from, length - (tag.length() - 1));
        for (int at = text.indexOf('<', start); at >= 0; at = text.indexOf('<', at + 1)) {
            if (tag.regionMatches(0, text, at, length - at)) {
                return length - at;
            }
        }
        return 0;
    }
}
