package dev.mnemo.spi;

import dev.mnemo.llm.TokenUsage;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

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
    public ConsolidationRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(at, "at");
        selected = List.copyOf(Objects.requireNonNull(selected, "selected"));
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(usage, "usage");
    }
}
