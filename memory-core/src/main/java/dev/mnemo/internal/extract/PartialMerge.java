package dev.mnemo.internal.extract;

import dev.mnemo.spi.Stage1Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Merges the partial memories of a rollout read in parts into its one memory, with the same strict
 * schema. When the partials together do not fit one request, they are merged in rounds: each
 * request takes as many consecutive partials as fit (at least two, each shortened head-and-tail
 * when two whole ones do not fit), and the merged results are merged again until one is left.
 */
final class PartialMerge {

    /** Rounds before a merge that does not converge ends the job; each round at least halves the partials. */
    static final int MAX_ROUNDS = 12;
    private static final String SEPARATOR = "\n\n";

    private final RolloutContext context;

    PartialMerge(RolloutContext context) {
        this.context = context;
    }

    /**
     * The one memory of {@code partials} (in session order); empty when every merge found nothing to keep.
     *
     * @throws ExtractionCalls.Stop when a merge request fails for good
     */
    Optional<Stage1Result> merge(List<RolloutParts.Partial> partials, ExtractionCalls calls) {
        List<RolloutParts.Partial> current = partials;
        for (int round = 1; current.size() > 1; round++) {
            if (round > MAX_ROUNDS) {
                throw new ExtractionCalls.Stop(Phase1Job.Outcome.failed("the partial memories could not be merged in "
                        + MAX_ROUNDS + " rounds", calls.usage()));
            }
            List<RolloutParts.Partial> source = current;
            List<RolloutParts.Partial> next = new ArrayList<>();
            int at = 0;
            while (at < source.size()) {
                if (at == source.size() - 1) {
                    next.add(source.get(at++)); // the last one alone waits for the next round
                    continue;
                }
                int from = at;
                ExtractionCalls.Reply reply = calls.send(bytes -> build(source, from, bytes),
                        context.mergeOverheadBytes());
                if (Stage1Reply.hasOutput(reply.result())) {
                    next.add(new RolloutParts.Partial(reply.result(), source.get(from).firstRow(),
                            source.get(from + reply.taken() - 1).lastRow()));
                }
                at += reply.taken();
            }
            current = next;
        }
        return current.stream().findFirst().map(RolloutParts.Partial::result);
    }

    /** The merge of the partials from {@code from} on that fit {@code requestBytes}: at least two. */
    private ExtractionCalls.Built build(List<RolloutParts.Partial> partials, int from, long requestBytes) {
        long room = Math.max(2, requestBytes - context.mergeOverheadBytes());
        List<String> blocks = new ArrayList<>();
        long used = 0;
        for (int i = from; i < partials.size(); i++) {
            String block = block(partials.get(i));
            long size = Utf8Text.size(block) + (blocks.isEmpty() ? 0 : SEPARATOR.length());
            if (used + size > room && blocks.size() >= 2) {
                break;
            }
            blocks.add(block);
            used += size;
        }
        if (used > room) { // the first two do not fit whole: each gets half the room
            long half = (room - SEPARATOR.length()) / 2;
            blocks = List.of(Utf8Text.shorten(blocks.get(0), half), Utf8Text.shorten(blocks.get(1), half));
        }
        String input = context.mergeInput(blocks.size(), String.join(SEPARATOR, blocks));
        return new ExtractionCalls.Built(input, blocks.size());
    }

    /** One partial memory as the merge request shows it. */
    private static String block(RolloutParts.Partial partial) {
        Stage1Result r = partial.result();
        return "### Rows " + partial.firstRow() + "–" + partial.lastRow() + "\n\nrollout_slug: "
                + r.rolloutSlug().orElse("") + "\n\nrollout_summary:\n" + r.rolloutSummary() + "\n\nraw_memory:\n"
                + r.rawMemory();
    }
}
