package dev.mnemo.console;

import dev.mnemo.Consolidation;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryMode;
import dev.mnemo.ThreadInfo;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Conversations: every registered conversation with its memory mode. Disabling one keeps it from
 * ever becoming memory and forgets what it gave; forgetting deletes it and its memory at once,
 * including from the consolidated files and their history. The page, the confirmation and the
 * result say what a forget does to the other conversations' memories ({@link #FORGET_EFFECT}).
 */
final class ConversationsPage {

    /** What a forget does to the memory folder and to other conversations' memories, in plain words. */
    static final String FORGET_EFFECT = "Its text leaves the memory folder at once: the consolidations that used it,"
            + " and every later one, are dropped from the folder's history, and the files go back to how they were"
            + " before it was first used. The other conversations' memories consolidated since are not lost: they"
            + " stay stored and come back at the next consolidation, which is due at once (Refresh now runs it; it"
            + " needs a model). Until then every session reads the restored, older summary. When its first use is"
            + " older than the kept history (history_retention = 0 keeps none), no older state is free of it: the"
            + " folder is emptied instead, your notes kept, and rebuilt the same way. A memory unused for longer"
            + " than max_unused_days does not come back.";

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
                + " it with its memory and its recording. " + FORGET_EFFECT, "class", "muted forget-effect");
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
            html.element("td", thread.project().map(ProjectNames::shortKey).orElse("—"), "title",
                    thread.project().map(key -> "project " + key).orElse(null));
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
                    "Forget this conversation? Its memory and its recording are deleted. " + FORGET_EFFECT,
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

    /** POST /conversations/forget: deletes it, then says what became of the history and of other memories. */
    Reply forget(Request request) {
        String thread = request.form().require("thread");
        if (engine.threads().get(thread).isEmpty()) {
            request.session().flash(false, "No conversation " + thread + "; nothing changed.");
            return Reply.redirect(Layout.CONVERSATIONS.route());
        }
        List<Consolidation> before = engine.admin().history();
        engine.threads().delete(thread);
        boolean stillHeld = engine.admin().history().stream().anyMatch(c -> c.threadIds().contains(thread));
        request.session().flash(true, forgetResult(thread, before, stillHeld));
        return Reply.redirect(Layout.CONVERSATIONS.route());
    }

    /**
     * What a forget did, from the history before it (newest first): the entries from its first use
     * on are dropped, the folder is back as the entry before them left it, and the other
     * conversations those entries used come back at the next consolidation.
     */
    static String forgetResult(String thread, List<Consolidation> before, boolean stillHeld) {
        String done = "Conversation " + thread + " is forgotten: its memory and its recording are deleted.";
        int firstUse = -1;
        for (int i = 0; i < before.size(); i++) {
            if (before.get(i).threadIds().contains(thread)) {
                firstUse = i;
            }
        }
        if (firstUse < 0) {
            return done + " No consolidation had used it, so the memory folder and its history are unchanged.";
        }
        if (stillHeld) {
            return done + " A consolidation is running now; before it finishes it drops the consolidations that used"
                    + " this conversation, and every later one, and restores the files as they were before its first"
                    + " use. The other conversations' memories come back at the next consolidation.";
        }
        int dropped = firstUse + 1;
        Set<String> others = new TreeSet<>();
        for (int i = 0; i <= firstUse; i++) {
            others.addAll(before.get(i).threadIds());
        }
        others.remove(thread);
        if (firstUse + 1 < before.size()) {
            others.removeAll(before.get(firstUse + 1).threadIds());
        }
        String restored = firstUse + 1 < before.size()
                ? "as consolidation " + before.get(firstUse + 1).id() + " left them (" + Times.format(before.get(firstUse + 1).at()) + ")"
                : "to an empty memory folder (no consolidation before it is kept)";
        String text = done + " Its text has left the memory folder: " + dropped + " consolidation"
                + (dropped == 1 ? "" : "s") + " (the ones that used it and every later one) "
                + (dropped == 1 ? "was" : "were") + " dropped from the history and the files are restored " + restored
                + ".";
        if (others.isEmpty()) {
            return text + " No other conversation's memory was in the dropped consolidations.";
        }
        return text + " The memories of " + others.size() + " other conversation" + (others.size() == 1 ? "" : "s")
                + " (" + String.join(", ", others) + ") are kept and come back at the next consolidation, which is due"
                + " now (Refresh now runs it); until then sessions read the restored summary.";
    }
}
