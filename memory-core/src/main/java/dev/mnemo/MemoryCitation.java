package dev.mnemo;

import java.util.List;
import java.util.Objects;

/**
 * What an answer cited from memory.
 *
 * @param entries the cited places, in order
 * @param rolloutIds the ids of the rollouts whose memories were used, de-duplicated in first-seen order
 */
public record MemoryCitation(List<CitationEntry> entries, List<String> rolloutIds) {
    /**
     * Checks the components and copies the lists.
     *
     * @param entries the cited places, in order
     * @param rolloutIds the ids of the rollouts whose memories were used, de-duplicated in first-seen order
     * @throws NullPointerException when a list is null
     */
    public MemoryCitation {
        entries = List.copyOf(Objects.requireNonNull(entries, "entries"));
        rolloutIds = List.copyOf(Objects.requireNonNull(rolloutIds, "rolloutIds"));
    }
}
