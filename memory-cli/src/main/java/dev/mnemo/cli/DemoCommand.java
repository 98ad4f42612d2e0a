package dev.mnemo.cli;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.ThreadInfo;
import dev.mnemo.llm.LanguageModel;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code mnemo demo}: registers the real Codex sessions bundled in the jar in a demo home and
 * runs the pipeline as of a time at which they are eligible: for real with a model, else as a
 * dry run that shows what would be sent.
 */
@Command(name = "demo", description = "Run the pipeline on real sample sessions bundled in the jar"
        + " (home: --home, else ~/.mnemo-demo). Without a model: a dry run.")
final class DemoCommand implements Callable<Integer> {

    /** How long after the idle window the demo's clock is set, so every sample is clearly idle. */
    static final Duration MARGIN = Duration.ofHours(1);

    @ParentCommand
    MnemoCli root;

    @Option(names = "--full-request", description = "In a dry run, print the request's conversation whole.")
    boolean fullRequest;

    @Override
    public Integer call() {
        PrintWriter out = root.out();
        Path home = root.demoHome();
        Optional<LanguageModel> model = root.model();
        // 1. The sessions, into the home's own sessions folder.
        List<Path> copied = DemoSessions.install(home);
        out.println("Demo home: " + home);
        out.println("Sample sessions: " + DemoSessions.FILES.size() + " real Codex rollouts (" + copied.size()
                + " copied now) under " + home.resolve("sessions")
                + "; MIT licence and attribution in sessions/DEMO-SESSIONS-README.md");
        // 2. Register them and pick the time at which they are all idle and young enough.
        MemoriesConfig config = HomeEngines.loadConfig(home);
        UnaryOperator<MemoriesConfig> tweak = DemoCommand::widen;
        Instant asOf;
        int registered;
        try (MemoryEngine engine = HomeEngines.openEngine(new HomeEngines.EngineOptions(home, null, Optional.empty(),
                List.of(), tweak, null))) {
            registered = engine.admin().syncThreads();
            asOf = asOf(engine, widen(config));
        }
        out.println("Thread registry: " + registered + " row(s) added or changed");
        out.println("Pipeline clock: " + asOf + " (the last sample's update + min_rollout_idle_hours + "
                + MARGIN.toHours() + " h), max_rollouts_per_startup >= " + DemoSessions.FILES.size());
        out.println();
        // 3. Run for real, or show the dry run.
        if (model.isEmpty()) {
            out.println("No model is configured, so this is a dry run: nothing is sent anywhere.");
            out.println(MnemoCli.MODEL_HELP);
            out.println("Then run the demo again to extract and consolidate these sessions for real.");
            out.println();
            RunCommand.dryRun(root, new HomeEngines.EngineOptions(home, null, Optional.of(asOf), List.of(), tweak, null),
                    fullRequest, false);
            return 0;
        }
        ProgressPrinter progress = new ProgressPrinter(out, root.quiet);
        progress.pipelineClock(asOf);
        List<String> failures;
        try (MemoryEngine engine = HomeEngines.openEngine(new HomeEngines.EngineOptions(home, model.get(), Optional.of(asOf),
                List.of(), tweak.andThen(ModelOptions.namingModel(root.configuredModelName()))::apply, progress))) {
            failures = RunCommand.run(engine, progress, false, false);
        }
        out.println();
        String mnemo = Installation.launchCommand() + " --home " + home;
        out.println("See what an agent would be told:  " + mnemo + " instructions");
        out.println("Browse the memory folder:         " + mnemo + " ls");
        out.flush();
        return RunCommand.exitCode(root, failures);
    }

    /** The demo's settings: the home's, with room for all samples and their source. */
    static MemoriesConfig widen(MemoriesConfig config) {
        List<String> sources = new ArrayList<>(config.memorySources());
        if (!sources.contains("vscode")) {
            sources.add("vscode");
        }
        return config.toBuilder()
                .maxRolloutsPerStartup(Math.max(config.maxRolloutsPerStartup(), DemoSessions.FILES.size()))
                .maxRolloutAgeDays(Math.max(config.maxRolloutAgeDays(), 3))
                .memorySources(sources)
                .build();
    }

    private static Instant asOf(MemoryEngine engine, MemoriesConfig config) {
        Instant last = Instant.EPOCH;
        for (String file : DemoSessions.FILES) {
            ThreadInfo thread = engine.threads().get(DemoSessions.threadId(file)).orElseThrow(() ->
                    new IllegalStateException("the demo session " + file + " was not registered; run with -v to see why"));
            last = thread.updatedAt().isAfter(last) ? thread.updatedAt() : last;
        }
        return last.plus(Duration.ofHours(config.minRolloutIdleHours())).plus(MARGIN);
    }
}
