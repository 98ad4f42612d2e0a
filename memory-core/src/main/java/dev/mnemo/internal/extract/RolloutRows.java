package dev.mnemo.internal.extract;

import java.util.List;
import java.util.Objects;

/**
 * A rollout's rendered rows before any are left out: filtered, redacted, each no larger than the
 * size asked for (a longer one is shortened head-and-tail as it is read).
 *
 * @param rows the rows in rollout order
 * @param originalBytes UTF-8 size of the rendering before any row was shortened
 * @param shortenedOnRead whether a row was shortened to the size asked for
 * @param filtered rollout items the filter left out (developer messages, reasoning, …)
 * @param malformedLines rollout lines skipped because they were not well-formed
 */
public record RolloutRows(List<Row> rows, long originalBytes, boolean shortenedOnRead, int filtered,
        long malformedLines) {

    public RolloutRows {
        rows = List.copyOf(Objects.requireNonNull(rows, "rows"));
    }
}
