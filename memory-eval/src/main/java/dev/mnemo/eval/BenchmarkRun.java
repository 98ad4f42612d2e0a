package dev.mnemo.eval;

import dev.mnemo.eval.BenchmarkConversation.Judged;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a published benchmark ({@link Benchmark}) on the user's own model: each conversation's
 * sessions are recorded in a fresh Mnemo home with the clock at each session's date, Phase 1
 * extracts them as they go idle and Phase 2 consolidates, then every question is answered by the
 * model with Mnemo's memory tools, with no memory, and with the whole conversation in the prompt
 * (cut to the model's window when it does not fit), and a model judge grades each answer as the
 * benchmark's protocol asks.
 *
 * <pre>{@code
 * BenchmarkReport report = BenchmarkRun.builder()
 *         .dataset(Benchmark.LOCOMO, Path.of("locomo10.json"))
 *         .model(OpenAiLanguageModel.fromEnvironment(), "gpt-4.1-mini")
 *         .runDirectory(Path.of("eval-runs/locomo-gpt-4.1-mini"))
 *         .limit(1)
 *         .build()
 *         .run();     // also writes benchmark-report.json and benchmark-report.md
 * }</pre>
 *
 * <p>Each conversation's stages (ingest, extract, consolidate, answer, judge) are checkpointed in
 * {@code benchmark/<id>/} of the run directory: running again resumes after the last finished
 * stage and redoes none before it. As with {@link MemoryEval}, the directory records which model,
 * judge and benchmark file made its answers, and a run of another is refused with an
 * {@link EvalRunMismatchException}.
 */
public final class BenchmarkRun {

    /** The conditions, in report order. */
    public static final List<String> CONDITIONS = List.of("mnemo", "no_memory", "full_context");
    static final String FOLDER = "benchmark";
    static final String JSON_REPORT = "benchmark-report.json";
    static final String MARKDOWN_REPORT = "benchmark-report.md";
    /** The folder of a separate judge's model log. */
    static final String JUDGE_FOLDER = "judge";
    /** What a run writes into its directory, and all that starting afresh deletes. */
    private static final List<String> RUN_FILES = List.of(RunRecord.FILE, RecordingModel.LOG_FILE, JUDGE_FOLDER, FOLDER,
            JSON_REPORT, MARKDOWN_REPORT);
    private static final int BENCHMARK_FORMAT = 1;

    private static final Logger LOG = LoggerFactory.getLogger(BenchmarkRun.class);

    private final Benchmark benchmark;
    private final Path file;
    private final LanguageModel model;
    private final String modelName;
    private final LanguageModel judgeModel;
    private final String judgeName;
    private final Path runDirectory;
    private final int limit;
    private final int questionLimit;
    private final boolean fresh;
    private final Map<String, String> modelSettings;

    private BenchmarkRun(Builder b) {
        this.benchmark = Objects.requireNonNull(b.benchmark, "dataset");
        this.file = b.file;
        this.model = Objects.requireNonNull(b.model, "model");
        this.modelName = b.modelName;
        this.judgeModel = b.judgeModel;
        this.judgeName = b.judgeName == null ? b.modelName : b.judgeName;
        this.runDirectory = Objects.requireNonNull(b.runDirectory, "runDirectory");
        this.limit = b.limit;
        this.questionLimit = b.questionLimit;
        this.fresh = b.fresh;
        this.modelSettings = b.modelSettings;
    }

    /**
     * A builder; {@link Builder#model}, {@link Builder#dataset} and {@link Builder#runDirectory} are required.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Runs (or resumes) the benchmark and writes its report files into the run directory.
     *
     * @return the run's figures, also written as report files into the run directory
     * @throws EvalRunMismatchException when the directory holds a run of another model, judge or
     *     benchmark file, and a fresh start was not asked for
     * @throws IllegalArgumentException when the file is not the benchmark's published format
     */
    public BenchmarkReport run() {
        long start = System.nanoTime();
        BenchmarkSet all = benchmark.read(file);
        BenchmarkSet set = all;
        if (limit > 0) {
            set = set.limit(limit);
        }
        if (questionLimit > 0) {
            set = set.limitQuestions(questionLimit);
        }
        Map<String, String> settings = new TreeMap<>(modelSettings);
        settings.put("judge_model", judgeName);
        RunDirectory.prepare(runDirectory, new RunRecord(modelName, new TreeMap<>(settings), BENCHMARK_FORMAT,
                benchmark.id() + " file " + all.fingerprint()), RUN_FILES, fresh);
        RecordingModel recording = new RecordingModel(model, runDirectory);
        LanguageModel judge = judgeModel != null ? new RecordingModel(judgeModel, judgeFolder())
                : judgeName.equals(modelName) ? recording : new NamedModel(recording, judgeName);
        List<BenchmarkConversation.Outcome> outcomes = new ArrayList<>();
        for (BenchmarkSet.Conversation conversation : set.conversations()) {
            outcomes.add(new BenchmarkConversation(benchmark, conversation, model, recording, new BenchmarkJudge(judge),
                    runDirectory).run());
        }
        BenchmarkReport report = summarise(set, outcomes, Duration.ofNanos(System.nanoTime() - start).toMillis());
        BenchmarkReportFiles.write(runDirectory, report);
        LOG.info("eval: {} on {} conversations with {}; report in {}", benchmark.id(), outcomes.size(), modelName,
                runDirectory);
        return report;
    }

    private Path judgeFolder() {
        Path dir = runDirectory.resolve(JUDGE_FOLDER);
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir, e);
        }
    }

    private BenchmarkReport summarise(BenchmarkSet set, List<BenchmarkConversation.Outcome> outcomes, long millis) {
        List<Judged> all = outcomes.stream().flatMap(o -> o.judged().stream()).toList();
        List<BenchmarkReport.ConditionFigures> figures = new ArrayList<>();
        for (String condition : CONDITIONS) {
            List<Judged> of = all.stream().filter(j -> j.answer().condition().equals(condition)).toList();
            List<Judged> scored = benchmark == Benchmark.LOCOMO ? of.stream().filter(j -> !j.answer().special()).toList()
                    : of;
            Map<String, BenchmarkReport.CategoryFigures> categories = new TreeMap<>();
            for (String category : new TreeSet<>(scored.stream().map(j -> j.answer().category()).toList())) {
                categories.put(category, figures(scored.stream().filter(j -> j.answer().category().equals(category))
                        .toList()));
            }
            BenchmarkReport.CategoryFigures overall = figures(scored);
            long tokens = of.stream().mapToLong(j -> j.answer().tokens()).sum();
            figures.add(new BenchmarkReport.ConditionFigures(condition, overall.questions(), overall.correct(),
                    overall.accuracy(), categories, figures(of.stream().filter(j -> j.answer().special()).toList()),
                    of.isEmpty() ? Double.NaN : (double) tokens / of.size(),
                    p95(of.stream().map(j -> j.answer().millis()).toList()),
                    (int) of.stream().filter(j -> j.answer().contextCut()).count()));
        }
        int questions = set.conversations().stream().mapToInt(c -> c.questions().size()).sum();
        return new BenchmarkReport(benchmark.id(), modelName, judgeName, outcomes.size(), questions,
                outcomes.stream().mapToLong(BenchmarkConversation.Outcome::pipelineTokens).sum(),
                all.stream().mapToLong(Judged::judgeTokens).sum(), figures, millis);
    }

    private static BenchmarkReport.CategoryFigures figures(List<Judged> judged) {
        return BenchmarkReport.CategoryFigures.of(judged.size(), (int) judged.stream().filter(Judged::correct).count());
    }

    /** The nearest-rank 95th percentile; 0 for none. */
    static long p95(List<Long> values) {
        if (values.isEmpty()) {
            return 0;
        }
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get((int) Math.ceil(0.95 * sorted.size()) - 1);
    }

    /** The same endpoint asked for another model by name: the judge, when only its name is given. */
    private record NamedModel(LanguageModel model, String name) implements LanguageModel {
        @Override
        public ModelResponse respond(ModelRequest request) {
            return model.respond(request.toBuilder().model(name).build());
        }
    }

    /** Configures a {@link BenchmarkRun}. */
    public static final class Builder {
        private Benchmark benchmark;
        private Path file;
        private LanguageModel model;
        private String modelName;
        private LanguageModel judgeModel;
        private String judgeName;
        private Path runDirectory;
        private int limit;
        private int questionLimit;
        private boolean fresh;
        private Map<String, String> modelSettings = Map.of();

        private Builder() {}

        /**
         * The benchmark and the published file the user downloaded.
         *
         * @param benchmark which benchmark the file is; not null
         * @param file the published file, as downloaded (LoCoMo's {@code locomo10.json}, LongMemEval's
         *     {@code longmemeval_s_cleaned.json}); not null
         * @return this builder
         */
        public Builder dataset(Benchmark benchmark, Path file) {
            this.benchmark = Objects.requireNonNull(benchmark, "benchmark");
            this.file = Objects.requireNonNull(file, "file");
            return this;
        }

        /**
         * The model that extracts, consolidates and answers, and its name (recorded in the run directory).
         *
         * @param model the model to run; not null
         * @param name its name for the report and the run directory; not blank
         * @return this builder
         * @throws IllegalArgumentException when {@code name} is blank
         */
        public Builder model(LanguageModel model, String name) {
            this.model = Objects.requireNonNull(model, "model");
            if (Objects.requireNonNull(name, "name").isBlank()) {
                throw new IllegalArgumentException("the model name is blank; name the model the report is about");
            }
            this.modelName = name;
            return this;
        }

        /**
         * What else tells the model apart (endpoint, API…), as {@link MemoryEval.Builder#modelSettings}.
         *
         * @param settings what else tells the model apart, recorded in plain text (never a secret); copied
         * @return this builder
         */
        public Builder modelSettings(Map<String, String> settings) {
            this.modelSettings = Map.copyOf(settings);
            return this;
        }

        /**
         * The judge: the answering model's endpoint asked for {@code name} instead. Default: the answering model.
         *
         * @param name the model name the judge's requests ask for; not blank
         * @return this builder
         * @throws IllegalArgumentException when {@code name} is blank
         */
        public Builder judgeModel(String name) {
            if (Objects.requireNonNull(name, "name").isBlank()) {
                throw new IllegalArgumentException("the judge model name is blank");
            }
            this.judgeName = name;
            return this;
        }

        /**
         * A judge of its own, under {@code name}.
         *
         * @param judge the model that grades the answers; not null
         * @param name its name for the report; not blank
         * @return this builder
         * @throws IllegalArgumentException when {@code name} is blank
         */
        public Builder judge(LanguageModel judge, String name) {
            this.judgeModel = Objects.requireNonNull(judge, "judge");
            return judgeModel(name);
        }

        /**
         * Where the model log, per-conversation results and the report go; reused to resume an earlier run.
         *
         * @param dir the run directory, created when missing; not null
         * @return this builder
         */
        public Builder runDirectory(Path dir) {
            this.runDirectory = Objects.requireNonNull(dir, "dir");
            return this;
        }

        /**
         * Only the first {@code n} conversations (LongMemEval: questions), a smoke subset. Default: all.
         *
         * @param n how many conversations to run, at least 1
         * @return this builder
         * @throws IllegalArgumentException when {@code n} is less than 1
         */
        public Builder limit(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("limit must be at least 1, was " + n);
            }
            this.limit = n;
            return this;
        }

        /**
         * Only the first {@code n} questions of each conversation (LoCoMo has about 200 each). Default: all.
         *
         * @param n how many questions of each conversation to ask, at least 1
         * @return this builder
         * @throws IllegalArgumentException when {@code n} is less than 1
         */
        public Builder questionLimit(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("question limit must be at least 1, was " + n);
            }
            this.questionLimit = n;
            return this;
        }

        /**
         * Discards an earlier run in the directory instead of resuming it (or refusing it).
         *
         * @param fresh true to discard an earlier run; default false
         * @return this builder
         */
        public Builder fresh(boolean fresh) {
            this.fresh = fresh;
            return this;
        }

        /**
         * Builds the benchmark run; nothing runs until {@link BenchmarkRun#run()}.
         *
         * @return a new benchmark run
         * @throws IllegalStateException when the model or the dataset is missing
         */
        public BenchmarkRun build() {
            if (modelName == null) {
                throw new IllegalStateException("no model: call model(LanguageModel, String)");
            }
            if (benchmark == null) {
                throw new IllegalStateException("no dataset: call dataset(Benchmark, Path)");
            }
            return new BenchmarkRun(this);
        }
    }
}
