package dev.mnemo.internal.extract;

import dev.mnemo.internal.rollout.ResponseItem;
import dev.mnemo.internal.rollout.RolloutLine;
import dev.mnemo.internal.rollout.RolloutReader;
import dev.mnemo.spi.SecretRedactor;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the Phase 1 model input body from a rollout file:
 * <ol>
 *   <li>stream the file line by line; only {@code response_item} lines are considered, and of an
 *       item that is never rendered (reasoning, …) only its type is read;</li>
 *   <li>filter each item (write sheet §4.3) and render it as a labelled text row;</li>
 *   <li>redact each row;</li>
 *   <li>fit the rows to the byte budget (see {@link BudgetFitter}).</li>
 * </ol>
 * A row is shortened to the budget as soon as it is read, so even a very large rollout holds at
 * most its kept rows in memory, each no bigger than the budget. Stateless and thread-safe.
 */
public final class RolloutRenderer {

    private static final Logger LOG = LoggerFactory.getLogger(RolloutRenderer.class);

    /** Longer than the longest text a redaction pattern can match (a PEM block is capped at 64 KiB). */
    static final long REDACTION_MARGIN = 80 * 1024;

    /**
     * Renders {@code rolloutPath}.
     *
     * @param budgetBytes the most UTF-8 bytes the result may have (the caller computes 70 % of the
     *     model's context window at 4 bytes a token)
     * @throws UncheckedIOException when the file cannot be read; the message names it
     * @throws IllegalArgumentException when {@code budgetBytes} is not positive
     */
    public RenderedRollout render(Path rolloutPath, SecretRedactor redactor, long budgetBytes) {
        RolloutRows rows = rows(rolloutPath, redactor, budgetBytes);
        return fit(rolloutPath.toString(), rows, budgetBytes);
    }

    /**
     * Renders the rollout whose bytes {@code in} streams (from a {@link dev.mnemo.spi.SessionStore});
     * {@code name} identifies it in messages. The caller closes {@code in}.
     *
     * @throws UncheckedIOException when the stream cannot be read; the message names the rollout
     */
    public RenderedRollout render(String name, InputStream in, SecretRedactor redactor, long budgetBytes) {
        return fit(name, rows(name, in, redactor, budgetBytes), budgetBytes);
    }

    /** Streams a rollout's lines to a sink (a file or a stream). */
    @FunctionalInterface
    private interface LineSource {
        RolloutReader.ReadStats read(Predicate<RolloutLine.Kind> wantPayload, Consumer<RolloutLine> sink)
                throws IOException;
    }

    /** {@code all} fitted into {@code budgetBytes} ({@link BudgetFitter}), as one extraction request sends it. */
    static RenderedRollout fit(String rolloutName, RolloutRows all, long budgetBytes) {
        BudgetFitter.Fitted fitted = BudgetFitter.fit(all.rows(), budgetBytes);
        boolean truncated = fitted.truncated() || all.shortenedOnRead();
        int kept = all.rows().size() - fitted.rowsDropped();
        int dropped = all.filtered() + fitted.rowsDropped();
        if (truncated) {
            LOG.info("Rendered rollout {}: {} bytes fitted into {} ({} items kept, {} dropped)", rolloutName,
                    all.originalBytes(), budgetBytes, kept, dropped);
        }
        return new RenderedRollout(fitted.text(), all.originalBytes(), truncated, kept, dropped,
                all.malformedLines());
    }

    /**
     * The rows of {@code rolloutPath}, filtered and redacted, each shortened to at most
     * {@code maxRowBytes} but none left out: what chunked extraction splits into parts.
     *
     * @throws UncheckedIOException when the file cannot be read; the message names it
     */
    public RolloutRows rows(Path rolloutPath, SecretRedactor redactor, long maxRowBytes) {
        Objects.requireNonNull(rolloutPath, "rolloutPath");
        return rows(rolloutPath.toString(),
                (want, sink) -> RolloutReader.read(rolloutPath, want, RowRenderer::neverRendered, sink), redactor,
                maxRowBytes);
    }

    /** As {@link #rows(Path, SecretRedactor, long)}, for a rollout a stream holds; the caller closes {@code in}. */
    public RolloutRows rows(String name, InputStream in, SecretRedactor redactor, long maxRowBytes) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(in, "in");
        return rows(name, (want, sink) -> RolloutReader.read(in, name, want, RowRenderer::neverRendered, sink),
                redactor, maxRowBytes);
    }

    private RolloutRows rows(String rolloutName, LineSource lines, SecretRedactor redactor, long maxRowBytes) {
        Objects.requireNonNull(redactor, "redactor");
        if (maxRowBytes <= 0) {
            throw new IllegalArgumentException("budgetBytes must be positive, was " + maxRowBytes);
        }
        Collector collector = new Collector(redactor, maxRowBytes);
        RolloutReader.ReadStats stats;
        try {
            stats = lines.read(kind -> kind == RolloutLine.Kind.RESPONSE_ITEM, collector::accept);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read rollout " + rolloutName + ": " + e.getMessage(), e);
        }
        return new RolloutRows(collector.rows, collector.originalBytes(), collector.shortenedOnRead,
                collector.filtered, stats.malformedLines());
    }

    /** Collects the rendered, redacted rows while the file streams past. */
    private static final class Collector {
        private final SecretRedactor redactor;
        private final long budgetBytes;
        final List<Row> rows = new ArrayList<>();
        int filtered;
        boolean shortenedOnRead;
        private long renderedBytes;

        Collector(SecretRedactor redactor, long budgetBytes) {
            this.redactor = redactor;
            this.budgetBytes = budgetBytes;
        }

        void accept(RolloutLine line) {
            if (line.kind() != RolloutLine.Kind.RESPONSE_ITEM) {
                return;
            }
            ResponseItem item = ResponseItem.parse(line.payload());
            Optional<Row> row = RowRenderer.render(item);
            if (row.isEmpty()) {
                filtered++;
                return;
            }
            String raw = row.get().text();
            long rawSize = row.get().bytes();
            String text;
            if (rawSize > budgetBytes + 2 * REDACTION_MARGIN) {
                // It could never be sent whole: redact only what can survive the cut.
                text = redactEnds(raw, rawSize);
                renderedBytes += rawSize + (rows.isEmpty() ? 0 : 2);
                shortenedOnRead = true;
            } else {
                text = redactor.redact(raw);
                long size = text.equals(raw) ? rawSize : Utf8Text.size(text);
                renderedBytes += size + (rows.isEmpty() ? 0 : 2);
                if (size > budgetBytes) {
                    text = Utf8Text.shorten(text, budgetBytes);
                    shortenedOnRead = true;
                }
            }
            rows.add(text == raw ? row.get() : new Row(row.get().tier(), text));
        }

        /**
         * The row's head and tail, each redacted with a margin wider than any secret pattern
         * reaches, so a secret cut in two at the margin's edge is never among the kept bytes.
         */
        private String redactEnds(String raw, long rawSize) {
            long keep = budgetBytes / 2 + REDACTION_MARGIN;
            String head = redactor.redact(Utf8Text.head(raw, keep));
            String tail = redactor.redact(Utf8Text.tail(raw, keep));
            long room = Math.max(0, budgetBytes - Utf8Text.size(Utf8Text.gapMarker(rawSize)));
            String keptHead = Utf8Text.head(head, room - room / 2);
            String keptTail = Utf8Text.tail(tail, room / 2);
            long omitted = rawSize - Utf8Text.size(keptHead) - Utf8Text.size(keptTail);
            return Utf8Text.shorten(keptHead + Utf8Text.gapMarker(omitted) + keptTail, budgetBytes);
        }

        long originalBytes() {
            return renderedBytes;
        }
    }
}
