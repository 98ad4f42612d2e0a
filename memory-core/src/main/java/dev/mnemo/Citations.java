package dev.mnemo;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Pure functions over the {@code <oai-mem-citation>} markup a model adds to answers that used
 * memory. No engine needed.
 */
public final class Citations {

    private Citations() {}

    /** Removes every citation block, returning the visible text and the blocks' bodies. */
    public static StrippedText strip(String text) {
        Objects.requireNonNull(text, "text");
        throw new UnsupportedOperationException("citation stripping arrives with the read path (issue #5)");
    }

    /** Parses citation bodies into entries and rollout ids; empty when nothing parses. */
    public static Optional<MemoryCitation> parse(List<String> bodies) {
        Objects.requireNonNull(bodies, "bodies");
        throw new UnsupportedOperationException("citation parsing arrives with the read path (issue #5)");
    }

    /** A filter that strips citation blocks chunk by chunk, for streamed answers. */
    public static CitationStreamFilter streamFilter() {
        throw new UnsupportedOperationException("streamed citation stripping arrives with the read path (issue #5)");
    }
}
