package dev.mnemo.cli;

import dev.mnemo.Consolidation;
import dev.mnemo.DeadJob;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryMode;
import dev.mnemo.MemoryStatus;
import dev.mnemo.ModelFailure;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.ThreadLogs;
import dev.mnemo.store.sqlite.SqliteMemoryStoreProvider;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code mnemo status}: jobs, running leases, the last consolidation and its failure, threads per
 * mode, and lost thread log entries.
 */
@Command(name = "status", description = "Show the pipeline's state: jobs, leases, last consolidation, threads.")
final class StatusCommand implements Callable<Integer> {

    @ParentCommand
    MnemoCli root;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    @Override
    public Integer call() {
        Path home = root.resolveHome();
        if (Files.isDirectory(home) && !Files.exists(home.resolve(SqliteMemoryStoreProvider.DATABASE_FILE_NAME))) {
            reportWithoutState(home);
            return 0;
        }
        try (MemoryEngine engine = root.openReadOnlyEngine()) {
            MemoryStatus status = engine.admin().status();
            List<Consolidation> history = engine.admin().history();
            Optional<Consolidation> newest = history.isEmpty() ? Optional.empty() : Optional.of(history.get(0));
            MemoriesConfig config = engine.config();
            LogLosses losses = LogLosses.of(engine);
            List<DeadJob> dead = firstDeadJobs(engine);
            if (json) {
                Map<String, Object> report = toJson(root, status, newest, config);
                report.put("thread_log_losses", losses.toJson());
                report.put("dead_jobs", JsonOut.object("count", status.deadJobs(),
                        "first", dead.stream().map(JobsCommand::toJson).toList()));
                JsonOut.print(root.out(), report);
            } else {
                print(root.out(), root, status, newest, config);
                printDeadJobs(root.out(), status.deadJobs(), dead);
                root.out().println("Lost log entries:    " + losses.describe());
                root.out().flush();
            }
        }
        return 0;
    }

    /** How many dead jobs the status lists by name; {@code mnemo jobs} lists them all. */
    static final int DEAD_JOBS_SHOWN = 3;

    /** The first few dead Phase 1 jobs; none when the store cannot list them. */
    private static List<DeadJob> firstDeadJobs(MemoryEngine engine) {
        try {
            List<DeadJob> dead = engine.admin().deadJobs();
            return dead.subList(0, Math.min(DEAD_JOBS_SHOWN, dead.size()));
        } catch (UnsupportedOperationException e) {
            return List.of();
        }
    }

    private static void printDeadJobs(PrintWriter out, int count, List<DeadJob> first) {
        if (count == 0) {
            out.println("Dead jobs:           none");
            return;
        }
        out.println("Dead jobs:           " + count + " (every retry failed; `mnemo jobs` lists them, `mnemo jobs retry"
                + " --dead` puts them back)");
        for (DeadJob job : first) {
            out.println("  " + JobsCommand.line(job));
        }
    }

    /**
     * A home with memory files but no state (seeded by hand, or copied without its database): what is
     * there and that no pipeline has run, without opening the engine, which would create the state.
     */
    private void reportWithoutState(Path home) {
        HomeEngines.loadConfig(home); // a broken config.toml fails, and an out-of-range value is logged, as always
        Map<String, Object> files = memoryFiles(home.resolve("memories"));
        if (json) {
            JsonOut.print(root.out(), JsonOut.object("home", home.toString(), "state", null, "memory_files", files));
            return;
        }
        PrintWriter out = root.out();
        out.println("Home:                " + home);
        out.println("State:               none (no " + SqliteMemoryStoreProvider.DATABASE_FILE_NAME
                + ": no pipeline has run here; `mnemo run` or an agent creates it)");
        out.println("Memory files:" + (files.isEmpty() ? "        none" : ""));
        for (Map.Entry<String, Object> file : files.entrySet()) {
            out.printf("  %-27s %s%n", file.getKey(), file.getValue());
        }
        out.flush();
    }

    /** The memory folder's top level: a file's size in bytes, a folder's count of files ("N files"). */
    private static Map<String, Object> memoryFiles(Path memories) {
        Map<String, Object> files = new TreeMap<>();
        if (!Files.isDirectory(memories, LinkOption.NOFOLLOW_LINKS)) {
            return files;
        }
        try (Stream<Path> entries = Files.list(memories)) {
            for (Path entry : (Iterable<Path>) entries::iterator) {
                String name = entry.getFileName().toString();
                if (name.startsWith(".")) {
                    continue;
                }
                if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
                    try (Stream<Path> all = Files.walk(entry)) {
                        files.put(name + "/", all.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                                .count() + " files");
                    }
                } else if (Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
                    files.put(name, Files.size(entry) + " bytes");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + memories, e);
        }
        return files;
    }

    private static Map<String, Object> toJson(MnemoCli root, MemoryStatus s, Optional<Consolidation> newest,
            MemoriesConfig config) {
        return JsonOut.object(
                "home", root.resolveHome().toString(),
                "jobs", new TreeMap<>(s.jobCounts()),
                "running", s.runningLeases().stream().map(l -> JsonOut.object("kind", l.kind(), "job_key", l.jobKey(),
                        "worker_id", l.workerId(), "lease_until", l.leaseUntil().toString())).toList(),
                "last_consolidation", s.lastPhase2Success().map(Object::toString).orElse(null),
                "last_consolidation_failure", s.lastPhase2Failure().orElse(null),
                "pending_forgets", s.pendingForgets(),
                "threads", s.threadCounts().entrySet().stream()
                        .collect(Collectors.toMap(e -> e.getKey().dbValue(), Map.Entry::getValue, (a, b) -> a, TreeMap::new)),
                "stage1_memories", s.stage1Outputs(),
                "unused_memories", s.unusedMemories().isPresent() ? s.unusedMemories().getAsInt() : null,
                "max_unused_days", config.maxUnusedDays(),
                "consolidation_not_before", s.phase2NotBefore().map(Object::toString).orElse(null),
                "last_history_entry", newest.map(c -> JsonOut.object("id", c.id(), "at", c.at().toString(),
                        "model", c.model())).orElse(null),
                "last_startup_skip", s.lastStartupSkip().map(Enum::name).orElse(null),
                "extraction_budget", s.extractionBudget().map(b -> JsonOut.object("day", b.day().toString(),
                        "spent_tokens", b.spentTokens(), "limit_tokens", b.limitTokens(), "exhausted", b.exhausted(),
                        "resets_at", b.resetsAt().toString())).orElse(null),
                "model_failing", s.lastModelFailure().map(f -> JsonOut.object("reason", f.reason().name(),
                        "message", f.message(), "at", f.at().toString())).orElse(null),
                "checked_at", s.checkedAt().toString());
    }

    /**
     * Thread log entries lost (queue full or failed write), which Codex loses silently: how many this
     * process's engine dropped, and the newest loss any process reported under the pseudo-thread
     * {@link ThreadLogs#LOSSES_THREAD}; or why the engine keeps no logs.
     */
    record LogLosses(Optional<String> notKept, long droppedHere, Optional<ThreadLogEntry> newestReport) {

        static LogLosses of(MemoryEngine engine) {
            ThreadLogs logs;
            try {
                logs = engine.threadLogs();
            } catch (UnsupportedOperationException e) {
                return new LogLosses(Optional.of(e.getMessage()), 0, Optional.empty());
            }
            return new LogLosses(Optional.empty(), logs.dropped(), logs.newestLossReport());
        }

        String describe() {
            if (notKept.isPresent()) {
                return "unknown (" + notKept.get() + ")";
            }
            if (droppedHere == 0 && newestReport.isEmpty()) {
                return "none";
            }
            return droppedHere + " by this process; " + (newestReport.isEmpty() ? "no loss reported in the logs"
                    : "newest loss reported " + newestReport.get().ts() + ": " + newestReport.get().message());
        }

        Map<String, Object> toJson() {
            return JsonOut.object("not_kept", notKept.orElse(null), "dropped_by_this_process", droppedHere,
                    "newest_report", newestReport.map(r -> JsonOut.object("ts", r.ts().toString(),
                            "message", r.message())).orElse(null));
        }
    }

    /**
     * The plain-text report. Written with loops and ifs rather than streams and lambdas: each lambda
     * costs its first run a generated class, and this runs once per cold JVM.
     */
    private static void print(PrintWriter out, MnemoCli root, MemoryStatus s, Optional<Consolidation> newest,
            MemoriesConfig config) {
        out.println("Home:                " + root.resolveHome());
        StringJoiner threads = new StringJoiner(", ");
        for (MemoryMode mode : MemoryMode.values()) {
            threads.add(mode.dbValue() + " " + s.threadCounts().getOrDefault(mode, 0));
        }
        out.println("Threads:             " + threads);
        out.println("Stage-1 memories:    " + s.stage1Outputs());
        if (s.unusedMemories().isPresent() && s.unusedMemories().getAsInt() > 0) {
            out.println("                     " + s.unusedMemories().getAsInt() + " stored memories are not selected"
                    + " for consolidation: unused for more than max_unused_days (" + config.maxUnusedDays()
                    + " days); `mnemo run` prunes those no consolidation uses");
        }
        out.println("Jobs:");
        if (s.jobCounts().isEmpty()) {
            out.println("  none yet");
        }
        for (Map.Entry<String, Map<String, Integer>> kind : new TreeMap<>(s.jobCounts()).entrySet()) {
            StringJoiner counts = new StringJoiner(", ");
            for (Map.Entry<String, Integer> count : new TreeMap<>(kind.getValue()).entrySet()) {
                counts.add(count.getKey() + " " + count.getValue());
            }
            out.printf("  %-27s %s%n", kind.getKey(), counts);
        }
        out.println("Running:");
        if (s.runningLeases().isEmpty()) {
            out.println("  nothing");
        }
        for (MemoryStatus.Lease l : s.runningLeases()) {
            out.printf("  %-27s %-38s owner %s, lease until %s%n", l.kind(), l.jobKey(), l.workerId(), l.leaseUntil());
        }
        out.println("Last consolidation:  " + (s.lastPhase2Success().isPresent()
                ? s.lastPhase2Success().get() + " (pipeline clock: the real time unless `run --as-of` set it)"
                : "never"));
        if (newest.isPresent()) {
            Consolidation c = newest.get();
            out.println("Last history entry:  " + c.id() + " at " + c.at() + " (real time)");
        }
        if (s.phase2NotBefore().isPresent()) {
            out.println("Next consolidation:  not before " + s.phase2NotBefore().get()
                    + (s.lastPhase2Failure().isPresent() ? " (backoff after a failure)" : " (cooldown after a success)"));
        }
        if (!s.pendingForgets().isEmpty()) {
            out.println("Forget pending:      " + String.join(", ", s.pendingForgets())
                    + " (their text leaves the memory folder as soon as the consolidation lock is free)");
        }
        Optional<String> forgetRun = s.lastPhase2Failure().filter(f -> s.lastPhase2RealFailure().isEmpty());
        if (forgetRun.isPresent()) {
            out.println("Re-consolidation:    due now, after a forget (" + forgetRun.get() + ")");
        }
        out.println("Last failure:        " + s.lastPhase2RealFailure().orElse("none"));
        if (s.lastStartupSkip().isPresent()) {
            out.println("Last startup skip:   " + s.lastStartupSkip().get().code());
        }
        if (s.extractionBudget().isPresent()) {
            out.println("Extraction budget:   " + s.extractionBudget().get().describe()
                    + " (max_extraction_tokens_per_day)");
        }
        if (s.lastModelFailure().isPresent()) {
            ModelFailure f = s.lastModelFailure().get();
            out.println("Model failing:       " + f.reason() + " since " + f.at()
                    + " (no extraction has succeeded since; rollouts keep their retries): " + f.message());
        }
        out.flush();
    }
}
