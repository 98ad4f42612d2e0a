package dev.mnemo.internal.extract;

import java.util.List;
import java.util.Locale;

/**
 * How a rollout's rows are extracted: in one request, fitted by {@link BudgetFitter}'s tiers as
 * Codex does, when they fit one or when {@code max_extraction_tokens_per_rollout} allows no more
 * than one; else in parts ({@link RolloutParts}), after the least important rows were left out to
 * keep all the parts within the cap.
 *
 * @param rows the rows to extract (in parts: after the cap's fit, a left-out run as one marker row)
 * @param inParts whether they are extracted in parts and merged
 * @param rowCount the rollout's rows before the cap's fit
 * @param rowsLeftOut rows the cap's fit left out
 * @param shortened whether the cap's fit shortened or left out anything
 */
record ExtractionPlan(List<Row> rows, boolean inParts, int rowCount, int rowsLeftOut, boolean shortened) {

    /** The share of the cap the parts may take; the rest is kept for merging their memories (far smaller: a memory is a fraction of its rows). */
    static final double PARTS_SHARE_OF_CAP = 0.9;

    /**
     * @param room bytes of rows one request holds now
     * @param budget the job's request budget
     * @param capTokens {@code max_extraction_tokens_per_rollout}
     */
    static ExtractionPlan of(List<Row> rows, long room, ExtractionBudget budget, long capTokens) {
        long total = 0;
        for (Row row : rows) {
            total += row.bytes() + 2;
        }
        if (total - 2 <= room || capTokens <= budget.tokenBudget()) {
            return new ExtractionPlan(rows, false, rows.size(), 0, false);
        }
        long capBytes = capTokens * Phase1Runner.BYTES_PER_TOKEN;
        long partsRoom = (long) (capBytes * PARTS_SHARE_OF_CAP * room / budget.requestBytes());
        if (partsRoom <= room) {
            return new ExtractionPlan(rows, false, rows.size(), 0, false);
        }
        if (total - 2 <= partsRoom) {
            return new ExtractionPlan(rows, true, rows.size(), 0, false);
        }
        BudgetFitter.FittedRows fitted = BudgetFitter.fitRows(rows, partsRoom);
        return new ExtractionPlan(fitted.rows(), true, rows.size(), fitted.rowsDropped(), fitted.truncated());
    }

    /** The line a memory read in parts ends its summary with: what it covers, and what the cap left out. */
    String coverage(int parts) {
        if (rowsLeftOut == 0) {
            return String.format(Locale.ROOT, "Covered: rows 1–%,d of %,d in %d parts%s.", rowCount, rowCount, parts,
                    shortened ? "; tool outputs shortened to stay within max_extraction_tokens_per_rollout" : "");
        }
        return String.format(Locale.ROOT, "Covered: %,d of %,d rows in %d parts; %,d rows left out to stay within"
                        + " max_extraction_tokens_per_rollout.", rowCount - rowsLeftOut, rowCount, parts, rowsLeftOut);
    }
}
