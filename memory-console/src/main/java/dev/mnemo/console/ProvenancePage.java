package dev.mnemo.console;

import dev.mnemo.MemoryEngine;
import dev.mnemo.ThreadInfo;
import dev.mnemo.ThreadMemory;
import dev.mnemo.TranscriptLine;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Provenance: for each stored memory (a rollout summary and its raw memory), the conversation it
 * came from — date, project, the redacted transcript — and how often answers cited it and when last.
 * A conversation's page also shows its sub-agents and its log ({@link ConversationState}), what memory
 * each of its answers was given, read and cited ({@link ReceiptsPanel}), and, while its memory waits
 * for a consolidation that cannot run, why ({@link ConsolidationBlock}).
 */
final class ProvenancePage {

    /** How much of a conversation's first message the list shows. */
    static final int PREVIEW_CHARS = 140;

    private final MemoryEngine engine;
    private final Layout layout;
    private final Clock clock;

    ProvenancePage(MemoryEngine engine, Layout layout, Clock clock) {
        this.engine = engine;
        this.layout = layout;
        this.clock = clock;
    }

    Reply render(Request request) {
        Optional<String> thread = request.query().get("thread");
        if (thread.isPresent()) {
            return conversation(request, thread.get());
        }
        Html html = new Html();
        html.element("p", "Every stored memory is one conversation's: what Phase 1 extracted from it (the raw memory)"
                + " and its recap (the rollout summary Phase 2 reads). Open one to see the conversation itself.",
                "class", "muted");
        html.open("table", "class", "grid memories").open("thead").open("tr");
        for (String column : List.of("Conversation", "Project", "Extracted", "Cited", "Last cited", "State")) {
            html.element("th", column);
        }
        html.close("tr").close("thead").open("tbody");
        int rows = 0;
        List<ThreadInfo> threads = engine.threads().list();
        // One pass over the stored memories, not one lookup (and approval-queue read) per conversation.
        Map<String, ThreadMemory> memories = engine.admin().memories(threads.stream().map(ThreadInfo::id).toList());
        for (ThreadInfo info : threads) {
            ThreadMemory m = memories.get(info.id());
            if (m == null) {
                continue;
            }
            rows++;
            html.open("tr");
            html.open("td").link(Urls.of(Layout.PROVENANCE.route(), "thread", info.id()), preview(info),
                    "class", "provenance").element("div", info.id(), "class", "mono small").close("td");
            html.element("td", m.project().map(ProjectNames::shortKey).orElse("—"), "title",
                    m.project().map(key -> "project " + key).orElse(null));
            html.element("td", Times.format(m.generatedAt()));
            html.element("td", Integer.toString(m.usageCount()), "class", "num");
            html.element("td", m.lastUsage().map(Times::format).orElse("never"));
            html.element("td", state(m));
            html.close("tr");
        }
        html.close("tbody").close("table");
        if (rows == 0) {
            html.element("p", "No memory is stored yet: Phase 1 has not extracted any conversation.", "class", "muted");
        }
        return layout.page(request, Layout.PROVENANCE, "Provenance", html.fragment());
    }

    private Reply conversation(Request request, String threadId) {
        Optional<ThreadInfo> info = engine.threads().get(threadId);
        Optional<ThreadMemory> memory = engine.admin().memory(threadId);
        if (info.isEmpty() && memory.isEmpty()) {
            throw HttpProblem.notFound("no conversation " + threadId + " (forgotten, or never recorded)");
        }
        Html html = new Html();
        html.open("section", "class", "panel");
        html.element("h2", "Conversation");
        html.open("dl", "class", "facts");
        fact(html, "Id", threadId);
        info.ifPresent(i -> {
            fact(html, "Started", Times.withDistance(i.createdAt(), clock.instant()));
            fact(html, "Last message", Times.withDistance(i.updatedAt(), clock.instant()));
            fact(html, "Project", i.project().orElse("none (global memory)"));
            fact(html, "Source", i.source());
            i.cwd().map(Path::toString).ifPresent(cwd -> fact(html, "Folder", cwd));
            i.gitBranch().ifPresent(branch -> fact(html, "Branch", branch));
            fact(html, "Memory mode", i.memoryMode().dbValue());
        });
        html.close("dl");
        html.link(Layout.CONVERSATIONS.route() + "#" + anchor(threadId), "Disable or forget it on the Conversations page");
        html.close("section");
        memory.ifPresentOrElse(m -> memory(html, m), () -> html.element("p",
                "Nothing is stored from this conversation (not extracted yet, disabled, or rejected).", "class", "muted"));
        ConversationState.spawnGraph(html, engine, threadId);
        transcript(html, engine.admin().transcript(threadId));
        ReceiptsPanel.conversation(html, engine, threadId);
        ConversationState.logs(html, engine, threadId);
        return layout.page(request, Layout.PROVENANCE, "Provenance of " + info.map(ProvenancePage::preview)
                .orElse(threadId), html.fragment());
    }

    private void memory(Html html, ThreadMemory m) {
        html.open("section", "class", "panel");
        html.element("h2", "What was remembered");
        html.open("dl", "class", "facts");
        fact(html, "Extracted", Times.withDistance(m.generatedAt(), clock.instant()));
        fact(html, "From the conversation as of", Times.format(m.sourceUpdatedAt()));
        fact(html, "Cited", m.usageCount() + " time" + (m.usageCount() == 1 ? "" : "s")
                + m.lastUsage().map(at -> ", last " + Times.withDistance(at, clock.instant())).orElse(""));
        fact(html, "State", state(m));
        html.close("dl");
        if (!m.awaitingApproval() && !m.inLastConsolidation()) {
            ConsolidationBlock.why(engine.admin().status(), clock.instant()).ifPresent(why -> html.element("p",
                    "This memory waits for a consolidation, which cannot run now. " + why, "class",
                    "consolidation-blocked bad"));
        }
        html.element("h3", "Rollout summary");
        html.append(MarkdownView.render(m.rolloutSummary(), Optional.empty()));
        html.element("h3", "Raw memory");
        html.append(MarkdownView.render(m.rawMemory(), Optional.empty()));
        html.close("section");
    }

    private static void transcript(Html html, List<TranscriptLine> lines) {
        html.open("section", "class", "panel transcript");
        html.element("h2", "Transcript (redacted)");
        if (lines.isEmpty()) {
            html.element("p", "The conversation's recording cannot be found (deleted, or kept elsewhere).", "class",
                    "muted");
        }
        for (TranscriptLine line : lines) {
            html.open("div", "class", "message role-" + line.role().replace('_', '-'));
            html.open("div", "class", "meta").element("span", line.role().replace('_', ' '), "class", "role")
                    .element("time", Times.format(line.at()), "datetime", line.at().toString()).close("div");
            html.element("div", line.text(), "class", "text");
            html.close("div");
        }
        html.close("section");
    }

    private static void fact(Html html, String name, String value) {
        html.element("dt", name).element("dd", value);
    }

    static String state(ThreadMemory m) {
        if (m.awaitingApproval()) {
            return "awaiting approval";
        }
        return m.inLastConsolidation() ? "in the last consolidation" : "not consolidated yet";
    }

    /** A conversation's first message, cut to {@value #PREVIEW_CHARS} characters; its id when it has none. */
    static String preview(ThreadInfo info) {
        String text = info.preview().strip();
        if (text.isEmpty()) {
            return info.id();
        }
        return text.length() <= PREVIEW_CHARS ? text : text.substring(0, PREVIEW_CHARS - 1) + "…";
    }

    /** The HTML id of a conversation's row: its id's hash, since an id may hold any character. */
    static String anchor(String threadId) {
        return "c-" + Integer.toHexString(threadId.hashCode());
    }
}
