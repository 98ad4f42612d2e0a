package dev.mnemo.internal.extract;

import dev.mnemo.spi.Stage1Result;
import java.util.ArrayList;
import java.util.List;

/**
 * Extraction of a rollout too large for one request: its rows are split at row boundaries into
 * parts that each fit the budget the job has now (a single row larger than a part is shortened
 * head-and-tail; inside a part {@link BudgetFitter}'s tiers apply), each part is extracted with the
 * same strict schema and told which part of how many it is. The parts are cut as the extraction
 * goes, so a part the model rejected as too large is cut again smaller and the rest follow suit.
 */
final class RolloutParts {

    private static final int SEPARATOR_BYTES = 2;

    /**
     * A partial memory and the rows (1-based, inclusive) it was extracted from.
     *
     * @param result the memory of these rows; never empty
     */
    record Partial(Stage1Result result, int firstRow, int lastRow) {}

    /** The partial memories (empty parts left out) and how many parts were extracted. */
    record Extracted(List<Partial> partials, int parts) {}

    private final List<Row> rows;
    private final RolloutContext context;
    private final long noteBytes;

    RolloutParts(List<Row> rows, RolloutContext context) {
        this.rows = List.copyOf(rows);
        this.context = context;
        this.noteBytes = Phase1Prompts.partNoteBytes(rows.size());
    }

    /**
     * Extracts every part in order.
     *
     * @throws ExtractionCalls.Stop when a part's request fails for good
     */
    Extracted extract(ExtractionCalls calls) {
        List<Partial> partials = new ArrayList<>();
        int position = 0;
        int part = 0;
        while (position < rows.size()) {
            int start = position;
            int number = ++part;
            ExtractionCalls.Reply reply = calls.send(bytes -> build(start, number, bytes), overheadBytes());
            if (Stage1Reply.hasOutput(reply.result())) {
                partials.add(new Partial(reply.result(), start + 1, start + reply.taken()));
            }
            position += reply.taken();
        }
        return new Extracted(partials, part);
    }

    /** How many parts the rows take at the first request's budget (for a preview or a log line). */
    int partsAt(long requestBytes) {
        return countParts(0, room(requestBytes));
    }

    private long overheadBytes() {
        return context.overheadBytes() + noteBytes;
    }

    private long room(long requestBytes) {
        return Math.max(1, requestBytes - overheadBytes());
    }

    /** Part {@code number}, from row {@code start}, within {@code requestBytes}. */
    private ExtractionCalls.Built build(int start, int number, long requestBytes) {
        long room = room(requestBytes);
        int end = end(start, room);
        List<Row> part = rows.subList(start, end);
        String text = part.size() == 1 ? Utf8Text.shorten(part.get(0).text(), room)
                : BudgetFitter.fit(part, room).text();
        int parts = number - 1 + countParts(start, room);
        String note = Phase1Prompts.partNote(number, parts, start + 1, end, rows.size());
        return new ExtractionCalls.Built(context.input(note + text), end - start);
    }

    /** The end (exclusive) of the part that starts at {@code start}: as many whole rows as fit, at least one. */
    private int end(int start, long room) {
        long used = rows.get(start).bytes();
        int end = start + 1;
        while (end < rows.size() && used + SEPARATOR_BYTES + rows.get(end).bytes() <= room) {
            used += SEPARATOR_BYTES + rows.get(end).bytes();
            end++;
        }
        return end;
    }

    private int countParts(int start, long room) {
        int parts = 0;
        for (int at = start; at < rows.size(); at = end(at, room)) {
            parts++;
        }
        return parts;
    }
}
