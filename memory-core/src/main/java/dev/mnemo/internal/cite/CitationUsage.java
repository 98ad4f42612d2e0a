package dev.mnemo.internal.cite;

import dev.mnemo.AssistantMessage;
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
     * The cited rollout ids that are UUIDs in any spelling Codex accepts (hyphenated, 32 hex digits,
     * braced, {@code urn:uuid:}, any letter case), as lower-case hyphenated ids, distinct, in
     * first-seen order. Anything else (paths, notes, {@code not-a-uuid}) is skipped.
     */
    public static List<String> usageIds(MemoryCitation citation) {
        Objects.requireNonNull(citation, "citation");
        Set<String> ids = new LinkedHashSet<>();
        for (String raw : citation.rolloutIds()) {
            RolloutUuid.normalise(raw).ifPresent(ids::add);
        }
        return List.copyOf(ids);
    }

    /**
     * Strips and parses {@code text}, then calls {@code recordUsage} once with the
     * {@linkplain #usageIds usage ids} when there are any. The function returns how many stored
     * memories it changed; that count becomes {@link AssistantMessage#usageRecorded()}. A failure
     * to record (as in Codex) does not lose the answer: it is logged and counts as zero.
     */
    public static AssistantMessage process(String text, ToIntFunction<List<String>> recordUsage) {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(recordUsage, "recordUsage");
        StrippedText stripped = CitationStreamParser.strip(text);
        Optional<MemoryCitation> citation = CitationBodyParser.parse(stripped.bodies());
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
        return new AssistantMessage(stripped.visibleText(), citation, Math.max(recorded, 0));
    }
}
