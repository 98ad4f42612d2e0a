package dev.mnemo.spi;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.SelectionPolicy;
import java.util.Objects;

/**
 * What a Phase 2 input selection asks for ({@link Phase2Store#phase2InputSelection(Phase2SelectionParams,
 * java.time.Instant)}): how many memories, which are still eligible, and how they are ranked.
 *
 * @param limit how many memories at most ({@code max_raw_memories_for_consolidation}); 0 selects none
 * @param maxUnusedDays a memory unused (never used: not refreshed) for longer is not eligible
 *     ({@code max_unused_days})
 * @param policy {@link SelectionPolicy#CODEX} ranks by usage count then recency, as Codex does;
 *     {@link SelectionPolicy#FAIR} applies {@link FairSelection}
 * @param halfLifeDays with {@code FAIR}: days after which a citation weighs half
 *     ({@code selection_half_life_days}); at least 1
 * @param newSharePercent with {@code FAIR}: percent of {@code limit}, rounded up, kept for the newest
 *     memories no consolidation has used yet ({@code selection_new_share_percent}); 0 to 100
 */
public record Phase2SelectionParams(int limit, int maxUnusedDays, SelectionPolicy policy, int halfLifeDays,
        int newSharePercent) {

    /**
     * Checks the parameters.
     *
     * @param limit how many memories at most, at least 0
     * @param maxUnusedDays the eligibility window in days, at least 0
     * @param policy how the memories are ranked
     * @param halfLifeDays with {@code FAIR}: days after which a citation weighs half, at least 1
     * @param newSharePercent with {@code FAIR}: percent of {@code limit} kept for new memories, 0 to 100
     * @throws IllegalArgumentException when a number is out of its range
     */
    public Phase2SelectionParams {
        Objects.requireNonNull(policy, "policy");
        if (limit < 0) {
            throw new IllegalArgumentException("limit must not be negative, was " + limit);
        }
        if (maxUnusedDays < 0) {
            throw new IllegalArgumentException("maxUnusedDays must not be negative, was " + maxUnusedDays);
        }
        if (halfLifeDays < 1) {
            throw new IllegalArgumentException("halfLifeDays must be at least 1, was " + halfLifeDays);
        }
        if (newSharePercent < 0 || newSharePercent > 100) {
            throw new IllegalArgumentException("newSharePercent must be between 0 and 100, was " + newSharePercent);
        }
    }

    /**
     * The selection a Phase 2 run under {@code config} makes: its size, window and policy.
     *
     * @param config the {@code [memories]} settings
     * @return the parameters taken from {@code config}
     */
    public static Phase2SelectionParams of(MemoriesConfig config) {
        Objects.requireNonNull(config, "config");
        return new Phase2SelectionParams(config.maxRawMemoriesForConsolidation(), config.maxUnusedDays(),
                config.selectionPolicy(), config.selectionHalfLifeDays(), config.selectionNewSharePercent());
    }

    /**
     * How many of the {@link #limit} places the {@code FAIR} rule keeps for memories never used by a
     * consolidation: {@code ceil(limit × newSharePercent / 100)} (Codex's ranking keeps none).
     *
     * @return the places kept for new memories, 0 to {@code limit}
     */
    public int reservedForNew() {
        return (int) ((limit * (long) newSharePercent + 99) / 100);
    }
}
