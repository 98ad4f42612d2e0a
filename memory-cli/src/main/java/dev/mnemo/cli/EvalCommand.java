package dev.mnemo.cli;

import dev.mnemo.eval.Benchmark;
import dev.mnemo.eval.BenchmarkReport;
import dev.mnemo.eval.BenchmarkRun;
import dev.mnemo.eval.Condition;
import dev.mnemo.eval.EvalReport;
import dev.mnemo.eval.EvalRunMismatchException;
import dev.mnemo.eval.MemoryEval;
import dev.mnemo.eval.ScenarioSet;
import dev.mnemo.llm.LanguageModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code mnemo eval}: how good the memory is with the configured model, beside no memory and the
 * raw transcripts. Works in its own run directory, never in a Mnemo home.
 */
@Command(name = "eval", description = "Measure the memory with the configured model: the bundled scenarios are "
        + "extracted, consolidated and probed, beside a no-memory and a raw-transcripts baseline; or, with --dataset, a"
        + " published benchmark file (LoCoMo, LongMemEval) graded by a model judge.")
final class EvalCommand implements Callable<Integer> {

    /** The most scenario users {@code --concurrency} may run at once (as {@code MemoryEval} allows). */
    static final int MAX_CONCURRENCY = 64;

    @ParentCommand
    MnemoCli root;

    @Option(names = "--out", paramLabel = "DIR", required = true,
            description = "The run directory: homes, every model request and answer, the report. Reuse it to resume"
                    + " the same model's run; another model's is refused.")
    Path out;

    @Option(names = "--fresh", description = "Discard the earlier run in --out (its model log, users, report) and"
            + " start over, instead of resuming it.")
    boolean fresh;

    @Option(names = "--limit", paramLabel = "N", description = "Only the first N scenario users and the first N"
            + " cross-project scenarios (default: all; the bundled set has 20 and 3); with --dataset, the first N"
            + " conversations (LongMemEval: questions).")
    Integer limit;

    @Option(names = "--concurrency", paramLabel = "N", defaultValue = "1",
            description = "Scenario users run at once (default 1); mind the model's rate limits.")
    int concurrency;

    @Option(names = "--scenarios", paramLabel = "FILE", description = "A scenario file instead of the bundled set.")
    Path scenarios;

    @Option(names = "--dataset", paramLabel = "NAME", description = "Run a published benchmark instead of the bundled"
            + " scenarios: locomo (locomo10.json) or longmemeval (longmemeval_s_cleaned.json); give the file after the"
            + " options. --limit then counts conversations (LongMemEval: questions).")
    String dataset;

    @Parameters(arity = "0..1", paramLabel = "FILE", description = "The benchmark file --dataset reads.")
    Path datasetFile;

    @Option(names = "--judge-model", paramLabel = "NAME", description = "With --dataset: the model that grades the"
            + " answers, on the same endpoint (default: the answering model).")
    String judgeModel;

    @Option(names = "--questions", paramLabel = "N", description = "With --dataset: only the first N questions of"
            + " each conversation (LoCoMo has about 200 each).")
    Integer questions;

    @Override
    public Integer call() {
        if (dataset != null || datasetFile != null) {
            return benchmark();
        }
        if (judgeModel != null || questions != null) {
            throw new MnemoCli.UsageProblem("--judge-model and --questions go with --dataset NAME FILE");
        }
        if (limit != null && limit < 1) {
            throw new MnemoCli.UsageProblem("--limit must be a whole number of at least 1, was " + limit);
        }
        if (concurrency < 1 || concurrency > MAX_CONCURRENCY) {
            throw new MnemoCli.UsageProblem("--concurrency must be a whole number from 1 to " + MAX_CONCURRENCY
                    + ", was " + concurrency);
        }
        LanguageModel model = root.requireModel("mnemo eval");
        String name = root.modelName();
        MemoryEval.Builder eval = MemoryEval.builder().model(model, name).modelSettings(root.modelSettings())
                .runDirectory(out).concurrency(concurrency).fresh(fresh)
                .scenarios(scenarios == null ? ScenarioSet.bundled() : ScenarioSet.load(scenarios));
        if (limit != null) {
            eval.limit(limit);
        }
        EvalReport report;
        try {
            report = eval.build().run();
        } catch (EvalRunMismatchException e) {
            throw new MnemoCli.UsageProblem(e.problem() + "\nUse a new --out for this run, or add --fresh to discard"
                    + " the earlier run in " + out + " and start over.");
        }
        root.out().printf(Locale.ROOT, "%d users with %s in %.1f s%n", report.users(), name, report.millis() / 1000.0);
        for (EvalReport.ConditionSummary c : report.conditions()) {
            root.out().printf(Locale.ROOT, "  %-12s recall %5.1f %%   tokens %,d%n",
                    c.condition().name().toLowerCase(Locale.ROOT), c.recall() * 100, c.tokens());
        }
        EvalReport.ConditionSummary mnemo = report.condition(Condition.MNEMO);
        root.out().printf(Locale.ROOT, "  memory folders holding a planted secret: %d, a polluted fact: %d%n",
                report.secretsInMemory(), report.pollutedInMemory());
        root.out().println("Report: " + out.resolve("report.md") + " (also report.json, recall-vs-tokens.svg)");
        root.out().flush();
        return Double.isNaN(mnemo.recall()) ? 1 : 0;
    }

    /** {@code mnemo eval --dataset NAME FILE}: a published benchmark on the configured model. */
    private int benchmark() {
        if (dataset == null || datasetFile == null) {
            throw new MnemoCli.UsageProblem("a benchmark run needs both --dataset (locomo or longmemeval) and the file"
                    + " it reads, e.g. `mnemo eval --dataset locomo locomo10.json --out runs/locomo`");
        }
        Benchmark benchmark;
        try {
            benchmark = Benchmark.named(dataset);
        } catch (IllegalArgumentException e) {
            throw new MnemoCli.UsageProblem("--dataset: " + e.getMessage());
        }
        if (!Files.isRegularFile(datasetFile)) {
            throw new MnemoCli.UsageProblem("no file " + datasetFile + "; download it first (docs/eval.md says where)");
        }
        if (limit != null && limit < 1 || questions != null && questions < 1) {
            throw new MnemoCli.UsageProblem("--limit and --questions must be whole numbers of at least 1");
        }
        if (scenarios != null || concurrency != 1) {
            throw new MnemoCli.UsageProblem("--scenarios and --concurrency do not go with --dataset (a benchmark runs"
                    + " its conversations one at a time)");
        }
        LanguageModel model = root.requireModel("mnemo eval");
        String name = root.modelName();
        BenchmarkRun.Builder run = BenchmarkRun.builder().dataset(benchmark, datasetFile).model(model, name)
                .modelSettings(root.modelSettings()).runDirectory(out).fresh(fresh);
        if (judgeModel != null) {
            run.judgeModel(judgeModel);
        }
        if (limit != null) {
            run.limit(limit);
        }
        if (questions != null) {
            run.questionLimit(questions);
        }
        BenchmarkReport report;
        try {
            report = run.build().run();
        } catch (EvalRunMismatchException e) {
            throw new MnemoCli.UsageProblem(e.problem() + "\nUse a new --out for this run, or add --fresh to discard"
                    + " the earlier run in " + out + " and start over.");
        } catch (IllegalArgumentException e) {
            throw new MnemoCli.UsageProblem(e.getMessage());
        }
        root.out().printf(Locale.ROOT, "%s: %d conversations, %d questions with %s (judge %s) in %.1f s%n",
                benchmark.id(), report.conversations(), report.questions(), name, report.judgeModel(),
                report.millis() / 1000.0);
        for (BenchmarkReport.ConditionFigures c : report.conditions()) {
            root.out().printf(Locale.ROOT, "  %-12s accuracy %5.1f %%   %s %5.1f %%   tokens/question %,.0f   p95 %d ms%n",
                    c.condition(), c.accuracy() * 100, benchmark == Benchmark.LOCOMO ? "adversarial" : "abstention",
                    c.special().accuracy() * 100, c.tokensPerQuestion(), c.p95Millis());
        }
        root.out().println("Report: " + out.resolve("benchmark-report.md") + " (also benchmark-report.json)");
        root.out().flush();
        return 0;
    }
}
