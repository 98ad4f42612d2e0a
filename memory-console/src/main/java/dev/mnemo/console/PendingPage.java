package dev.mnemo.console;

import dev.mnemo.Approval;
import dev.mnemo.MemoryEngine;
import dev.mnemo.PendingMemory;
import java.time.Clock;
import java.util.List;
import java.util.Optional;

/**
 * Pending: with {@code approval = "ask"}, the extracted memories and notes that wait for a
 * decision, each with its scope (global, or the project's name with its folder on hover), approve
 * and reject. An approved memory is consolidated by the next run
 * (Refresh now runs it at once); a rejected one is forgotten as deleting forgets.
 */
final class PendingPage {

    private final MemoryEngine engine;
    private final Layout layout;
    private final Clock clock;

    PendingPage(MemoryEngine engine, Layout layout, Clock clock) {
        this.engine = engine;
        this.layout = layout;
        this.clock = clock;
    }

    Reply render(Request request) {
        Html html = new Html();
        if (engine.config().approval() == Approval.AUTO) {
            html.element("p", "Approval is auto: memories and notes apply as soon as they are made, so nothing waits"
                    + " here. Set approval = \"ask\" under [memories] in config.toml to decide on each first.",
                    "class", "muted");
        }
        List<PendingMemory> pending = engine.admin().pending();
        ProjectNames projects = ProjectNames.of(engine);
        if (pending.isEmpty()) {
            html.element("p", "Nothing is waiting for a decision.", "class", "muted");
        }
        html.open("ol", "class", "pending");
        for (PendingMemory memory : pending) {
            html.open("li", "class", "panel pending-item", "data-pending", memory.id());
            html.open("div", "class", "entry-head");
            html.element("span", PendingMemory.NOTE.equals(memory.kind()) ? "note" : "extracted memory", "class",
                    "badge kind-" + memory.kind());
            html.element("span", memory.projectSlug().map(slug -> "project " + projects.name(slug)).orElse("global"),
                    "class", "badge scope", "title", memory.projectSlug().map(projects::title)
                            .orElse("global memory: every session reads it"));
            html.element("time", Times.withDistance(memory.createdAt(), clock.instant()), "datetime",
                    memory.createdAt().toString());
            if (!memory.threadId().isEmpty()) {
                html.link(Urls.of(Layout.PROVENANCE.route(), "thread", memory.threadId()), memory.threadId(),
                        "class", "mono small");
            }
            html.open("span", "class", "actions");
            html.postButton("/pending/approve", request.session().csrf(), "Approve", "primary approve", null, "id",
                    memory.id());
            html.postButton("/pending/reject", request.session().csrf(), "Reject", "danger reject",
                    "Reject it? It is forgotten as a deleted conversation is.", "id", memory.id());
            html.close("span");
            html.close("div");
            html.append(MarkdownView.render(memory.text(), Optional.empty()));
            html.close("li");
        }
        html.close("ol");
        return layout.page(request, Layout.PENDING, "Pending", html.fragment());
    }

    /** POST /pending/approve. */
    Reply approve(Request request) {
        return decide(request, true);
    }

    /** POST /pending/reject. */
    Reply reject(Request request) {
        return decide(request, false);
    }

    private Reply decide(Request request, boolean approve) {
        String id = request.form().require("id");
        try {
            if (approve) {
                engine.admin().approve(id);
                request.session().flash(true, "Approved " + id + ": the next consolidation folds it in (Refresh now"
                        + " runs it at once).");
            } else {
                engine.admin().reject(id);
                request.session().flash(true, "Rejected " + id + ": it is forgotten.");
            }
        } catch (IllegalArgumentException e) {
            request.session().flash(false, "Nothing pending has id " + id + "; nothing changed.");
        }
        return Reply.redirect(Layout.PENDING.route());
    }
}
