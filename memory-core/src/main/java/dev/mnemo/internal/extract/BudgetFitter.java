package dev.mnemo.internal.extract;

import java.util.ArrayList;
import java.util.List;

/**
 * Fits rendered rows into a byte budget, in this order (SPEC Phase 1, "tiered" selection):
 * <ol>
 *   <li>everything, when it fits;</li>
 *   <li>tool rows shortened to one common cap (head and tail around a gap marker), as large as
 *       the budget allows but not below {@value #MIN_TOOL_ROW_BYTES} bytes;</li>
 *   <li>whole rows left out, least important tier first (tool, context, commentary, other agent),
 *       oldest first inside a tier; then older middle user/assistant turns, keeping the first user
 *       request and the last user and assistant rows; each run of left-out rows becomes one
 *       {@code [… N response items omitted …]} marker;</li>
 *   <li>the remaining text shortened head-and-tail to the budget.</li>
 * </ol>
 * The result never exceeds the budget and never splits a code point.
 */
final class BudgetFitter {

    /** Tool rows are not shortened below this before whole rows start being dropped. */
    static final int MIN_TOOL_ROW_BYTES = 512;

    private static final String SEPARATOR = "\n\n";
    private static final int SEPARATOR_BYTES = 2;

    /** The fitted text and how many rows were left out. */
    record Fitted(String text, boolean truncated, int rowsDropped) {}

    private final List<Row> rows;
    private final long[] sizes;
    private final boolean[] dropped;
    private final long budget;
    private final long markerBytes;

    private BudgetFitter(List<Row> rows, long budget) {
        this.rows = new ArrayList<>(rows);
        this.sizes = new long[rows.size()];
        this.dropped = new boolean[rows.size()];
        this.budget = budget;
        this.markerBytes = Utf8Text.size(omittedMarker(rows.size()));
        for (int i = 0; i < rows.size(); i++) {
            sizes[i] = rows.get(i).bytes();
        }
    }

    static Fitted fit(List<Row> rows, long budgetBytes) {
        return new BudgetFitter(rows, budgetBytes).fit();
    }

    /**
     * The kept rows and how many were left out (each run of them is one marker row among the kept
     * ones); {@code truncated} when anything was shortened or left out.
     */
    record FittedRows(List<Row> rows, int rowsDropped, boolean truncated) {}

    /**
     * Steps 1 to 3 only: the rows that fit {@code budgetBytes}, as rows (a run of left-out rows is
     * one marker row), for a caller that splits them further. Step 4 is left out, so when the rows
     * that are never dropped (the first and last user turns, the last answer) are larger than the
     * budget, so is the result.
     */
    static FittedRows fitRows(List<Row> rows, long budgetBytes) {
        BudgetFitter fitter = new BudgetFitter(rows, budgetBytes);
        if (fitter.total() <= budgetBytes) {
            return new FittedRows(List.copyOf(rows), 0, false);
        }
        if (fitter.shortenToolRows() > budgetBytes) {
            fitter.dropRows(fitter.total());
        }
        List<Row> kept = new ArrayList<>();
        fitter.forEachPart(kept::add);
        int droppedCount = 0;
        for (boolean d : fitter.dropped) {
            droppedCount += d ? 1 : 0;
        }
        return new FittedRows(kept, droppedCount, true);
    }

    private Fitted fit() {
        long total = total();
        if (total <= budget) {
            return new Fitted(join(), false, 0);
        }
        total = shortenToolRows();
        if (total > budget) {
            total = dropRows(total);
        }
        String text = join();
        int droppedCount = 0;
        for (boolean d : dropped) {
            droppedCount += d ? 1 : 0;
        }
        return new Fitted(Utf8Text.shorten(text, budget), true, droppedCount);
    }

    /** Step 2: the largest common cap on tool rows that fits, never below the minimum. */
    private long shortenToolRows() {
        long fixed = 0;
        long largestTool = 0;
        List<Integer> tools = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            if (rows.get(i).tier() == Row.Tier.TOOL) {
                tools.add(i);
                largestTool = Math.max(largestTool, sizes[i]);
            } else {
                fixed += sizes[i];
            }
        }
        fixed += (long) SEPARATOR_BYTES * Math.max(0, rows.size() - 1);
        long low = MIN_TOOL_ROW_BYTES;
        long high = Math.max(low, largestTool);
        if (fixed + cappedToolBytes(tools, low) <= budget) {
            while (low < high) { // the largest cap in [low, high] that fits
                long mid = low + (high - low + 1) / 2;
                if (fixed + cappedToolBytes(tools, mid) <= budget) {
                    low = mid;
                } else {
                    high = mid - 1;
                }
            }
        }
        for (int i : tools) {
            if (sizes[i] > low) {
                Row row = rows.get(i);
                rows.set(i, new Row(row.tier(), Utf8Text.shorten(row.text(), low)));
                sizes[i] = rows.get(i).bytes();
            }
        }
        return total();
    }

    private long cappedToolBytes(List<Integer> tools, long cap) {
        long sum = 0;
        for (int i : tools) {
            sum += Math.min(sizes[i], cap);
        }
        return sum;
    }

    /** Step 3: leave out whole rows in drop order until the estimate fits. */
    private long dropRows(long total) {
        for (int i : dropOrder()) {
            if (total <= budget) {
                break;
            }
            total += dropDelta(i);
            dropped[i] = true;
        }
        return total;
    }

    /** Lower tiers first, oldest first; then middle human/final turns, oldest first. */
    private List<Integer> dropOrder() {
        List<Integer> order = new ArrayList<>();
        Row.Tier[] dropTiers = {Row.Tier.TOOL, Row.Tier.CONTEXT, Row.Tier.COMMENTARY, Row.Tier.OTHER_AGENT};
        for (Row.Tier tier : dropTiers) {
            for (int i = 0; i < rows.size(); i++) {
                if (rows.get(i).tier() == tier) {
                    order.add(i);
                }
            }
        }
        int firstHuman = -1;
        int lastHuman = -1;
        int lastFinal = -1;
        for (int i = 0; i < rows.size(); i++) {
            Row.Tier tier = rows.get(i).tier();
            if (tier == Row.Tier.HUMAN) {
                firstHuman = firstHuman < 0 ? i : firstHuman;
                lastHuman = i;
            } else if (tier == Row.Tier.FINAL) {
                lastFinal = i;
            }
        }
        for (int i = 0; i < rows.size(); i++) {
            Row.Tier tier = rows.get(i).tier();
            boolean turn = tier == Row.Tier.HUMAN || tier == Row.Tier.FINAL;
            if (turn && i != firstHuman && i != lastHuman && i != lastFinal) {
                order.add(i);
            }
        }
        return order;
    }

    /** How the estimated size changes when row {@code i} is left out (markers sized for the widest count). */
    private long dropDelta(int i) {
        boolean leftGap = i > 0 && dropped[i - 1];
        boolean rightGap = i + 1 < rows.size() && dropped[i + 1];
        long delta = -(sizes[i] + SEPARATOR_BYTES);
        if (!leftGap && !rightGap) {
            delta += markerBytes + SEPARATOR_BYTES; // a new run, a new marker
        } else if (leftGap && rightGap) {
            delta -= markerBytes + SEPARATOR_BYTES; // two runs merge into one
        }
        return delta;
    }

    /** The exact size of {@link #join()} when nothing is dropped; an upper bound otherwise. */
    private long total() {
        long total = 0;
        for (long size : sizes) {
            total += size;
        }
        return total + (long) SEPARATOR_BYTES * Math.max(0, rows.size() - 1);
    }

    /**
     * The kept rows, each run of dropped ones as one marker, separated by blank lines (none before
     * the first non-empty part). {@link String#join} sizes the result once with the right coder; a
     * {@code StringBuilder} would copy all it holds to UTF-16 at the first non-Latin-1 row.
     */
    private String join() {
        List<String> parts = new ArrayList<>(rows.size());
        forEachPart(row -> parts.add(row.text()));
        return String.join(SEPARATOR, parts);
    }

    /** The kept rows in order, each run of dropped ones as one marker row (empty leading rows skipped). */
    private void forEachPart(java.util.function.Consumer<Row> sink) {
        boolean any = false;
        int i = 0;
        while (i < rows.size()) {
            if (dropped[i]) {
                int run = 0;
                while (i < rows.size() && dropped[i]) {
                    run++;
                    i++;
                }
                sink.accept(new Row(Row.Tier.CONTEXT, omittedMarker(run)));
                any = true;
            } else {
                Row row = rows.get(i++);
                if (any || !row.text().isEmpty()) {
                    sink.accept(row);
                    any = true;
                }
            }
        }
    }

    static String omittedMarker(int items) {
        return "[… " + items + " response items omitted …]";
    }
}
