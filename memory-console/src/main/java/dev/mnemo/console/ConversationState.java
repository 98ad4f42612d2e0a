package dev.mnemo.console;

import dev.mnemo.AgentGraph;
import dev.mnemo.MemoryEngine;
import dev.mnemo.SpawnEdgeStatus;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.ThreadLogs;
import java.time.format.DateTimeFormatter;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What the engine's state layer knows of one conversation, for its page: where it sits in the spawn
 * graph (the thread that spawned it, the sub-agents it spawned) and its thread log entries, the
 * engine's own account of why it was or was not remembered. Also the overview's line on lost log
 * entries.
 */
final class ConversationState {

    /** How many of a conversation's log entries its page shows: the newest. */
    static final int LOG_LIMIT = 200;

    /** Log times to the second: entries of one run are often seconds apart. */
    private static final DateTimeFormatter SECOND = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneOffset.UTC);

    private ConversationState() {}

    /**
     * The thread that spawned {@code threadId} and those it spawned, as links to their pages (an id
     * without a thread row, such as an ephemeral sub-agent's, as text); nothing when it has neither.
     */
    static void spawnGraph(Html html, MemoryEngine engine, String threadId) {
        AgentGraph graph = engine.agentGraph();
        Optional<String> parent = graph.parent(threadId);
        List<String> children = graph.children(threadId, Optional.empty());
        if (parent.isEmpty() && children.isEmpty()) {
            return;
        }
        List<String> open = graph.children(threadId, Optional.of(SpawnEdgeStatus.OPEN));
        html.open("section", "class", "panel spawn");
        html.element("h2", "Sub-agents");
        html.open("dl", "class", "facts");
        if (parent.isPresent()) {
            html.element("dt", "Spawned by");
            html.open("dd");
            thread(html, engine, parent.get());
            html.close("dd");
        }
        if (!children.isEmpty()) {
            html.element("dt", "Spawned");
            html.open("dd").open("ul", "class", "plain children");
            for (String child : children) {
                html.open("li");
                thread(html, engine, child);
                html.text(" (" + (open.contains(child) ? "open" : "closed") + ")");
                html.close("li");
            }
            html.close("ul").close("dd");
        }
        html.close("dl").close("section");
    }

    /** A link to the thread's page, or its id as text when it has no thread row (asked per id shown). */
    static void thread(Html html, MemoryEngine engine, String id) {
        if (engine.threads().get(id).isPresent()) {
            html.link(Urls.of(Layout.PROVENANCE.route(), "thread", id), id, "class", "mono");
        } else {
            html.element("span", id, "class", "mono").text(" (no thread row)");
        }
    }

    /** The conversation's newest {@value #LOG_LIMIT} log entries, newest last; or why there are none. */
    static void logs(Html html, MemoryEngine engine, String threadId) {
        html.open("section", "class", "panel logs");
        html.element("h2", "Log");
        List<ThreadLogEntry> entries;
        try {
            entries = engine.threadLogs().query(threadId, LOG_LIMIT);
        } catch (UnsupportedOperationException e) {
            html.element("p", sentence(e.getMessage()), "class", "muted no-logs");
            html.close("section");
            return;
        }
        if (entries.isEmpty()) {
            html.element("p", "Nothing is logged for this conversation yet.", "class", "muted");
        } else {
            if (entries.size() == LOG_LIMIT) {
                html.element("p", "The newest " + LOG_LIMIT + " entries; `mnemo logs --thread ID` shows more.",
                        "class", "muted");
            }
            html.open("table", "class", "grid logs").open("thead").open("tr");
            for (String column : List.of("Time (UTC)", "Level", "Target", "Message")) {
                html.element("th", column);
            }
            html.close("tr").close("thead").open("tbody");
            for (ThreadLogEntry entry : entries) {
                html.open("tr", "class", "level-" + entry.level().toLowerCase(Locale.ROOT));
                html.element("td", SECOND.format(entry.ts()), "class", "mono");
                html.element("td", entry.level());
                html.element("td", entry.target(), "class", "mono");
                html.element("td", entry.message(), "class", "message");
                html.close("tr");
            }
            html.close("tbody").close("table");
        }
        html.close("section");
    }

    /**
     * One sentence on lost log entries: how many this engine dropped, and the newest loss any
     * process reported ({@link ThreadLogs#newestLossReport()}); or that none were lost, or why no log is kept.
     */
    record Losses(String sentence, boolean any) {}

    static Losses losses(MemoryEngine engine) {
        ThreadLogs logs;
        try {
            logs = engine.threadLogs();
        } catch (UnsupportedOperationException e) {
            return new Losses(sentence(e.getMessage()), false);
        }
        long dropped = logs.dropped();
        Optional<ThreadLogEntry> reported = logs.newestLossReport();
        if (dropped == 0 && reported.isEmpty()) {
            return new Losses("No thread log entry was lost.", false);
        }
        return new Losses(dropped + " thread log entr" + (dropped == 1 ? "y" : "ies") + " lost by this console's"
                + " engine" + reported.map(r -> "; newest loss reported " + Times.format(r.ts()) + ": " + r.message())
                        .orElse("; no loss reported in the log") + ".", true);
    }

    /** The engine's reason as a sentence: {@code this engine keeps no thread logs: …} → {@code This engine …}. */
    private static String sentence(String reason) {
        if (reason == null || reason.isBlank()) {
            return "This engine keeps no thread logs.";
        }
        String text = Character.toUpperCase(reason.charAt(0)) + reason.substring(1);
        return text.endsWith(".") ? text : text + ".";
    }
}
