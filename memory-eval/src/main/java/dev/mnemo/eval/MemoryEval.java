package dev.mnemo.eval;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.TokenUsage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Measures how good the memory is with a given model: each scenario user's past sessions go
 * through Phase 1 and Phase 2 with that model, then probe questions are answered by the same model
 * with Mnemo, with no memory, and with the raw transcripts pasted, and graded deterministically.
 * Each cross-project scenario is played twice, scoped to its projects and with one global memory
 * (as Codex keeps it), and the report sets the two contamination rates side by side.
 *
 * <pre>{@code
 * EvalReport report = MemoryEval.builder()
 *         .model(OpenAiLanguageModel.fromEnvironment(), "gpt-4.1-mini")
 *         .runDirectory(Path.of("eval-runs/gpt-4.1-mini"))
 *         .limit(5)
 *         .build()
 *         .run();     // also writes report.json, report.md and recall-vs-tokens.svg
 * }</pre>
 *
 * <p>The run directory keeps every model request and answer ({@code model-log.jsonl}) and each
 * user's result: running again with the same directory resumes where a run stopped and asks the
 * model nothing it already answered. It also records which model and scenario set made them
 * ({@code run.json}): a run of another model, other model settings or another scenario set is
 * refused with an {@link EvalRunMismatchException} instead of taking those answers over, and so is
 * a directory whose run recorded neither; {@link Builder#fresh(boolean)} discards them instead.
 */
public final class MemoryEval {

    private static final Logger LOG = LoggerFactory.getLogger(MemoryEval.class);

    /** What a run writes into its directory, and all that starting afresh deletes (nothing else in it). */
    private static final List<String> RUN_FILES = List.of(RunRecord.FILE, RecordingModel.LOG_FILE,
            ScenarioFolder.USERS_FOLDER, ReportFiles.JSON_FILE, ReportFiles.MARKDOWN_FILE, ReportFiles.CHART_FILE);

    private final LanguageModel model;
    private final String modelName;
    private final Path runDirectory;
    private final ScenarioSet scenarios;
    private final int concurrency;
    private final boolean fresh;
    private final RunRecord record;

    private MemoryEval(Builder builder) {
        this.model = builder.model;
        this.modelName = builder.modelName;
        this.runDirectory = builder.runDirectory;
        this.scenarios = builder.limit > 0 ? builder.scenarios.limit(builder.limit) : builder.scenarios;
        this.concurrency = builder.concurrency;
        this.fresh = builder.fresh;
        this.record = RunRecord.of(builder.modelName, builder.modelSettings, builder.scenarios);
    }

    /**
     * A builder; {@link Builder#model} and {@link Builder#runDirectory} are required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs (or resumes) the eval and writes its report files into the run directory.
     *
     * @return the run's figures, also written as report files into the run directory
     * @throws EvalRunMismatchException when the directory holds a run of another model or scenario
     *     set, or one that recorded neither, and {@link Builder#fresh(boolean)} was not asked for
     */
    public EvalReport run() {
        long start = System.nanoTime();
        // 1. The run directory, holding this run's answers only, and the recording model every step shares.
        prepareRunDirectory();
        RecordingModel recording = new RecordingModel(model, runDirectory);
        // 2. Each user and cross-project scenario in homes of their own, `concurrency` at a time.
        Outcomes outcomes = runScenarios(recording);
        // 3. The long session, read in parts and by the tiered fit alone (when the model's window is known).
        EvalReport.LongSession longSession = new LongSessionRun(recording, runDirectory).run();
        // 4. The figures, and the files a person reads.
        EvalReport report = summarise(outcomes, Duration.ofNanos(System.nanoTime() - start).toMillis(), longSession);
        ReportFiles.write(runDirectory, report);
        LOG.info("eval: {} users and {} cross-project scenarios with {}; report in {}", outcomes.users().size(),
                outcomes.crossProject().size(), modelName, runDirectory);
        return report;
    }

    /**
     * Creates the directory, or checks that the run it holds is this one (same model and settings,
     * same scenario set) before anything in it is reused; starting afresh deletes the earlier run's
     * files first. The record is written before the first model call.
     */
    private void prepareRunDirectory() {
        RunDirectory.prepare(runDirectory, record, RUN_FILES, fresh);
    }

    private record Outcomes(List<UserOutcome> users, List<CrossProjectOutcome> crossProject) {}

    private Outcomes runScenarios(RecordingModel recording) {
        ExecutorService pool = Executors.newFixedThreadPool(concurrency, r -> {
            Thread t = new Thread(r, "mnemo-eval");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<UserOutcome>> users = new ArrayList<>();
            for (ScenarioUser user : scenarios.users()) {
                users.add(pool.submit(() -> new UserRun(user, recording, runDirectory).run()));
            }
            List<Future<CrossProjectOutcome>> crossProject = new ArrayList<>();
            for (CrossProjectScenario scenario : scenarios.crossProject()) {
                crossProject.add(pool.submit(() -> new CrossProjectRun(scenario, recording, runDirectory).run()));
            }
            return new Outcomes(results(users), results(crossProject));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the eval was interrupted; run it again with the same directory to resume", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r
                    : new IllegalStateException("a scenario user failed: " + e.getCause(), e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private static <T> List<T> results(List<Future<T>> futures) throws InterruptedException, ExecutionException {
        List<T> results = new ArrayList<>();
        for (Future<T> future : futures) {
            results.add(future.get());
        }
        return results;
    }

    private EvalReport summarise(Outcomes all, long millis, EvalReport.LongSession longSession) {
        List<UserOutcome> outcomes = all.users();
        List<EvalReport.ConditionSummary> summaries = new ArrayList<>();
        for (Condition condition : Condition.values()) {
            List<ProbeResult> results = outcomes.stream().flatMap(o -> o.results().stream())
                    .filter(r -> r.condition() == condition).toList();
            Map<Category, EvalReport.CategoryFigures> categories = new EnumMap<>(Category.class);
            for (Category category : Category.values()) {
                List<ProbeResult> of = results.stream().filter(r -> r.category() == category).toList();
                categories.put(category, new EvalReport.CategoryFigures(of.size(),
                        category.measuresRecall() ? rate(of, ProbeResult::recalled) : Double.NaN,
                        category == Category.CORRECTION ? rate(of, ProbeResult::stale) : Double.NaN,
                        category.measuresRecall() ? Double.NaN : rate(of, ProbeResult::leaked)));
            }
            double recall = rate(results.stream().filter(r -> r.category().measuresRecall()).toList(),
                    ProbeResult::recalled);
            boolean mnemo = condition == Condition.MNEMO;
            long phase1 = mnemo ? outcomes.stream().mapToLong(o -> o.phase1Usage().totalTokens()).sum() : 0;
            long phase2 = mnemo ? outcomes.stream().mapToLong(o -> o.phase2Usage().totalTokens()).sum() : 0;
            long answer = outcomes.stream().mapToLong(o -> o.answerUsage().getOrDefault(condition, TokenUsage.ZERO)
                    .totalTokens()).sum();
            summaries.add(new EvalReport.ConditionSummary(condition, categories, recall, phase1, phase2, answer,
                    phase1 + phase2 + answer));
        }
        return new EvalReport(modelName, scenarios.version(), outcomes.size(), summaries,
                (int) outcomes.stream().filter(UserOutcome::secretInMemory).count(),
                (int) outcomes.stream().filter(UserOutcome::pollutedInMemory).count(), outcomes,
                crossProject(all.crossProject()), millis, longSession);
    }

    /** Per read path: recall over every probe, contamination over the probes another project answers otherwise. */
    private static EvalReport.CrossProject crossProject(List<CrossProjectOutcome> outcomes) {
        List<EvalReport.ReadPathSummary> summaries = new ArrayList<>();
        for (ReadPath path : ReadPath.values()) {
            List<ProjectProbeResult> results = outcomes.stream().flatMap(o -> o.results().stream())
                    .filter(r -> r.readPath() == path).toList();
            List<ProjectProbeResult> conflicting = results.stream().filter(ProjectProbeResult::conflicting).toList();
            List<CrossProjectOutcome.PathRun> runs = outcomes.stream().map(o -> o.paths().get(path))
                    .filter(Objects::nonNull).toList();
            long phase1 = runs.stream().mapToLong(r -> r.phase1Usage().totalTokens()).sum();
            long phase2 = runs.stream().mapToLong(r -> r.phase2Usage().totalTokens()).sum();
            long answer = runs.stream().mapToLong(r -> r.answerUsage().totalTokens()).sum();
            summaries.add(new EvalReport.ReadPathSummary(path, results.size(), rate(results,
                    ProjectProbeResult::recalled), conflicting.size(),
                    (int) conflicting.stream().filter(ProjectProbeResult::contaminated).count(),
                    rate(conflicting, ProjectProbeResult::contaminated), phase1, phase2, answer,
                    phase1 + phase2 + answer));
        }
        return new EvalReport.CrossProject(outcomes.size(), summaries, outcomes);
    }

    private static <T> double rate(List<T> results, java.util.function.Predicate<T> test) {
        return results.isEmpty() ? Double.NaN : (double) results.stream().filter(test).count() / results.size();
    }

    /** Configures a {@link MemoryEval}. */
    public static final class Builder {
        private LanguageModel model;
        private String modelName;
        private Path runDirectory;
        private ScenarioSet scenarios = ScenarioSet.bundled();
        private int limit;
        private int concurrency = 1;
        private Map<String, String> modelSettings = Map.of();
        private boolean fresh;

        private Builder() {}

        /**
         * The model for extraction, consolidation and answering, and its name for the report. The
         * name is recorded in the run directory: a later run with another name is refused there.
         *
         * @param model the model to run; not null
         * @param name its name for the report; not blank
         * @return this builder
         * @throws IllegalArgumentException when {@code name} is blank
         */
        public Builder model(LanguageModel model, String name) {
            this.model = Objects.requireNonNull(model, "model");
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("the model name is blank; name the model the report is about");
            }
            this.modelName = name;
            return this;
        }

        /**
         * What else tells this model's answers apart from another's of the same name, such as its
         * endpoint, API and reasoning effort ({@code mnemo eval} records {@code base_url},
         * {@code api} and the like). Recorded with the name in the run directory's {@code run.json},
         * in plain text, so never a secret; a later run with other settings is refused there.
         * Default: none.
         *
         * @param settings the settings by name; recorded in plain text, so never a secret
         * @return this builder
         */
        public Builder modelSettings(Map<String, String> settings) {
            Objects.requireNonNull(settings, "settings");
            settings.forEach((key, value) -> {
                Objects.requireNonNull(key, "a model setting's name");
                Objects.requireNonNull(value, () -> "model setting '" + key + "'");
            });
            this.modelSettings = new TreeMap<>(settings);
            return this;
        }

        /**
         * Whether to discard what an earlier run left in the run directory (its model log, users,
         * report and {@code run.json}; no other file) and start over, instead of resuming it. Needed
         * to reuse a directory that holds another model's or scenario set's run. Default false.
         *
         * @param fresh true to discard an earlier run and start over
         * @return this builder
         */
        public Builder fresh(boolean fresh) {
            this.fresh = fresh;
            return this;
        }

        /**
         * Where homes, the model log, per-user results and the report go; reused to resume.
         *
         * @param directory the run directory, created when missing; not null
         * @return this builder
         */
        public Builder runDirectory(Path directory) {
            this.runDirectory = Objects.requireNonNull(directory, "directory");
            return this;
        }

        /**
         * The scenarios; default {@link ScenarioSet#bundled()}.
         *
         * @param scenarios the scenario set to play; not null
         * @return this builder
         */
        public Builder scenarios(ScenarioSet scenarios) {
            this.scenarios = Objects.requireNonNull(scenarios, "scenarios");
            return this;
        }

        /**
         * Only the first {@code users} scenario users, and as many cross-project scenarios at most.
         *
         * @param users how many scenario users to run, at least 1
         * @return this builder
         * @throws IllegalArgumentException when {@code users} is less than 1
         */
        public Builder limit(int users) {
            if (users < 1) {
                throw new IllegalArgumentException("limit must be at least 1, was " + users);
            }
            this.limit = users;
            return this;
        }

        /**
         * Users run at once (each makes its model calls one at a time); default 1.
         *
         * @param users how many users run at once, 1 to 64
         * @return this builder
         * @throws IllegalArgumentException when {@code users} is outside 1..64
         */
        public Builder concurrency(int users) {
            if (users < 1 || users > 64) {
                throw new IllegalArgumentException("concurrency must be 1..64, was " + users);
            }
            this.concurrency = users;
            return this;
        }

        /**
         * Builds the eval.
         *
         * @return a new eval; nothing runs until {@link MemoryEval#run()}
         * @throws IllegalStateException when the model or the run directory is missing
         */
        public MemoryEval build() {
            if (model == null) {
                throw new IllegalStateException("no model: call model(languageModel, name)");
            }
            if (runDirectory == null) {
                throw new IllegalStateException("no run directory: call runDirectory(path)");
            }
            return new MemoryEval(this);
        }
    }
}
