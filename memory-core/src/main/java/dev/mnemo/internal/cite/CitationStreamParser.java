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

    /** How a tag starts: only where these two characters are can a whole tag or a cut one of two or more be. */
    private static final String OPEN_START = OPEN_TAG.substring(0, 2);

    private static final String CLOSE_START = CLOSE_TAG.substring(0, 2);

    /** A suffix of the text so far that may still grow into a tag; {@code null} when none. */
    private String held;
    private final List<String> bodies = new ArrayList<>();
    /** The body of the open block so far, reused from block to block. */
    private final StringBuilder body = new StringBuilder();
    private boolean inBlock;
    private boolean finished;

    /** Strips every block from a complete text in one pass. */
    public static StrippedText strip(String text) {
        Objects.requireNonNull(text, "text");
        CitationStreamParser parser = new CitationStreamParser();
        String visible = parser.push(text) + parser.finish();
        return new StrippedText(visible, parser.bodies());
    }

    /**
     * {@inheritDoc}
     *
     * <p>Searches the chunk itself (after the few held-back characters, if any) for where a tag can
     * start. A chunk with no block in it and nothing to hold back is returned as it is: no copy, no
     * allocation, no further work.
     */
    @Override
    public String push(String chunk) {
        Objects.requireNonNull(chunk, "chunk");
        if (finished) {
            throw new IllegalStateException("push after finish(): a citation filter serves one answer");
        }
        String text = chunk;
        if (held != null) {
            text = held.concat(chunk);
            held = null;
        }
        if (!inBlock) {
            int open = tagOrTail(text, 0, OPEN_TAG, OPEN_START);
            if (open + OPEN_TAG.length() > text.length()) {
                return visibleUpTo(text, 0, open); // the common case: no block starts in this text
            }
        }
        return cutBlocks(text);
    }

    /**
     * Takes the blocks out of {@code text}, which has a block open at its start or opening in it
     * (found by {@link #push} and found again here: a few chunks in a hundred get this far).
     */
    private String cutBlocks(String text) {
        int length = text.length();
        String visible = "";
        int pos = 0;
        while (true) {
            if (inBlock) {
                int close = tagOrTail(text, pos, CLOSE_TAG, CLOSE_START);
                body.append(text, pos, close);
                if (close + CLOSE_TAG.length() > length) {
                    held = close < length ? text.substring(close) : null;
                    return visible;
                }
                bodies.add(body.toString());
                body.setLength(0);
                inBlock = false;
                pos = close + CLOSE_TAG.length();
            }
            int open = tagOrTail(text, pos, OPEN_TAG, OPEN_START);
            if (open + OPEN_TAG.length() > length) {
                String rest = visibleUpTo(text, pos, open);
                return visible.isEmpty() ? rest : visible.concat(rest);
            }
            visible = visible.concat(text.substring(pos, open));
            inBlock = true;
            pos = open + OPEN_TAG.length();
        }
    }

    /**
     * {@code text} from {@code pos} up to {@code end} (where a possible cut tag starts, or the
     * length), holding back from there and a high surrogate just before it.
     */
    private String visibleUpTo(String text, int pos, int end) {
        int take = end;
        if (take > pos && Character.isHighSurrogate(text.charAt(take - 1))) {
            take--; // keep a split surrogate pair together for the next chunk
        }
        if (take < text.length()) {
            held = text.substring(take);
        }
        return text.substring(pos, take);
    }

    @Override
    public String finish() {
        if (finished) {
            return "";
        }
        finished = true;
        String rest = held == null ? "" : held;
        held = null;
        if (inBlock) {
            bodies.add(body.append(rest).toString());
            body.setLength(0);
            inBlock = false;
            return "";
        }
        return rest;
    }

    @Override
    public List<String> bodies() {
        return List.copyOf(bodies);
    }

    /**
     * Where the first {@code tag} at or after {@code from} starts, or else where the suffix that may
     * still grow into it starts (a proper prefix of {@code tag} running to the end of
     * {@code text}), or else {@code text.length()}. A whole tag is there exactly when the result
     * plus the tag's length fits in the text. Either starts with {@code start} (the tag's first two
     * characters) except a lone {@code <} at the very end, so one intrinsic search for
     * {@code start} and a look at the last character cover both; plain {@code <b>}-style markup
     * costs nothing more.
     */
    private static int tagOrTail(String text, int from, String tag, String start) {
        int length = text.length();
        for (int at = text.indexOf(start, from); at >= 0; at = text.indexOf(start, at + 1)) {
            int rest = length - at;
            if (rest >= tag.length() ? text.startsWith(tag, at) : tag.regionMatches(0, text, at, rest)) {
                return at;
            }
        }
        return length > from && text.charAt(length - 1) == '<' ? length - 1 : length;
    }
}
