package dev.mnemo.console;

import dev.mnemo.CitationEntry;
import dev.mnemo.MemoryCitation;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.ThreadLogEntry;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The receipts of answers ({@link MemoryReceipt}, logged per turn under
 * {@link MemoryReceipt#LOG_TARGET} in the conversation's thread log): on a conversation's page,
 * turn by turn, what memory each answer was given, read and cited; on the overview, the share of
 * the last day's answers that were given memory, read it and cited it.
 */
final class ReceiptsPanel {

    /** How many of a conversation's answers its page shows: the newest. */
    static final int TURN_LIMIT = 50;
    /** How many receipts the overview reads for the last day's shares, at most: the newest. */
    static final int DAY_LIMIT = 5_000;
    /** The overview's window. */
    static final Duration DAY = Duration.ofHours(24);
    /** How much of a content hash is shown (the whole one on hover). */
    static final int HASH_CHARS = 12;

    private static final DateTimeFormatter SECOND = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneOffset.UTC);

    private ReceiptsPanel() {}

    /** One logged receipt: when it was logged, and what it says. */
    record Turn(Instant at, MemoryReceipt receipt) {}

    /** The conversation's receipts, turn by turn, newest last; or why there are none. */
    static void conversation(Html html, MemoryEngine engine, String threadId) {
        html.open("section", "class", "panel receipts");
        html.element("h2", "Memory in each answer");
        List<Turn> turns;
        try {
            turns = turns(engine.threadLogs().query(threadId, MemoryReceipt.LOG_TARGET, TURN_LIMIT));
        } catch (UnsupportedOperationException e) {
            html.element("p", "No receipt can be shown: " + e.getMessage() + ".", "class", "muted no-receipts");
            html.close("section");
            return;
        }
        if (turns.isEmpty()) {
            html.element("p", "No answer of this conversation has a receipt yet: none was logged, so nothing says what"
                    + " memory its answers were given, read or cited.", "class", "muted no-receipts");
            html.close("section");
            return;
        }
        html.element("p", "What memory each answer was given (in its instructions), read (with a memory tool) and"
                + " cited, newest last" + (turns.size() == TURN_LIMIT ? "; the newest " + TURN_LIMIT + " answers" : "")
                + ".", "class", "muted");
        for (int i = 0; i < turns.size(); i++) {
            turn(html, engine, i + 1, turns.get(i));
        }
        html.close("section");
    }

    private static List<Turn> turns(List<ThreadLogEntry> entries) {
        List<Turn> turns = new ArrayList<>(entries.size());
        for (ThreadLogEntry entry : entries) {
            MemoryReceipt.fromLogMessage(entry.message()).ifPresent(r -> turns.add(new Turn(entry.ts(), r)));
        }
        return turns;
    }

    private static void turn(Html html, MemoryEngine engine, int number, Turn turn) {
        MemoryReceipt receipt = turn.receipt();
        html.open("article", "class", "receipt");
        html.open("h3").text("Answer " + number + " · ")
                .element("time", SECOND.format(turn.at()) + " UTC", "datetime", turn.at().toString()).close("h3");
        given(html, receipt);
        read(html, receipt);
        cited(html, engine, receipt);
        html.close("article");
    }

    private static void given(Html html, MemoryReceipt receipt) {
        if (!part(html, "given", "Given", receipt.given(), "No memory was in its instructions.")) {
            return;
        }
        tableHead(html, "Scope", "File", "Tokens", "Bytes", "SHA-256");
        for (MemoryReceipt.InjectedFile file : receipt.injected()) {
            html.open("tr");
            html.element("td", file.scope(), "class", "scope");
            html.open("td", "class", "path").link(Urls.of(Layout.MEMORY.route(), "path", file.path()), file.path(),
                    "class", "mono");
            if (!file.kind().isBlank()) {
                html.text(" ").element("span", file.kind(), "class", "badge kind");
            }
            if (file.truncated()) {
                html.text(" ").element("span", "cut", "class", "badge cut", "title", "the summary cap cut this file");
            }
            html.close("td");
            html.element("td", Integer.toString(file.tokens()), "class", "num tokens");
            html.element("td", Long.toString(file.bytes()), "class", "num");
            html.element("td", shortHash(file.sha256()), "class", "mono hash", "title", file.sha256());
            html.close("tr");
        }
        html.close("tbody").close("table").close("div");
    }

    private static void read(Html html, MemoryReceipt receipt) {
        if (!part(html, "read", "Read", receipt.read(), "No memory tool was called.")) {
            return;
        }
        tableHead(html, "Tool", "Path or query", "Bytes returned", "");
        for (MemoryReceipt.ToolRead read : receipt.reads()) {
            html.open("tr", "class", read.failed() ? "failed" : null);
            html.element("td", read.tool(), "class", "mono tool");
            html.element("td", read.target().isEmpty() ? "—" : read.target(), "class", "mono target");
            html.element("td", Long.toString(read.bytesReturned()), "class", "num");
            html.open("td");
            if (read.failed()) {
                html.element("span", "failed", "class", "badge failed bad");
            }
            html.close("td").close("tr");
        }
        html.close("tbody").close("table").close("div");
    }

    private static void cited(Html html, MemoryEngine engine, MemoryReceipt receipt) {
        if (!part(html, "cited", "Cited", receipt.cited(), "The answer cited no memory.")) {
            return;
        }
        html.open("ul", "class", "plain files");
        Set<String> conversations = new LinkedHashSet<>();
        for (MemoryCitation citation : receipt.citations()) {
            for (CitationEntry entry : citation.entries()) {
                html.open("li").link(Urls.of(Layout.MEMORY.route(), "path", entry.path()), entry.path(), "class",
                        "mono").text(" lines " + entry.lineStart() + "–" + entry.lineEnd()).close("li");
            }
            citation.rolloutIds().stream().map(String::strip).filter(id -> !id.isEmpty()).forEach(conversations::add);
        }
        html.close("ul");
        if (!conversations.isEmpty()) {
            html.open("p", "class", "conversations").text("From the conversation" + (conversations.size() == 1 ? "" : "s")
                    + ": ");
            boolean first = true;
            for (String id : conversations) {
                if (!first) {
                    html.text(", ");
                }
                first = false;
                ConversationState.thread(html, engine, id);
            }
            html.close("p");
        }
        html.close("div");
    }

    /**
     * Opens one part of a turn ({@code <div class=kind>} and its heading); when the turn has none of
     * it, says {@code none} and closes it.
     *
     * @return whether the part is open for its content
     */
    private static boolean part(Html html, String kind, String title, boolean any, String none) {
        html.open("div", "class", kind).element("h4", title);
        if (!any) {
            html.element("p", none, "class", "muted none").close("div");
        }
        return any;
    }

    /** Opens a grid table with these column headings, up to its body. */
    private static void tableHead(Html html, String... columns) {
        html.open("table", "class", "grid").open("thead").open("tr");
        for (String column : columns) {
            html.element("th", column);
        }
        html.close("tr").close("thead").open("tbody");
    }

    private static String shortHash(String sha256) {
        return sha256.length() <= HASH_CHARS ? sha256 : sha256.substring(0, HASH_CHARS) + "…";
    }

    /**
     * The last day's answers: how many were logged with a receipt, and how many of them were given
     * memory, read it and cited it.
     *
     * @param capped whether more receipts were logged than {@link #DAY_LIMIT}, the newest of which were counted
     */
    record Shares(int turns, int given, int read, int cited, boolean capped) {

        static Shares of(List<MemoryReceipt> receipts, boolean capped) {
            return new Shares(receipts.size(), (int) receipts.stream().filter(MemoryReceipt::given).count(),
                    (int) receipts.stream().filter(MemoryReceipt::read).count(),
                    (int) receipts.stream().filter(MemoryReceipt::cited).count(), capped);
        }

        /** {@code Answers in the last 24 h: 40 — given memory 95 %, read 30 %, cited 20 %.} */
        String sentence() {
            String head = "Answers in the last 24 h: " + String.format(Locale.ROOT, "%,d", turns)
                    + (capped ? " (the newest; more were logged)" : "");
            if (turns == 0) {
                return head + ": no answer was logged with a receipt.";
            }
            return head + " — given memory " + percent(given) + ", read " + percent(read) + ", cited " + percent(cited)
                    + ".";
        }

        private String percent(int part) {
            return Math.round(100.0 * part / turns) + " %";
        }
    }

    /** The shares of the answers logged in the day before {@code now}; or why they cannot be counted. */
    static void overview(Html html, MemoryEngine engine, Instant now) {
        List<ThreadLogEntry> entries;
        try {
            entries = engine.threadLogs().queryTarget(MemoryReceipt.LOG_TARGET, now.minus(DAY), DAY_LIMIT);
        } catch (UnsupportedOperationException e) {
            html.element("p", "Answers in the last 24 h cannot be counted: " + e.getMessage() + ".", "class",
                    "muted receipt-shares");
            return;
        }
        List<MemoryReceipt> receipts = turns(entries).stream().filter(t -> !t.at().isAfter(now))
                .map(Turn::receipt).toList();
        Shares shares = Shares.of(receipts, entries.size() == DAY_LIMIT);
        html.element("p", shares.sentence(), "class", "receipt-shares", "title", "from the receipt each answer logs in"
                + " its conversation's thread log");
    }
}
