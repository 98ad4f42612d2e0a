package dev.mnemo;

import java.util.List;

/**
 * Strips citation blocks from an answer that arrives in chunks. Whatever the chunk boundaries,
 * the concatenated output and the bodies equal {@link Citations#strip} of the whole text.
 * Not thread-safe: one filter per answer.
 */
public interface CitationStreamFilter {

    /**
     * Feeds the next chunk of the answer.
     *
     * @param chunk the next piece of the model's output, as it arrived
     * @return the text that is safe to show now (a partial tag is held back), possibly {@code ""}
     */
    String push(String chunk);

    /**
     * Ends the stream; an unclosed block is closed.
     *
     * @return the visible text still held back, possibly {@code ""}
     */
    String finish();

    /**
     * The bodies of the blocks seen so far.
     *
     * @return each citation block's body, in the order they appeared; empty when there were none
     */
    List<String> bodies();
}
