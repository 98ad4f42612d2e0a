package dev.mnemo.spi;

import dev.mnemo.llm.TokenUsage;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What a history entry records about one consolidation.
 *
 * @param id the consolidation id
 * @param at when it finished
 * @param selected the exact stage-1 versions it used
 * @param model the consolidation model
 * @param usage tokens spent
 */
public record ConsolidationRecord(String id, Instant at, List<SelectedInput> selected, String model, TokenUsage usage) {

    private static final DateTimeFormatter ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);

    /**
     * Checks the record and copies {@code selected}.
     *
     * @param id the consolidation id
     * @param at when it finished
     * @param selected the exact stage-1 versions it used
     * @param model the consolidation model
     * @param usage tokens spent
     */
    public ConsolidationRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(at, "at");
        selected = List.copyOf(Objects.requireNonNull(selected, "selected"));
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(usage, "usage");
    }

    /**
     * A fresh history entry id for an entry made at {@code at}: sortable by time and short enough
     * to type, e.g. {@code 20261129T130501Z-3fa9c1}. Consolidations and rollbacks use the same form.
     *
     * @param at when the entry is made
     * @return the new id: the UTC time to the second and six random hex digits
     */
    public static String newId(Instant at) {
        Objects.requireNonNull(at, "at");
        return ID_TIME.format(at) + "-" + String.format("%06x", ThreadLocalRandom.current().nextInt(1 << 24));
    }
}
