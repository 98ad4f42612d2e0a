package dev.mnemo.cli;

import dev.mnemo.eval.Condition;
import dev.mnemo.eval.EvalReport;
import dev.mnemo.eval.EvalRunMismatchException;
import dev.mnemo.eval.MemoryEval;
import dev.mnemo.eval.ScenarioSet;
import dev.mnemo.llm.LanguageModel;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/**
 * {@code mnemo eval}: how good the memory is with the configured model, beside no memory and the
 * raw transcripts. Works in its own run directory, never in a Mnemo home.
 */
@Command(name = "eval", description = "Measure the memory with the configured model: the bundled scenarios are "
        + "extracted, consolidated and probed, beside a no-memory and a raw-transcripts baseline.")
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
            + " cross-project scenarios (default: all; the bundled set has 20 and 3).")
    Integer limit;

    @Option(names = "--concurrency", paramLabel = "N", defaultValue = "1",
            description = "Scenario users run at once (default 1); mind the model's rate limits.")
    int concurrency;

    @Option(names = "--scenarios", paramLabel = "FILE", description = "A scenario file instead of the bundled set.")
    Path scenarios;

    @Override
    public Integer call() {
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
}
