package dev.mnemo;

import dev.mnemo.internal.cite.CitationBodyParser;
import dev.mnemo.internal.cite.CitationStreamParser;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Pure functions over the {@code <oai-mem-citation>} markup a model adds to answers that used
 * memory. No engine needed.
 */
public final class Citations {

    private Citations() {}

    /**
     * Removes every citation block, returning the visible text and the blocks' bodies.
     *
     * @param text a whole answer, possibly with citation markup; not null
     * @return the visible text and the bodies of the removed blocks
     */
    public static StrippedText strip(String text) {
        return CitationStreamParser.strip(Objects.requireNonNull(text, "text"));
    }

    /**
     * Parses citation bodies into entries and rollout ids.
     *
     * @param bodies the bodies of citation blocks, as {@link #strip} returns them; not null
     * @return the citation, or empty when nothing parses
     */
    public static Optional<MemoryCitation> parse(List<String> bodies) {
        return CitationBodyParser.parse(Objects.requireNonNull(bodies, "bodies"));
    }

    /**
     * A filter that strips citation blocks chunk by chunk, for streamed answers.
     *
     * @return a new filter, for one answer
     */
    public static CitationStreamFilter streamFilter() {
        return new CitationStreamParser();
    }
}
