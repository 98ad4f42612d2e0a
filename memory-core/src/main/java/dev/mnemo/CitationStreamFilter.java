package dev.mnemo;

import java.util.List;

/**
 * Strips citation blocks from an answer that arrives in chunks. Whatever the chunk boundaries,
 * the concatenated output and the bodies equal {@link Citations#strip} of the whole text.
 * Not thread-safe: one filter per answer.
 */
public interface CitationStreamFilter {

    /** Feeds the next chunk; returns the text that is safe to show now (a partial tag is held back). */
    String push(String chunk);

    /** Ends the stream: returns held-back text; an unclosed block is closed. */
    String finish();

    /** The bodies of the blocks seen so far. */
    List<String> bodies();
}
