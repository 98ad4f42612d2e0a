package dev.mnemo.internal.extract;

import java.util.Objects;

/**
 * A rollout rendered as the Phase 1 model input body.
 *
 * @param text the filtered, redacted rows, fitted to the budget
 * @param originalBytes UTF-8 size of the filtered, redacted rendering before it was fitted
 * @param truncated whether anything was shortened or left out to fit the budget
 * @param itemsKept rollout items that were rendered (possibly shortened) into {@code text}
 * @param itemsDropped rollout items left out, by the filter (developer messages, reasoning, …) or
 *     to fit the budget
 * @param malformedLines rollout lines skipped because they were not well-formed
 */
public record RenderedRollout(String text, long originalBytes, boolean truncated, int itemsKept, int itemsDropped,
        long malformedLines) {

    public RenderedRollout {
        Objects.requireNonNull(text, "text");
    }
}
