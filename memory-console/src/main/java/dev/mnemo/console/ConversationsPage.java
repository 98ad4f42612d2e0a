package dev.mnemo.console;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryMode;
import dev.mnemo.ThreadInfo;
import java.time.Clock;
import java.util.List;

/**
 * Conversations: every registered conversation with its memory mode. Disabling one keeps it from
 * ever becoming memory and forgets what it gave; forgetting deletes it and its memory at once,
 * including from the consolidated files and their history.
 */
final class ConversationsPage {

    private final MemoryEngine engine;
    private final Layout layout;
    private final Clock clock;

    ConversationsPage(MemoryEngine engine, Layout layout, Clock clock) {
        this.engine = engine;
        this.layout = layout;
        this.clock = clock;
    }

    Reply render(Request request) {
        List<ThreadInfo> threads = engine.threads().list();
        Html html = new Html();
        html.element("p", "Disable keeps a conversation from becoming memory and forgets what it gave. Forget deletes"
                + " it with its memory and its recording; the memory folder drops it at once.", "class", "muted");
        if (threads.isEmpty()) {
            html.element("p", "No conversation is registered yet.", "class", "muted");
        } else {
            table(html, threads, request.session().csrf());
        }
        return layout.page(request, Layout.CONVERSATIONS, "Conversations", html.fragment());
    }

    private void table(Html html, List<ThreadInfo> threads, String csrf) {
        html.open("table", "class", "grid conversations").open("thead").open("tr");
        for (String column : List.of("Conversation", "Project", "Last message", "Source", "Memory", "")) {
            html.element("th", column);
        }
        html.close("tr").close("thead").open("tbody");
        for (ThreadInfo thread : threads) {
            html.open("tr", "id", ProvenancePage.anchor(thread.id()), "data-thread", thread.id());
            html.open("td").link(Urls.of(Layout.PROVENANCE.route(), "thread", thread.id()),
                    ProvenancePage.preview(thread)).element("div", thread.id(), "class", "mono small").close("td");
            html.element("td", thread.project().orElse("—"));
            html.element("td", Times.withDistance(thread.updatedAt(), clock.instant()));
            html.element("td", thread.source());
            html.open("td").element("span", thread.memoryMode().dbValue(), "class",
                    "badge mode-" + thread.memoryMode().dbValue()).close("td");
            html.open("td", "class", "actions");
            if (thread.memoryMode() == MemoryMode.ENABLED) {
                html.postButton("/conversations/disable", csrf, "Disable", "secondary disable", null, "thread",
                        thread.id());
            } else if (thread.memoryMode() == MemoryMode.DISABLED) {
                html.postButton("/conversations/enable", csrf, "Enable", "secondary enable", null, "thread", thread.id());
            }
            html.postButton("/conversations/forget", csrf, "Forget", "danger forget",
                    "Forget this conversation? Its memory and recording are deleted, and the memory folder drops it.",
                    "thread", thread.id());
            html.close("td").close("tr");
        }
        html.close("tbody").close("table");
    }

    /** POST /conversations/disable. */
    Reply disable(Request request) {
        return setMode(request, MemoryMode.DISABLED, "disabled: it never becomes memory, and what it gave is forgotten");
    }

    /** POST /conversations/enable. */
    Reply enable(Request request) {
        return setMode(request, MemoryMode.ENABLED, "enabled: the next run may extract it");
    }

    private Reply setMode(Request request, MemoryMode mode, String done) {
        String thread = request.form().require("thread");
        if (engine.threads().get(thread).isEmpty()) {
            request.session().flash(false, "No conversation " + thread + "; nothing changed.");
        } else {
            engine.threads().setMemoryMode(thread, mode);
            request.session().flash(true, "Conversation " + thread + " " + done + ".");
        }
        return Reply.redirect(Layout.CONVERSATIONS.route());
    }

    /** POST /conversations/forget. */
    Reply forget(Request request) {
        String thread = request.form().require("thread");
        if (engine.threads().get(thread).isEmpty()) {
            request.session().flash(false, "No conversation " + thread + "; nothing changed.");
        } else {
            engine.threads().delete(thread);
            request.session().flash(true, "Conversation " + thread + " is forgotten: its memory, its recording and"
                    + " the consolidations that used it are gone.");
        }
        return Reply.redirect(Layout.CONVERSATIONS.route());
    }
}
