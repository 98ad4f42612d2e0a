package dev.mnemo;

import java.util.List;
import java.util.Objects;

/**
 * Text with its citation blocks taken out.
 *
 * @param visibleText what the user should see
 * @param bodies the inner text of each {@code <oai-mem-citation>} block, in order
 */
public record StrippedText(String visibleText, List<String> bodies) {
    /**
     * Checks the components and copies the bodies, unmodifiable.
     *
     * @param visibleText what the user should see
     * @param bodies the inner text of each citation block, in order
     * @throws NullPointerException when a component is null
     */
    public StrippedText {
        Objects.requireNonNull(visibleText, "visibleText");
        bodies = List.copyOf(Objects.requireNonNull(bodies, "bodies"));
    }
}
