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

    /** How the opener starts: only where these two characters are can a whole opener or a cut one of two or more be. */
    private static final String OPEN_START = OPEN_TAG.substring(0, 2);

    /** A suffix of the text so far that may still grow into a tag; {@code null} when none. */
    private String held;
    private final List<String> bodies = new ArrayList<>();
    /** The body of the open block so far, when the block began in an earlier chunk; reused from block to block. */
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
     * <p>A chunk outside a block, with nothing held back before it, no {@code <o} in it (which every
     * opener, whole or cut after two or more characters, starts with) and no {@code <} or high
     * surrogate at its end (a cut opener of one character, half of a pair) is returned as it is
     * after one intrinsic search: no copy, no allocation, no further work. That is nearly every
     * chunk; the rest go through {@code filter}.
     */
    @Override
    public String push(String chunk) {
        Objects.requireNonNull(chunk, "chunk");
        if (finished) {
            throw new IllegalStateException("push after finish(): a citation filter serves one answer");
        }
        if (held == null && !inBlock && chunk.indexOf(OPEN_START) < 0 && !mayBeCutAtEnd(chunk)) {
            return chunk;
        }
        return filter(chunk);
    }

    /** Whether the chunk ends in a {@code <} or a high surrogate: a character that may have to be held back. */
    private static boolean mayBeCutAtEnd(String chunk) {
        int length = chunk.length();
        if (length == 0) {
            return false;
        }
        char last = chunk.charAt(length - 1);
        return last == '<' || Character.isHighSurrogate(last);
    }

    /**
     * What {@link #push} returns for any chunk: the held-back characters and the chunk are searched
     * together, the end of an open block first, then the openers after it.
     */
    private String filter(String chunk) {
        String text = chunk;
        if (held != null) {
            text = held.concat(chunk);
            held = null;
        }
        int pos = 0;
        if (inBlock) {
            pos = endBlock(text, 0);
            if (pos < 0) {
                return "";
            }
        }
        int open = openerOrTail(text, pos);
        if (open + OPEN_TAG.length() > text.length()) {
            return visibleUpTo(text, pos, open);
        }
        return cutBlocks(text, pos, open);
    }

    /**
     * Takes the blocks out of {@code text} from {@code pos} on, where a whole opener starts at
     * {@code open} (a few chunks in a hundred get this far); returns the visible text.
     */
    private String cutBlocks(String text, int pos, int open) {
        String visible = text.substring(pos, open);
        while (true) {
            pos = endBlock(text, open + OPEN_TAG.length());
            if (pos < 0) {
                return visible;
            }
            open = openerOrTail(text, pos);
            if (open + OPEN_TAG.length() > text.length()) {
                String rest = visibleUpTo(text, pos, open);
                return visible.isEmpty() ? rest : visible.concat(rest);
            }
            visible = visible.concat(text.substring(pos, open));
        }
    }

    /**
     * Reads the body of the open block in {@code text} from {@code from} on. Returns where the text
     * after its closer starts, with the body added to the bodies and the block closed; or
     * {@code -1} when the text ends inside the block: then all of it is body except a suffix that
     * may still grow into the closer, which is held back.
     *
     * <p>The closer is searched for whole ({@code String.indexOf} of a string is an intrinsic), so
     * the {@code </citation_entries>}-style markup of the body costs nothing more. Only when it is
     * not there can a cut one end the text, and then only in its last {@code CLOSE_TAG.length() - 1}
     * characters. A body found whole in one text is taken as a substring of it, not copied through
     * {@code body}.
     */
    private int endBlock(String text, int from) {
        int close = text.indexOf(CLOSE_TAG, from);
        if (close >= 0) {
            if (body.length() == 0) {
                bodies.add(text.substring(from, close));
            } else {
                bodies.add(body.append(text, from, close).toString());
                body.setLength(0);
            }
            inBlock = false;
            return close + CLOSE_TAG.length();
        }
        int length = text.length();
        int cut = cutCloser(text, Math.max(from, length - (CLOSE_TAG.length() - 1)));
        body.append(text, from, cut);
        if (cut < length) {
            held = text.substring(cut);
        }
        inBlock = true;
        return -1;
    }

    /**
     * Where the longest suffix of {@code text} starting at or after {@code from} that is a proper
     * prefix of the closer starts, or {@code text.length()}. Each starts with a {@code <}; the first
     * one that fits is the longest.
     */
    private static int cutCloser(String text, int from) {
        int length = text.length();
        for (int at = text.indexOf('<', from); at >= 0; at = text.indexOf('<', at + 1)) {
            if (CLOSE_TAG.regionMatches(0, text, at, length - at)) {
                return at;
            }
        }
        return length;
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
     * Where the first opener at or after {@code from} starts, or else where the suffix that may
     * still grow into one starts (a proper prefix of {@link #OPEN_TAG} running to the end of
     * {@code text}), or else {@code text.length()}. A whole opener is there exactly when the result
     * plus its length fits in the text. Either starts with {@code OPEN_START} except a lone
     * {@code <} at the very end, so one intrinsic search for those two characters and a look at the
     * last character cover both; plain {@code <b>}-style markup costs nothing more.
     */
    private static int openerOrTail(String text, int from) {
        int length = text.length();
        for (int at = text.indexOf(OPEN_START, from); at >= 0; at = text.indexOf(OPEN_START, at + 1)) {
            int rest = length - at;
            if (rest >= OPEN_TAG.length() ? text.startsWith(OPEN_TAG, at) : OPEN_TAG.regionMatches(0, text, at, rest)) {
                return at;
            }
        }
        return length > from && text.charAt(length - 1) == '<' ? length - 1 : length;
    }
}
