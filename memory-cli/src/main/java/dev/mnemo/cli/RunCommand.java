package dev.mnemo.cli;

import dev.mnemo.MemoryEngine;
import dev.mnemo.Phase1Preview;
import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.Phase2Report;
import dev.mnemo.SessionContext;
import dev.mnemo.StartupReport;
import dev.mnemo.llm.LanguageModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/**
 * {@code mnemo run}: the startup pipeline in the foreground, or a dry run of Phase 1. Exits 1 when a
 * phase failed (an extraction failed, or Phase 2 ended {@code FAILED}); 0 when every phase succeeded
 * or was skipped for a documented reason (nothing to do, cooldown, backoff, another process running).
 */
@Command(name = "run", description = "Run the memory pipeline now (sync threads, prune, Phase 1, Phase 2).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every phase succeeded or was skipped for a documented reason",
                "1:a phase failed (an extraction, or the consolidation)", "2:bad usage, or no model configured"})
final class RunCommand implements Callable<Integer> {

    @ParentCommand
    MnemoCli root;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--phase1-only", description = "Sync threads and run only Phase 1 (extraction).")
    boolean phase1Only;

    @Option(names = "--phase2-only", description = "Run only Phase 2 (consolidation).")
    boolean phase2Only;

    @Option(names = "--codex-sessions", paramLabel = "PATH",
            description = "Also read Codex CLI's sessions folder (e.g. ~/.codex/sessions), read-only. Repeatable.")
    List<Path> codexSessions = new ArrayList<>();

    @Option(names = "--as-of", paramLabel = "INSTANT",
            description = "Decide eligibility (idle and age windows, leases, backoffs) as of this time (ISO-8601,"
                    + " e.g. 2025-09-26T12:00:00Z). History and elapsed times keep the real time.")
    String asOf;

    @Option(names = "--dry-run", description = "No model calls, no writes but the thread registry: show what"
            + " Phase 1 would claim, why not the others, and its first request.")
    boolean dryRun;

    @Option(names = "--full-request", description = "With --dry-run: print the request's conversation whole.")
    boolean fullRequest;

    @Option(names = "--json", description = "With --dry-run: print the preview as JSON.")
    boolean json;

    @Override
    public Integer call() {
        if (phase1Only && phase2Only) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--phase1-only and --phase2-only exclude each other");
        }
        for (Path dir : codexSessions) {
            if (!Files.isDirectory(dir)) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--codex-sessions " + dir + " is not a folder");
            }
        }
        Optional<Instant> at = parseAsOf();
        Path home = root.resolveHome();
        if (dryRun) {
            dryRun(root, new HomeEngines.EngineOptions(home, root.model().orElse(null), at, codexSessions, null, null),
                    fullRequest, json);
            return 0;
        }
        LanguageModel model = root.requireModel("run");
        ProgressPrinter progress = new ProgressPrinter(root.out(), root.quiet);
        at.ifPresent(progress::pipelineClock);
        try (MemoryEngine engine = HomeEngines.openEngine(new HomeEngines.EngineOptions(home, model, at, codexSessions,
                ModelOptions.namingModel(root.configuredModelName()), progress))) {
            return exitCode(root, run(engine, progress, phase1Only, phase2Only));
        }
    }

    /** Runs the whole startup task, or one phase, printing progress and a summary; the failures, if any. */
    static List<String> run(MemoryEngine engine, ProgressPrinter progress, boolean phase1Only, boolean phase2Only) {
        if (phase1Only) {
            progress.threadsSynced(engine.admin().syncThreads());
            Phase1Report phase1 = engine.admin().runPhase1(MnemoCli.CLI_THREAD_ID);
            progress.summary(phase1);
            return failures(phase1, null);
        }
        if (phase2Only) {
            Phase2Report phase2 = engine.admin().runPhase2();
            progress.summary(phase2, engine);
            return failures(null, phase2);
        }
        StartupReport report = engine.startStartupTask(SessionContext.root(MnemoCli.CLI_THREAD_ID)).completion().join();
        progress.summary(report, engine);
        return failures(report.phase1(), report.phase2());
    }

    /** 1 when a phase failed (said on stderr), else 0. */
    static int exitCode(MnemoCli root, List<String> failures) {
        if (failures.isEmpty()) {
            return 0;
        }
        root.err().println("mnemo run: " + String.join("; ", failures));
        root.err().flush();
        return CommandLine.ExitCode.SOFTWARE;
    }

    private static List<String> failures(Phase1Report phase1, Phase2Report phase2) {
        List<String> failures = new ArrayList<>();
        if (phase1 != null && phase1.failed() > 0) {
            failures.add("Phase 1 failed for " + phase1.failed() + " of " + phase1.claimed() + " rollout(s)"
                    + " (the reasons are above; a later run retries them)");
        }
        if (phase2 != null && phase2.outcome() == Phase2Outcome.FAILED) {
            failures.add("Phase 2 failed: " + phase2.failure().orElse("no reason recorded")
                    + " (see docs/operations.md for what each reason means)");
        }
        return failures;
    }

    /** Syncs the thread registry and prints what Phase 1 would do. */
    static void dryRun(MnemoCli root, HomeEngines.EngineOptions options, boolean fullRequest, boolean json) {
        try (MemoryEngine engine = HomeEngines.openEngine(options)) {
            int synced = engine.admin().syncThreads();
            Phase1Preview preview = engine.admin().previewPhase1(MnemoCli.CLI_THREAD_ID);
            if (json) {
                JsonOut.print(root.out(), DryRunReport.toJson(preview, synced));
            } else {
                DryRunReport.print(root.out(), preview, synced, fullRequest);
            }
        }
    }

    private Optional<Instant> parseAsOf() {
        if (asOf == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(asOf));
        } catch (DateTimeParseException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--as-of '" + asOf
                    + "' is not an ISO-8601 instant such as 2025-09-26T12:00:00Z");
        }
    }
}
