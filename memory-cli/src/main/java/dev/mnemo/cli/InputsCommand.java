package dev.mnemo.cli;

import dev.mnemo.HistoryEntry;
import dev.mnemo.MemoryEngine;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code mnemo inputs}: the message history ({@code <home>/history.jsonl}), newest last, optionally
 * only the messages containing a text. With {@code --postgres URL --tenant ID}, a tenant's, which
 * fails with the reason while memory-postgres keeps no message history.
 */
@Command(name = "inputs", description = "List or search the message history (the user messages of recorded sessions).")
final class InputsCommand implements Callable<Integer> {

    @picocli.CommandLine.ParentCommand
    MnemoCli root;

    @Option(names = "--search", paramLabel = "TEXT", description = "Only messages containing TEXT (ignoring case).")
    String search;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "20",
            description = "At most N messages, the newest (default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Mixin
    TenantOption tenantOption;

    @Override
    public Integer call() {
        if (limit < 1) {
            throw new MnemoCli.UsageProblem("--limit must be at least 1, was " + limit);
        }
        try (TenantOption.OpenEngine opened = tenantOption.openReadOnly(root)) {
            List<HistoryEntry> entries = read(opened.engine());
            PrintWriter out = root.out();
            if (json) {
                JsonOut.print(out, entries.stream().map(e -> JsonOut.object("session_id", e.sessionId(), "ts", e.ts(),
                        "text", e.text(), "offset", e.offset())).toList());
            } else {
                if (entries.isEmpty()) {
                    out.println(search == null ? "no messages in the history" : "no message contains \"" + search + "\"");
                }
                for (HistoryEntry e : entries) {
                    out.printf("%-20s %-38s %s%n", Instant.ofEpochSecond(e.ts()), e.sessionId(), oneLine(e.text()));
                }
            }
            out.flush();
        }
        return 0;
    }

    /** The messages asked for; an engine that keeps no message history fails, saying why. */
    private List<HistoryEntry> read(MemoryEngine engine) {
        try {
            return search == null ? engine.messageHistory().recent(limit) : engine.messageHistory().search(search, limit);
        } catch (UnsupportedOperationException e) {
            throw new MnemoCli.Failure("no message history to show: " + e.getMessage());
        }
    }

    private static String oneLine(String text) {
        String line = text.replaceAll("\\s+", " ").strip();
        return line.length() <= 100 ? line : line.substring(0, 99) + "…";
    }
}
