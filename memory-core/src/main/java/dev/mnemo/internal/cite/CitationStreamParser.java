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
 * block is plain body text). Visible text that could still grow into an opener is held back until
 * the next chunk, and a closer is looked for across the chunks of a body, so neither the output
 * nor the bodies depend on where the chunks were cut. At
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

    /** Outside a block, a suffix of the text so far that may still grow into an opener; {@code null} when none. */
    private String held;
    private final List<String> bodies = new ArrayList<>();
    /** The body of the open block so far, cut closer included, when the block began in an earlier chunk; reused from block to block. */
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
     * What {@link #push} returns for any chunk: inside a block, the chunk goes to the body and the
     * body is searched for the closer; then the rest (or the held-back characters and the chunk
     * together) is searched for openers.
     */
    private String filter(String chunk) {
        String text = chunk;
        int pos = 0;
        if (inBlock) {
            pos = continueBlock(chunk);
            if (pos < 0) {
                return "";
            }
        } else if (held != null) {
            text = held.concat(chunk);
            held = null;
        }
        int open = openerOrTail(text, pos);
        if (open + OPEN_TAG.length() > text.length()) {
            return visibleUpTo(text, pos, open);
        }
        return cutBlocks(text, pos, open);
    }

    /**
     * Adds a chunk to the body of the open block. Returns where the text after the closer starts in
     * the chunk, with the body added to the bodies and the block closed; or {@code -1} when the block
     * goes on.
     *
     * <p>No closer was whole in the body before, so one can only end in this chunk: the search starts
     * {@code CLOSE_TAG.length() - 1} characters before it, which also finds a closer cut between
     * chunks. {@code StringBuilder.indexOf} searches in place, so nothing is held back or copied
     * twice.
     */
    private int continueBlock(String chunk) {
        int before = body.length();
        body.append(chunk);
        int close = body.indexOf(CLOSE_TAG, Math.max(0, before - (CLOSE_TAG.length() - 1)));
        if (close < 0) {
            return -1;
        }
        bodies.add(body.substring(0, close));
        body.setLength(0);
        inBlock = false;
        return close + CLOSE_TAG.length() - before;
    }

    /**
     * Takes the blocks out of {@code text} from {@code pos} on, where a whole opener starts at
     * {@code open} (a few chunks in a hundred get this far); returns the visible text.
     */
    private String cutBlocks(String text, int pos, int open) {
        String visible = text.substring(pos, open);
        while (true) {
            pos = startBlock(text, open + OPEN_TAG.length());
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
     * Reads a block whose body starts at {@code from} in {@code text}. Returns where the text after
     * its closer starts, with the body (a substring of the text) added to the bodies; or {@code -1}
     * when the text ends inside the block, which then stays open with the rest of the text as its
     * body so far. The closer is searched for whole ({@code String.indexOf} of a string is an
     * intrinsic), so the {@code </citation_entries>}-style markup of the body costs nothing more.
     */
    private int startBlock(String text, int from) {
        int close = text.indexOf(CLOSE_TAG, from);
        if (close >= 0) {
            bodies.add(text.substring(from, close));
            return close + CLOSE_TAG.length();
        }
        body.append(text, from, text.length());
        inBlock = true;
        return -1;
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
        if (inBlock) {
            bodies.add(body.toString());
            body.setLength(0);
            inBlock = false;
            return "";
        }
        String rest = held == null ? "" : held;
        held = null;
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
