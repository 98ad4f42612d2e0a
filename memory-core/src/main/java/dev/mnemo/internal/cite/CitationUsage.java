package dev.mnemo.internal.cite;

import dev.mnemo.AssistantMessage;
import dev.mnemo.CitationEntry;
import dev.mnemo.MemoryCitation;
import dev.mnemo.StrippedText;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a finished assistant answer into what the user sees plus the usage its citation earns:
 * strip the markup, parse the bodies, and report each distinct cited rollout id once.
 */
public final class CitationUsage {

    private static final Logger LOG = LoggerFactory.getLogger(CitationUsage.class);

    private CitationUsage() {}

    /**
     * The cited rollout ids as the store keys them, distinct, in first-seen order: a UUID in any
     * spelling Codex accepts (hyphenated, 32 hex digits, braced, {@code urn:uuid:}, any letter case)
     * becomes its lower-case hyphenated form; any other id ({@code chat-42},
     * {@code user@example.com/7}) is kept as written, surrounding blanks removed, since Mnemo
     * threads may have any non-blank id. Ids that name no stored memory are ignored by the store.
     */
    public static List<String> usageIds(MemoryCitation citation) {
        Objects.requireNonNull(citation, "citation");
        Set<String> ids = new LinkedHashSet<>();
        for (String raw : citation.rolloutIds()) {
            String id = raw.strip();
            if (!id.isEmpty()) {
                ids.add(RolloutUuid.normalise(id).orElse(id));
            }
        }
        return List.copyOf(ids);
    }

    /**
     * The citation as a {@link dev.mnemo.MemoryReceipt} holds it: its entries and rollout ids, each
     * entry's note blanked (the note is the answering model's words about memory, not a place).
     */
    public static List<MemoryCitation> forReceipt(Optional<MemoryCitation> citation) {
        Objects.requireNonNull(citation, "citation");
        return citation.map(c -> List.of(new MemoryCitation(c.entries().stream()
                .map(e -> new CitationEntry(e.path(), e.lineStart(), e.lineEnd(), "")).toList(), c.rolloutIds())))
                .orElse(List.of());
    }

    /**
     * Strips and parses {@code text}, then {@linkplain #count counts} its citation.
     */
    public static AssistantMessage process(String text, ToIntFunction<List<String>> recordUsage) {
        Objects.requireNonNull(text, "text");
        StrippedText stripped = CitationStreamParser.strip(text);
        return count(stripped.visibleText(), stripped.bodies(), recordUsage);
    }

    /**
     * Parses the citation {@code bodies} of an answer whose visible text is {@code visibleText}
     * and calls {@code recordUsage} once with the {@linkplain #usageIds usage ids} when there are
     * any. The function returns how many stored memories it changed; that count becomes
     * {@link AssistantMessage#usageRecorded()}. A failure to record (as in Codex) does not lose the
     * answer: it is logged and counts as zero.
     */
    public static AssistantMessage count(String visibleText, List<String> bodies,
            ToIntFunction<List<String>> recordUsage) {
        Objects.requireNonNull(visibleText, "visibleText");
        Objects.requireNonNull(recordUsage, "recordUsage");
        Optional<MemoryCitation> citation = CitationBodyParser.parse(bodies);
        List<String> ids = citation.map(CitationUsage::usageIds).orElse(List.of());
        int recorded = 0;
        if (!ids.isEmpty()) {
            try {
                recorded = recordUsage.applyAsInt(ids);
                LOG.debug("Recorded memory usage for {} cited rollout ids; {} memories changed", ids.size(), recorded);
            } catch (RuntimeException e) {
                LOG.warn("Could not record memory usage for cited rollout ids {}; the answer is kept", ids, e);
            }
        }
        return new AssistantMessage(visibleText, citation, Math.max(recorded, 0));
    }
}
