package dev.mnemo.cli;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.Phase1Preview;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.ThreadLogs;
import dev.mnemo.spi.ThreadLogQuery;
import dev.mnemo.spi.ThreadLogStore;
import dev.mnemo.store.sqlite.SqliteThreadLogStore;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code mnemo logs}: the thread logs of a home ({@code <home>/logs.sqlite}), oldest first, read
 * without opening an engine: why a conversation was or was not remembered. With
 * {@code --postgres URL --tenant ID}, a tenant's, read through its engine (which fails with the
 * reason while memory-postgres keeps no thread logs).
 */
@Command(name = "logs", description = "Show Mnemo's own events per thread (<home>/logs.sqlite), oldest first.")
final class LogsCommand implements Callable<Integer> {

    @ParentCommand
    MnemoCli root;

    @Option(names = "--thread", paramLabel = "ID",
            description = "Only this thread's entries (pseudo-threads: mnemo:startup, mnemo:phase1, mnemo:phase2, "
                    + "mnemo:logs).")
    String thread;

    @Option(names = "--since", paramLabel = "WHEN",
            description = "Only entries since WHEN: a duration back from now (30m, 2h, 3d, or ISO PT2H) or an "
                    + "ISO instant (2026-06-01T12:00:00Z).")
    String since;

    @Option(names = "--level", paramLabel = "LEVEL",
            description = "Only LEVEL and more severe: TRACE, DEBUG, INFO, WARN or ERROR.")
    String level;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "200",
            description = "The newest N entries (default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Mixin
    TenantOption tenantOption;

    private final Clock clock;

    LogsCommand() {
        this(Clock.systemUTC());
    }

    LogsCommand(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Integer call() {
        if (limit < 1) {
            throw new MnemoCli.UsageProblem("--limit must be a whole number of at least 1, was " + limit);
        }
        Set<String> levels;
        try {
            levels = level == null ? Set.of() : ThreadLogQuery.atLeast(level);
        } catch (IllegalArgumentException e) {
            throw new MnemoCli.UsageProblem("--level must be TRACE, DEBUG, INFO, WARN or ERROR (any letter case),"
                    + " was '" + level + "'");
        }
        ThreadLogQuery query = new ThreadLogQuery(Optional.ofNullable(thread), Optional.ofNullable(since)
                .map(this::parseSince), levels, limit);
        List<ThreadLogEntry> entries = tenantOption.given() ? fromTenant(query) : fromHome(query);
        PrintWriter out = root.out();
        if (json) {
            JsonOut.print(out, entries.stream().map(LogsCommand::jsonEntry).toList());
        } else {
            if (entries.isEmpty()) {
                out.println("no log entries match");
            }
            for (ThreadLogEntry e : entries) {
                out.printf("%s %-5s %-38s %-14s %s%n", e.ts(), e.level(), e.threadId(), e.target(), shown(e));
            }
            if (thread != null && !ThreadLogs.PSEUDO_THREADS.contains(thread)) {
                out.println("now: " + phase1Verdict(thread));
            }
        }
        out.flush();
        return 0;
    }

    /**
     * An entry's message as a person reads it: a turn's receipt as its sentence ("memory given: …;
     * read: …; cited: …"), without the JSON the console reads; any other message as written.
     */
    static String shown(ThreadLogEntry entry) {
        return receipt(entry).map(r -> entry.message().substring(0, entry.message().indexOf(RECEIPT_JSON)))
                .orElse(entry.message());
    }

    /** Where a receipt's JSON starts in its message, after the sentence ({@link MemoryReceipt#toLogMessage()}). */
    private static final String RECEIPT_JSON = " | {";

    /** The receipt an entry logged, if it is a turn's receipt. */
    private static Optional<MemoryReceipt> receipt(ThreadLogEntry entry) {
        return MemoryReceipt.LOG_TARGET.equals(entry.target()) ? MemoryReceipt.fromLogMessage(entry.message())
                : Optional.empty();
    }

    /** One entry for {@code --json}; a turn's receipt also as an object under {@code receipt}. */
    private static java.util.Map<String, Object> jsonEntry(ThreadLogEntry e) {
        java.util.Map<String, Object> object = JsonOut.object("thread_id", e.threadId(), "ts", e.ts().toString(),
                "level", e.level(), "target", e.target(), "message", shown(e));
        receipt(e).ifPresent(r -> object.put("receipt", r));
        return object;
    }

    /**
     * What Phase 1 would do with the thread now, and why ({@link dev.mnemo.MemoryAdmin#previewPhase1}):
     * the rest of the answer to "why was this conversation not remembered", which the entries give
     * only for what already happened.
     */
    private String phase1Verdict(String threadId) {
        try (TenantOption.OpenEngine opened = tenantOption.openReadOnly(root)) {
            Phase1Preview preview = opened.engine().admin().previewPhase1(MnemoCli.CLI_THREAD_ID);
            return preview.candidates().stream().filter(c -> c.thread().id().equals(threadId)).findFirst()
                    .map(c -> (c.verdict() == Phase1Preview.Verdict.WOULD_CLAIM ? "phase 1 would extract it"
                            : "phase 1 would not extract it (" + c.verdict().name().toLowerCase(Locale.ROOT) + ")")
                            + (c.detail().isBlank() ? "" : ": " + c.detail()))
                    .orElse("no registered thread has this id (deleted, or never recorded)");
        } catch (RuntimeException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    /**
     * Reads {@code <home>/logs.sqlite} itself, read-only, without opening an engine (which may be
     * running elsewhere): nothing is created, migrated or aged out.
     */
    private List<ThreadLogEntry> fromHome(ThreadLogQuery query) {
        Path home = root.resolveHome();
        Path file = home.resolve(SqliteThreadLogStore.FILE_NAME);
        if (!Files.exists(file)) {
            throw new MnemoCli.Failure("no thread logs in " + home + " (" + file.getFileName()
                    + " is written by an engine that ran there)");
        }
        try (SqliteThreadLogStore store = SqliteThreadLogStore.openReadOnly(file)) {
            return store.query(query);
        }
    }

    /** A tenant's logs, read from its store as {@link #fromHome} reads the file; a store that keeps none fails. */
    private List<ThreadLogEntry> fromTenant(ThreadLogQuery query) {
        return tenantOption.readStore(root, store -> store.threadLogs()
                .orElseThrow(() -> new MnemoCli.Failure("no thread logs for " + tenantOption.label() + ": its store "
                        + "keeps none"))
                .query(query));
    }

    /** A duration back from now ({@code 30m}, {@code 2h}, {@code 3d}, {@code PT2H}) or an ISO instant. */
    Instant parseSince(String text) {
        String value = text.strip();
        try {
            if (value.matches("\\d+[smhd]")) {
                long amount = Long.parseLong(value.substring(0, value.length() - 1));
                Duration back = switch (value.charAt(value.length() - 1)) {
                    case 's' -> Duration.ofSeconds(amount);
                    case 'm' -> Duration.ofMinutes(amount);
                    case 'h' -> Duration.ofHours(amount);
                    default -> Duration.ofDays(amount);
                };
                return clock.instant().minus(back);
            }
            if (value.toUpperCase(Locale.ROOT).startsWith("P")) {
                return clock.instant().minus(Duration.parse(value));
            }
            return Instant.parse(value);
        } catch (DateTimeException | ArithmeticException | NumberFormatException e) {
            throw new MnemoCli.UsageProblem("--since must be a duration back from now (30m, 2h, 3d, or ISO PT2H) or an"
                    + " ISO instant (2026-06-01T12:00:00Z), was '" + text + "'");
        }
    }
}
