package dev.mnemo.internal.extract;

import dev.mnemo.internal.read.AdHocNoteFiles;
import dev.mnemo.spi.ApprovalStore;
import dev.mnemo.spi.Stage1Result;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a note a person rejected out of its conversation's Phase 1 memory: the recording still
 * holds the note (the model's tool call), so an extraction may write it down again. A line of the
 * raw memory or the recap whose {@link AdHocNoteFiles#fingerprint} matches a rejection recorded for
 * the thread is dropped. A reworded repetition is not caught here; with {@code approval = "ask"} it
 * reaches a person again.
 */
final class RejectedNoteLines {

    private static final Logger LOG = LoggerFactory.getLogger(RejectedNoteLines.class);

    private RejectedNoteLines() {
    }

    /** The result without the lines that repeat a note rejected in {@code threadId}. */
    static Stage1Result drop(ApprovalStore store, String threadId, Stage1Result result) {
        try {
            String raw = keep(store, threadId, result.rawMemory());
            String summary = keep(store, threadId, result.rolloutSummary());
            if (raw.equals(result.rawMemory()) && summary.equals(result.rolloutSummary())) {
                return result;
            }
            LOG.info("memory stage-1 output of thread {}: lines repeating a rejected note were dropped", threadId);
            return new Stage1Result(raw, summary, result.rolloutSlug());
        } catch (UnsupportedOperationException e) {
            return result; // the store records no rejections
        }
    }

    private static String keep(ApprovalStore store, String threadId, String text) {
        List<String> kept = new ArrayList<>();
        boolean dropped = false;
        for (String line : text.split("\n", -1)) {
            if (!line.isBlank() && store.isNoteRejected(threadId, AdHocNoteFiles.fingerprint(line))) {
                dropped = true;
            } else {
                kept.add(line);
            }
        }
        return dropped ? String.join("\n", kept).strip() : text;
    }
}
