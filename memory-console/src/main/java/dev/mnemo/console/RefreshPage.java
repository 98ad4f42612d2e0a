package dev.mnemo.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryStatus;
import dev.mnemo.Phase2Report;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * Refresh now: runs Phase 1 on the idle conversations and Phase 2 at once, past the success
 * cooldown and any retry backoff but never past a running job's lease. While it runs, the page
 * shows its progress (the console's script polls {@code /refresh/status}); then what it did.
 */
final class RefreshPage {

    static final String STATUS_ROUTE = "/refresh/status";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final MemoryEngine engine;
    private final Refresh refresh;
    private final Layout layout;
    private final Clock clock;

    RefreshPage(MemoryEngine engine, Refresh refresh, Layout layout, Clock clock) {
        this.engine = engine;
        this.refresh = refresh;
        this.layout = layout;
        this.clock = clock;
    }

    Reply render(Request request) {
        Refresh.State state = refresh.state();
        Html html = new Html();
        html.element("p", "Extracts every idle conversation that may be extracted, then consolidates at once: past"
                + " the six-hour cooldown and any retry backoff, never past a consolidation that is running.",
                "class", "muted");
        Optional<String> missing = refresh.missing();
        if (missing.isPresent() && !state.running()) {
            html.element("p", missing.get(), "class", "flash failed missing-model", "role", "status");
            html.open("p").element("button", "Refresh now", "type", "button", "class", "primary refresh", "disabled", "")
                    .close("p");
        } else if (state.running()) {
            html.open("div", "id", "refresh-progress", "class", "progress panel", "data-status", STATUS_ROUTE,
                    "role", "status", "aria-live", "polite");
            html.element("span", "", "class", "spinner", "aria-hidden", "true");
            html.element("span", progress(state), "class", "progress-text");
            html.close("div");
        } else {
            if (!engine.admin().canExtract()) {
                html.element("p", "This engine has no extraction model: Refresh now consolidates what is stored and"
                        + " extracts no conversation.", "class", "muted no-extraction");
            }
            html.postButton("/refresh/start", request.session().csrf(), "Refresh now", "primary refresh", null);
        }
        state.last().ifPresent(last -> lastRun(html, last));
        return layout.page(request, Layout.REFRESH, "Refresh now", html.fragment());
    }

    private static void lastRun(Html html, Refresh.Finished last) {
        html.open("section", "class", "panel last-refresh");
        html.element("h2", "Last refresh");
        html.open("dl", "class", "facts");
        html.element("dt", "Finished").element("dd", Times.format(last.finishedAt()) + " after "
                + Times.span(last.took()).replace("now", "under a second"));
        if (last.failure().isEmpty()) {
            html.element("dt", "Extraction (Phase 1)").element("dd", last.extraction().describe(), "class", "extraction");
        }
        if (last.report().isPresent()) {
            Phase2Report report = last.report().get();
            html.element("dt", "Consolidation (Phase 2)").element("dd", outcome(report), "class", "outcome");
            html.element("dt", "Memories in it").element("dd", Integer.toString(report.inputs()));
            html.element("dt", "Tokens (consolidation)").element("dd", String.format(Locale.ROOT,
                    "%,d in, %,d out", report.usage().inputTokens(), report.usage().outputTokens()));
            report.failure().ifPresent(failure -> html.element("dt", "Failure").element("dd", failure, "class", "mono"));
        }
        last.failure().ifPresent(failure -> html.element("dt", "Could not run").element("dd", failure, "class", "bad"));
        html.close("dl").close("section");
    }

    private static String outcome(Phase2Report report) {
        return switch (report.outcome()) {
            case SUCCEEDED -> "succeeded: the memory folder is updated";
            case NO_WORKSPACE_CHANGES -> "nothing new to consolidate";
            case SKIPPED_RUNNING -> "skipped: another consolidation is running";
            case SKIPPED_COOLDOWN -> "skipped: cooldown";
            case SKIPPED_RETRY_BACKOFF -> "skipped: retry backoff";
            case NOT_RUN -> "not run (no model configured, or generation is off)";
            case FAILED -> "failed";
        };
    }

    /** What runs now, in one line: how long, and which jobs hold leases. */
    private String progress(Refresh.State state) {
        Duration running = Duration.between(state.runningSince().orElseThrow(), clock.instant());
        StringJoiner line = new StringJoiner(" · ");
        line.add("Refreshing for " + Times.span(running).replace("now", "a moment"));
        MemoryStatus status = engine.admin().status();
        long extracting = status.runningLeases().stream().filter(l -> !l.kind().equals(OverviewPage.CONSOLIDATION_JOB))
                .count();
        boolean consolidating = status.runningLeases().stream()
                .anyMatch(l -> l.kind().equals(OverviewPage.CONSOLIDATION_JOB));
        if (extracting > 0) {
            line.add("Phase 1: extracting " + extracting + " conversation" + (extracting == 1 ? "" : "s"));
        }
        if (consolidating) {
            line.add("Phase 2: consolidating");
        }
        return line.toString();
    }

    /** POST /refresh: starts nothing, and says what is missing, when the engine has no model. */
    Reply start(Request request) {
        Optional<String> missing = refresh.missing();
        if (missing.isPresent()) {
            request.session().flash(false, "Nothing was started: this engine has no model (see below).");
            return Reply.redirect(Layout.REFRESH.route());
        }
        boolean started = refresh.start();
        request.session().flash(started, started ? "Refresh started." : "A refresh is already running.");
        return Reply.redirect(Layout.REFRESH.route());
    }

    /** GET /refresh/status: {@code {"running": true, "text": "..."}} for the page's script. */
    Reply status(Request request) {
        Refresh.State state = refresh.state();
        ObjectNode json = JSON.createObjectNode().put("running", state.running());
        if (state.running()) {
            json.put("text", progress(state));
        }
        try {
            return Reply.json(JSON.writeValueAsString(json));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the refresh status", e);
        }
    }
}
