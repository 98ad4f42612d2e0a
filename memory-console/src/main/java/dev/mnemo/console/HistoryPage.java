package dev.mnemo.console;

import dev.mnemo.Consolidation;
import dev.mnemo.MemoryEngine;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * History: the consolidations kept in the memory folder's history as a timeline, newest first, the
 * chosen one with its diff, each with a button that rolls the folder back to it (a new entry;
 * nothing is lost).
 */
final class HistoryPage {

    private final MemoryEngine engine;
    private final Layout layout;
    private final Clock clock;

    HistoryPage(MemoryEngine engine, Layout layout, Clock clock) {
        this.engine = engine;
        this.layout = layout;
        this.clock = clock;
    }

    Reply render(Request request) {
        List<Consolidation> history = engine.admin().history();
        Optional<String> chosen = request.query().get("id");
        if (chosen.isPresent() && history.stream().noneMatch(c -> c.id().equals(chosen.get()))) {
            throw HttpProblem.notFound("no consolidation " + chosen.get() + " is kept in the history");
        }
        String open = chosen.orElse(history.isEmpty() ? null : history.get(0).id());
        Html html = new Html();
        if (history.isEmpty()) {
            html.element("p", "No consolidation yet: the memory folder has no history.", "class", "muted");
        }
        html.open("ol", "class", "timeline");
        for (int i = 0; i < history.size(); i++) {
            Consolidation c = history.get(i);
            html.open("li", "class", c.id().equals(open) ? "entry open" : "entry", "id", "entry-" + i);
            html.open("div", "class", "entry-head");
            html.element("time", Times.withDistance(c.at(), clock.instant()), "datetime", c.at().toString());
            html.link(Urls.of(Layout.HISTORY.route(), "id", c.id()), c.id(), "class", "mono");
            html.element("span", c.inputs() + " memor" + (c.inputs() == 1 ? "y" : "ies")
                    + (c.model().isEmpty() ? "" : " · " + c.model()) + (i == 0 ? " · current" : ""), "class", "muted");
            if (i > 0) {
                html.postButton("/history/rollback", request.session().csrf(), "Roll back to this", "danger rollback",
                        "Restore the memory folder as this consolidation left it? (A new history entry; nothing is lost.)",
                        "id", c.id());
            }
            html.close("div");
            if (!c.threadIds().isEmpty()) {
                html.open("p", "class", "small").text("From: ");
                for (int t = 0; t < c.threadIds().size(); t++) {
                    String thread = c.threadIds().get(t);
                    html.text(t == 0 ? "" : ", ").link(Urls.of(Layout.PROVENANCE.route(), "thread", thread), thread,
                            "class", "mono");
                }
                html.close("p");
            }
            if (c.id().equals(open)) {
                diff(html, c.id());
            }
            html.close("li");
        }
        html.close("ol");
        return layout.page(request, Layout.HISTORY, "History", html.fragment());
    }

    private void diff(Html html, String id) {
        String diff;
        try {
            diff = engine.admin().consolidationDiff(id);
        } catch (UnsupportedOperationException e) {
            html.element("p", "This engine cannot show diffs: " + e.getMessage(), "class", "muted");
            return;
        }
        if (diff.isBlank()) {
            html.element("p", "This consolidation changed no file.", "class", "muted");
            return;
        }
        html.open("pre", "class", "diff");
        for (String line : diff.split("\n", -1)) {
            html.element("span", line, "class", lineClass(line)).text("\n");
        }
        html.close("pre");
    }

    private static String lineClass(String line) {
        if (line.startsWith("+++") || line.startsWith("---") || line.startsWith("diff ")) {
            return "file";
        }
        if (line.startsWith("@@")) {
            return "hunk";
        }
        if (line.startsWith("+")) {
            return "add";
        }
        return line.startsWith("-") ? "del" : "ctx";
    }

    /** POST /history/rollback: restores the folder as consolidation {@code id} left it. */
    Reply rollback(Request request) {
        String id = request.form().require("id");
        if (engine.admin().history().stream().noneMatch(c -> c.id().equals(id))) {
            request.session().flash(false, "No consolidation " + id + " is kept in the history; nothing changed.");
            return Reply.redirect(Layout.HISTORY.route());
        }
        engine.admin().rollback(id);
        request.session().flash(true, "The memory folder is restored as consolidation " + id
                + " left it (a new history entry).");
        return Reply.redirect(Layout.HISTORY.route());
    }
}
