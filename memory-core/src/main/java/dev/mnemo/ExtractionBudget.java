package dev.mnemo;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Objects;

/**
 * Where a day's extraction token budget ({@code [memories] max_extraction_tokens_per_day}) stands.
 *
 * @param day the UTC day the figures are for
 * @param spentTokens the tokens Phase 1 jobs reported for the day plus the reservations of jobs
 *     still running; may pass {@code limitTokens}, since a job's real usage is counted even where
 *     it ran over its reservation
 * @param limitTokens {@code max_extraction_tokens_per_day}
 */
public record ExtractionBudget(LocalDate day, long spentTokens, long limitTokens) {

    /**
     * Checks the components.
     *
     * @param day the UTC day the figures are for
     * @param spentTokens the tokens Phase 1 jobs reported for the day plus the reservations of jobs
     *     still running; may pass {@code limitTokens}, since a job's real usage is counted even where
     *     it ran over its reservation
     * @param limitTokens {@code max_extraction_tokens_per_day}
     * @throws NullPointerException when {@code day} is null
     * @throws IllegalArgumentException when {@code spentTokens} is negative or {@code limitTokens} is
     *     less than 1
     */
    public ExtractionBudget {
        Objects.requireNonNull(day, "day");
        if (spentTokens < 0) {
            throw new IllegalArgumentException("spentTokens must not be negative, was " + spentTokens);
        }
        if (limitTokens < 1) {
            throw new IllegalArgumentException("limitTokens must be at least 1, was " + limitTokens);
        }
    }

    /**
     * The UTC day of {@code now}: the day whose budget a Phase 1 job at {@code now} spends.
     *
     * @param now an instant, usually the engine clock's current time
     * @return the date of {@code now} in UTC
     */
    public static LocalDate dayOf(Instant now) {
        return LocalDate.ofInstant(now, ZoneOffset.UTC);
    }

    /**
     * Whether the day's budget is spent: Phase 1 waits for {@link #resetsAt()}.
     *
     * @return true when {@code spentTokens} has reached {@code limitTokens}
     */
    public boolean exhausted() {
        return spentTokens >= limitTokens;
    }

    /**
     * Tokens still free today.
     *
     * @return {@code limitTokens - spentTokens}, or 0 when exhausted
     */
    public long remainingTokens() {
        return Math.max(0, limitTokens - spentTokens);
    }

    /**
     * When the next day's budget starts: 00:00 UTC after {@link #day()}.
     *
     * @return the start of the day after {@link #day()}, in UTC
     */
    public Instant resetsAt() {
        return day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    /**
     * One line for people: {@code 4,000 of 10,000 tokens spent today (2026-06-01 UTC)}, or
     * {@code exhausted until 00:00 UTC (10,250 of 10,000 tokens spent on 2026-06-01)}.
     *
     * @return the budget's state in one line of English, numbers grouped with commas
     */
    public String describe() {
        String figures = String.format(java.util.Locale.ROOT, "%,d of %,d tokens", spentTokens, limitTokens);
        return exhausted() ? "exhausted until 00:00 UTC (" + figures + " spent on " + day + ")"
                : figures + " spent today (" + day + " UTC)";
    }
}
