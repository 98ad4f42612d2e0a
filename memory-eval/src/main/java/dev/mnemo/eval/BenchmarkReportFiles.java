package dev.mnemo.eval;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/** Writes a {@link BenchmarkReport} as {@code benchmark-report.json} and {@code benchmark-report.md}. */
final class BenchmarkReportFiles {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private BenchmarkReportFiles() {}

    static void write(Path dir, BenchmarkReport report) {
        try {
            Files.writeString(dir.resolve(BenchmarkRun.JSON_REPORT), JSON.writeValueAsString(report),
                    StandardCharsets.UTF_8);
            Files.writeString(dir.resolve(BenchmarkRun.MARKDOWN_REPORT), markdown(report), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the benchmark report into " + dir, e);
        }
    }

    static String markdown(BenchmarkReport report) {
        boolean locomo = report.benchmark().equals(Benchmark.LOCOMO.id());
        String special = locomo ? "adversarial (5)" : "abstention";
        StringBuilder md = new StringBuilder("# Mnemo on ").append(locomo ? "LoCoMo" : "LongMemEval").append(": ")
                .append(report.model()).append("\n\n").append(report.conversations()).append(" conversations, ")
                .append(report.questions()).append(" questions, judged by ").append(report.judgeModel()).append("; ")
                .append(String.format(Locale.ROOT, "%.1f", report.millis() / 1000.0)).append(" s. Phase 1 and 2 spent ")
                .append(report.pipelineTokens()).append(" tokens (the mnemo condition's cost before any question);")
                .append(" the judge ").append(report.judgeTokens()).append(".\n\n")
                .append("| condition | accuracy").append(locomo ? " (J, categories 1-4)" : "").append(" | ").append(special)
                .append(" | tokens per question | p95 latency | context cut |\n|---|---|---|---|---|---|\n");
        for (BenchmarkReport.ConditionFigures c : report.conditions()) {
            md.append("| ").append(c.condition()).append(" | ").append(figure(c.questions(), c.correct(), c.accuracy()))
                    .append(" | ").append(figure(c.special())).append(" | ")
                    .append(Double.isNaN(c.tokensPerQuestion()) ? "–" : String.format(Locale.ROOT, "%.0f",
                            c.tokensPerQuestion()))
                    .append(" | ").append(c.p95Millis()).append(" ms | ").append(c.contextCut()).append(" |\n");
        }
        TreeSet<String> categories = new TreeSet<>();
        report.conditions().forEach(c -> categories.addAll(c.categories().keySet()));
        md.append("\nAccuracy per ").append(locomo ? "category" : "question type").append(":\n\n| condition |");
        categories.forEach(cat -> md.append(' ').append(locomo ? label(cat) : cat).append(" |"));
        md.append("\n|---|").append("---|".repeat(categories.size())).append('\n');
        for (BenchmarkReport.ConditionFigures c : report.conditions()) {
            md.append("| ").append(c.condition()).append(" |");
            Map<String, BenchmarkReport.CategoryFigures> of = c.categories();
            categories.forEach(cat -> md.append(' ').append(of.containsKey(cat) ? figure(of.get(cat)) : "–")
                    .append(" |"));
            md.append('\n');
        }
        md.append("\nAnswers graded by a model judge following the benchmark's protocol (docs/eval.md). Full context:"
                + " the whole conversation in the prompt, its oldest part left out when it does not fit the window"
                + " (\"context cut\").\n");
        return md.toString();
    }

    /** LoCoMo's category numbers with the names commonly given to them. */
    private static String label(String category) {
        return switch (category) {
            case "1" -> "1 multi-hop";
            case "2" -> "2 temporal";
            case "3" -> "3 open-domain";
            case "4" -> "4 single-hop";
            default -> category;
        };
    }

    private static String figure(BenchmarkReport.CategoryFigures f) {
        return figure(f.questions(), f.correct(), f.accuracy());
    }

    private static String figure(int questions, int correct, double accuracy) {
        return Double.isNaN(accuracy) ? "–" : String.format(Locale.ROOT, "%.1f %% (%d/%d)", accuracy * 100, correct,
                questions);
    }
}
