package dev.mnemo.eval;

import dev.mnemo.MemorySession;
import dev.mnemo.SessionContext;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.TokenUsage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One cross-project scenario, end to end, once per {@link ReadPath}, each in a home of its own
 * ({@code users/<id>/scoped/home}, {@code users/<id>/global_only/home}): the same sessions
 * recorded (in their projects, or in none), Phase 1 and Phase 2, then every probe asked (in its
 * project, or in none) and graded for recall and contamination. A scenario whose
 * {@code result.json} exists is not run again.
 */
final class CrossProjectRun {

    /** What the answering model is told of where it works, on both paths (Codex tells it its cwd). */
    static final String WORKING_IN = EvalPrompts.load("probe_working_in.md");

    private final CrossProjectScenario scenario;
    private final LanguageModel model;
    private final ScenarioFolder folder;
    private final Answering answering;

    CrossProjectRun(CrossProjectScenario scenario, LanguageModel model, Path runDir) {
        this.scenario = scenario;
        this.model = model;
        this.folder = new ScenarioFolder(runDir, scenario.id());
        this.answering = new Answering(model, scenario.id());
    }

    CrossProjectOutcome run() {
        Optional<CrossProjectOutcome> earlier = folder.earlierResult(CrossProjectOutcome.class);
        if (earlier.isPresent()) {
            return earlier.get();
        }
        long start = System.nanoTime();
        List<ProjectProbeResult> results = new ArrayList<>();
        Map<ReadPath, CrossProjectOutcome.PathRun> paths = new EnumMap<>(ReadPath.class);
        for (ReadPath path : ReadPath.values()) {
            paths.put(path, run(path, results));
        }
        CrossProjectOutcome outcome = new CrossProjectOutcome(scenario.id(), results, paths,
                Duration.ofNanos(System.nanoTime() - start).toMillis());
        folder.writeResult(outcome);
        return outcome;
    }

    private CrossProjectOutcome.PathRun run(ReadPath path, List<ProjectProbeResult> results) {
        Path homeDir = folder.resolve(path.name().toLowerCase(Locale.ROOT)).resolve("home");
        try (EvalHome home = EvalHome.fresh(homeDir, model)) {
            // 1. The past: each project's sessions, recorded in that project (or, globally, in none).
            for (Script.ProjectSession past : Script.sessions(scenario)) {
                SessionContext session = SessionContext.root(scenario.id() + "-" + past.session().name());
                home.record(in(path, session, past.project()), past.session());
            }
            // 2. Extraction, then consolidation: project memory apart from global memory, or one pile.
            EvalHome.Pipeline pipeline = home.runPipeline();
            // 3. Every probe in its project (or in none), told which project the user is in.
            TokenUsage used = TokenUsage.ZERO;
            for (Script.ProjectProbe probe : Script.probes(scenario)) {
                SessionContext probeSession = in(path, new SessionContext("eval-probe-" + probe.id(), "app", true,
                        false, Optional.empty()), probe.project());
                try (MemorySession session = home.engine().openSession(probeSession)) {
                    Answering.Answer answer = answering.withMemory(session, Answering.BASE_INSTRUCTIONS + "\n\n"
                            + EvalPrompts.fill(WORKING_IN, Map.of("project", probe.project().name())), probe.question());
                    results.add(Grader.grade(scenario.id(), probe, path, answer.text()));
                    used = used.plus(answer.usage());
                }
            }
            return new CrossProjectOutcome.PathRun(pipeline.extracted(), pipeline.phase2().outcome().name(),
                    pipeline.phase1Usage(), pipeline.phase2().usage(), used);
        }
    }

    /** The session in the project on the scoped path; unchanged (no project) on the global-only one. */
    private static SessionContext in(ReadPath path, SessionContext session, CrossProjectScenario.Project project) {
        return path == ReadPath.SCOPED ? session.inProject(project.key()) : session;
    }
}
