package dev.mnemo.cli;

import dev.mnemo.Phase1Preview;
import dev.mnemo.Phase1Preview.Candidate;
import dev.mnemo.Phase1Preview.FirstRequest;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import java.io.PrintWriter;
import java.util.Map;

/**
 * Prints a {@link Phase1Preview}: one line per thread with its verdict, then the exact first
 * extraction request. The conversation in that request is shown head and tail unless the full
 * request is asked for; {@code --json} always prints it whole.
 */
final class DryRunReport {

    /** Characters of the rollout message shown from its start and its end when not printed whole. */
    static final int HEAD_CHARS = 3_000;
    static final int TAIL_CHARS = 1_500;

    private DryRunReport() {}

    static void print(PrintWriter out, Phase1Preview preview, int synced, boolean fullRequest) {
        out.println("Dry run as of " + preview.asOf() + ": no model calls, nothing written but the thread registry ("
                + synced + " thread row(s) added or changed).");
        out.println();
        out.printf("Threads (%d), most recently updated first; %d would be claimed:%n", preview.candidates().size(),
                preview.wouldClaim().size());
        for (Candidate c : preview.candidates()) {
            out.printf("  %-18s %-38s %-7s %-24s %s%n", c.verdict(), c.thread().id(), c.thread().source(),
                    c.thread().updatedAt(), c.detail());
        }
        out.println();
        if (preview.firstRequest().isEmpty()) {
            out.println("No thread would be claimed, so Phase 1 would send no request.");
            out.flush();
            return;
        }
        FirstRequest first = preview.firstRequest().get();
        ModelRequest request = first.request();
        out.printf("Phase 1 request for thread %s (rollout fitted to %d bytes: %d bytes after filtering and redaction,"
                        + " %s; %d item(s) kept, %d dropped):%n", first.threadId(), first.budgetBytes(),
                first.renderedBytes(), first.truncated() ? "shortened to fit" : "sent whole", first.itemsKept(),
                first.itemsDropped());
        out.println("=== model: " + (request.model().isEmpty() ? "(the client's model)" : request.model())
                + "; reasoning effort: " + request.reasoningEffort() + "; metadata: " + request.metadata());
        request.outputSchema().ifPresent(schema -> out.println("=== output schema " + schema.name()
                + (schema.strict() ? " (strict)" : "") + ": " + schema.jsonSchema()));
        out.println("=== instructions (" + request.instructions().length() + " chars):");
        out.println(request.instructions());
        for (ModelMessage message : request.messages()) {
            out.println("=== " + message.role() + " message (" + message.text().length() + " chars):");
            out.println(fullRequest ? message.text() : abbreviate(message.text()));
        }
        out.println("=== end of request");
        out.flush();
    }

    static Map<String, Object> toJson(Phase1Preview preview, int synced) {
        return JsonOut.object(
                "as_of", preview.asOf().toString(),
                "threads_synced", synced,
                "candidates", preview.candidates().stream().map(c -> JsonOut.object("thread_id", c.thread().id(),
                        "verdict", c.verdict().name(), "detail", c.detail(), "source", c.thread().source(),
                        "updated_at", c.thread().updatedAt().toString(),
                        "rollout_path", c.thread().rolloutPath().toString())).toList(),
                "first_request", preview.firstRequest().map(DryRunReport::requestJson).orElse(null));
    }

    private static Map<String, Object> requestJson(FirstRequest first) {
        ModelRequest r = first.request();
        return JsonOut.object(
                "thread_id", first.threadId(),
                "budget_bytes", first.budgetBytes(),
                "rendered_bytes", first.renderedBytes(),
                "truncated", first.truncated(),
                "model", r.model(),
                "reasoning_effort", r.reasoningEffort().name(),
                "metadata", r.metadata(),
                "output_schema", r.outputSchema().map(s -> JsonOut.object("name", s.name(), "strict", s.strict(),
                        "schema", s.jsonSchema())).orElse(null),
                "instructions", r.instructions(),
                "messages", r.messages().stream().map(m -> JsonOut.object("role", m.role().name(), "text", m.text()))
                        .toList());
    }

    private static String abbreviate(String text) {
        if (text.length() <= HEAD_CHARS + TAIL_CHARS + 200) {
            return text;
        }
        int omitted = text.length() - HEAD_CHARS - TAIL_CHARS;
        return text.substring(0, HEAD_CHARS) + "\n\n[… " + omitted + " characters not shown here; add --full-request"
                + " (or --json) to print the request whole …]\n\n" + text.substring(text.length() - TAIL_CHARS);
    }
}
