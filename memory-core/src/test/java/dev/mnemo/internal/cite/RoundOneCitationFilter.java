package dev.mnemo.internal.cite;

import dev.mnemo.CitationStreamFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The round-one citation filter (an {@code indexOf} of the whole tag, then a check of the tail),
 * kept unchanged as an oracle: the current {@link CitationStreamParser} must return exactly what
 * this one returned for every push, not only the same concatenation.
 */
final class RoundOneCitationFilter implements CitationStreamFilter {

    private final StringBuilder pending = new StringBuilder();
    private final List<String> bodies = new ArrayList<>();
    private StringBuilder activeBody;
    private boolean finished;

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
                int close = text.indexOf(CitationStreamParser.CLOSE_TAG, pos);
                if (close >= 0) {
                    activeBody.append(text, pos, close);
                    bodies.add(activeBody.toString());
                    activeBody = null;
                    pos = close + CitationStreamParser.CLOSE_TAG.length();
                    continue;
                }
                int take = length - heldBack(text, pos, CitationStreamParser.CLOSE_TAG);
                activeBody.append(text, pos, take);
                pending.append(text, take, length);
                break;
            }
            int open = text.indexOf(CitationStreamParser.OPEN_TAG, pos);
            if (open >= 0) {
                if (open > pos) {
                    visible = visible == null ? new StringBuilder(single) : visible;
                    visible.append(text, pos, open);
                }
                pos = open + CitationStreamParser.OPEN_TAG.length();
                activeBody = new StringBuilder();
                continue;
            }
            int take = length - heldBack(text, pos, CitationStreamParser.OPEN_TAG);
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
