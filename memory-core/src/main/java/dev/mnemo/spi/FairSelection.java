package dev.mnemo.spi;

import dev.mnemo.SelectionPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * For store authors: the {@link SelectionPolicy#FAIR} ranking of Phase 2's inputs as a pure
 * function over the eligible memories, so every store selects the same way. A store's
 * {@link Phase2Store#phase2InputSelection(Phase2SelectionParams, Instant)} does in SQL only what SQL
 * must do:
 *
 * <ol>
 *   <li>read, in one read transaction, a {@link Candidate} for each memory Codex's selection finds
 *       eligible (same rules: not empty, approved, of an enabled thread, used, or never used but
 *       refreshed, within {@code max_unused_days});</li>
 *   <li>ask {@link #select} which of them to take;</li>
 *   <li>load those rows in the same transaction and return them sorted by thread id.</li>
 * </ol>
 *
 * <p>The rule: a memory's usage count decays with the half-life,
 * {@code usage_count × 0.5^(days since last use / half-life)}, and memories rank by it, then as
 * Codex breaks ties (last use, or else the rollout's update, newest first; then the rollout's update;
 * then thread id, highest first). Of the {@code limit} places, {@link Phase2SelectionParams#reservedForNew()}
 * go to the newest memories no consolidation has used yet (rollout update, newest first), when there
 * are such memories that the ranking left out; the other places, and reserved ones nobody claims,
 * follow the ranking. Without the reserve, a memory that missed its first citations ranks below
 * every cited one and is never shown to a model again, so it is never cited (Codex's loop).
 */
public final class FairSelection {

    /** A day in seconds, the unit of the half-life. */
    private static final double DAY_SECONDS = Duration.ofDays(1).toSeconds();

    /**
     * The ranking columns of one eligible memory.
     *
     * @param threadId the memory's thread
     * @param usageCount how often answers cited it (0 when never)
     * @param lastUsage when it was last cited
     * @param sourceUpdatedAt the rollout version it was extracted from
     * @param everSelected whether a successful consolidation has used it (recorded by
     *     {@link ForgetStore#recordConsolidatedThreads}, or it is in the current selection)
     */
    public record Candidate(String threadId, int usageCount, Optional<Instant> lastUsage, Instant sourceUpdatedAt,
            boolean everSelected) {
        /**
         * Checks the columns.
         *
         * @param threadId the memory's thread
         * @param usageCount how often answers cited it, at least 0
         * @param lastUsage when it was last cited; empty when never
         * @param sourceUpdatedAt the rollout version it was extracted from
         * @param everSelected whether a successful consolidation has used it
         * @throws NullPointerException when {@code threadId}, {@code lastUsage} or {@code sourceUpdatedAt} is null
         * @throws IllegalArgumentException when {@code usageCount} is negative
         */
        public Candidate {
            Objects.requireNonNull(threadId, "threadId");
            Objects.requireNonNull(lastUsage, "lastUsage");
            Objects.requireNonNull(sourceUpdatedAt, "sourceUpdatedAt");
            if (usageCount < 0) {
                throw new IllegalArgumentException("usageCount must not be negative, was " + usageCount);
            }
        }

        /**
         * Codex's recency key: the last use, or the rollout's update for a memory never used.
         *
         * @return {@code lastUsage}, or {@code sourceUpdatedAt} when never used
         */
        public Instant recency() {
            return lastUsage.orElse(sourceUpdatedAt);
        }
    }

    /** Codex's tie-breaks after the usage key: recency, rollout update, thread id, each highest first. */
    private static final Comparator<Candidate> CODEX_TIES = Comparator.comparing(Candidate::recency)
            .thenComparing(Candidate::sourceUpdatedAt).thenComparing(Candidate::threadId).reversed();

    /** The newest rollout first, then the highest thread id. */
    private static final Comparator<Candidate> NEWEST = Comparator.comparing(Candidate::sourceUpdatedAt)
            .thenComparing(Candidate::threadId).reversed();

    private FairSelection() {
    }

    /**
     * Codex's ranking (write-sheet §5.3), best first: usage count, then {@link Candidate#recency},
     * rollout update and thread id, each highest first. Stores run it as SQL; this form is for
     * comparing the two policies.
     *
     * @return a comparator that sorts the best candidate first
     */
    public static Comparator<Candidate> codexOrder() {
        return Comparator.comparingInt(Candidate::usageCount).reversed().thenComparing(CODEX_TIES);
    }

    /**
     * The {@code FAIR} ranking at {@code now}, best first: {@link #decayedUsage}, then Codex's
     * tie-breaks.
     *
     * @param halfLifeDays the half-life of a use, in days, at least 1
     * @param now the time the ages are counted to
     * @return a comparator that sorts the best candidate first
     * @throws IllegalArgumentException when {@code halfLifeDays} is less than 1
     */
    public static Comparator<Candidate> fairOrder(int halfLifeDays, Instant now) {
        Objects.requireNonNull(now, "now");
        if (halfLifeDays < 1) {
            throw new IllegalArgumentException("halfLifeDays must be at least 1, was " + halfLifeDays);
        }
        Comparator<Candidate> decayed = Comparator.comparingDouble(c -> decayedUsage(c, halfLifeDays, now));
        return decayed.reversed().thenComparing(CODEX_TIES);
    }

    /**
     * {@code usageCount × 0.5^(age / halfLifeDays)}, the age being the days from the last use (or,
     * never used, the rollout's update) to {@code now}, not less than 0.
     *
     * @param candidate the memory
     * @param halfLifeDays the half-life of a use, in days, at least 1
     * @param now the time the age is counted to
     * @return the decayed usage, 0 for a memory never used
     */
    public static double decayedUsage(Candidate candidate, int halfLifeDays, Instant now) {
        if (candidate.usageCount() == 0) {
            return 0;
        }
        double ageDays = Math.max(0, now.getEpochSecond() - candidate.recency().getEpochSecond()) / DAY_SECONDS;
        return candidate.usageCount() * Math.pow(0.5, ageDays / halfLifeDays);
    }

    /**
     * The memories a {@code FAIR} selection takes from the eligible {@code candidates} (one per
     * thread), in the order they were chosen: the best {@code limit − reserved} by the
     * fair ranking, then up to {@code reserved} of the newest never selected among the rest, then
     * the rest by ranking until {@code limit}. The parameters' policy is not consulted: this is the
     * fair rule whatever it says. Deterministic: the same inputs give the same list.
     *
     * @param params the limit, reserve and half-life
     * @param candidates the eligible memories, one per thread, in any order
     * @param now the time the ages are counted to
     * @return at most {@code params.limit()} candidates, in the order chosen
     */
    public static List<Candidate> select(Phase2SelectionParams params, List<Candidate> candidates, Instant now) {
        Objects.requireNonNull(params, "params");
        Objects.requireNonNull(candidates, "candidates");
        Objects.requireNonNull(now, "now");
        int limit = params.limit();
        List<Candidate> ranked = new ArrayList<>(candidates);
        ranked.sort(fairOrder(params.halfLifeDays(), now));
        if (ranked.size() <= limit) {
            return List.copyOf(ranked);
        }
        int reserved = params.reservedForNew();
        List<Candidate> chosen = new ArrayList<>(ranked.subList(0, limit - reserved));
        Set<String> taken = new HashSet<>();
        chosen.forEach(c -> taken.add(c.threadId()));
        ranked.stream().skip(limit - reserved).filter(c -> !c.everSelected()).sorted(NEWEST).limit(reserved)
                .forEach(c -> {
                    chosen.add(c);
                    taken.add(c.threadId());
                });
        for (Candidate candidate : ranked) {
            if (chosen.size() == limit) {
                break;
            }
            if (taken.add(candidate.threadId())) {
                chosen.add(candidate);
            }
        }
        return List.copyOf(chosen);
    }

}
