package dev.mnemo.eval;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The report as files: {@code report.json} (everything, per user too), {@code report.md} (the
 * tables to put side by side with another model's) and {@code recall-vs-tokens.svg}.
 */
final class ReportFiles {

    static final String JSON_FILE = "report.json";
    static final String MARKDOWN_FILE = "report.md";
    static final String CHART_FILE = "recall-vs-tokens.svg";

    private ReportFiles() {}

    static void write(Path dir, EvalReport report) {
        try {
            new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(dir.resolve(JSON_FILE).toFile(), report);
            Files.writeString(dir.resolve(MARKDOWN_FILE), markdown(report), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve(CHART_FILE), chart(report), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report into " + dir, e);
        }
    }

    static String markdown(EvalReport report) {
        StringBuilder md = new StringBuilder();
        md.append("# Mnemo eval: ").append(report.model()).append("\n\n")
                .append(report.users()).append(" scenario users (set v").append(report.scenarioVersion()).append("), ")
                .append(String.format(Locale.ROOT, "%.1f", report.millis() / 1000.0)).append(" s. Memory folders holding a ")
                .append("planted secret: ").append(report.secretsInMemory()).append("; a polluted fact: ")
                .append(report.pollutedInMemory()).append(".\n\n");
        md.append("| condition | recall | stale | polluted leak | secret leak | Phase 1 tokens | Phase 2 tokens |"
                + " answer tokens | total tokens |\n|---|---|---|---|---|---|---|---|---|\n");
        for (EvalReport.ConditionSummary c : report.conditions()) {
            md.append("| ").append(c.condition().name().toLowerCase(Locale.ROOT)).append(" | ").append(pct(c.recall()))
                    .append(" | ").append(pct(c.categories().get(Category.CORRECTION).staleRate()))
                    .append(" | ").append(pct(c.categories().get(Category.POLLUTED).leakRate()))
                    .append(" | ").append(pct(c.categories().get(Category.SECRET).leakRate()))
                    .append(" | ").append(c.phase1Tokens()).append(" | ").append(c.phase2Tokens())
                    .append(" | ").append(c.answerTokens()).append(" | ").append(c.tokens()).append(" |\n");
        }
        md.append("\nRecall per category:\n\n| condition |");
        List<Category> recallCategories = List.of(Category.values()).stream().filter(Category::measuresRecall).toList();
        recallCategories.forEach(cat -> md.append(' ').append(cat.name().toLowerCase(Locale.ROOT)).append(" |"));
        md.append("\n|---|").append("---|".repeat(recallCategories.size())).append('\n');
        for (EvalReport.ConditionSummary c : report.conditions()) {
            md.append("| ").append(c.condition().name().toLowerCase(Locale.ROOT)).append(" |");
            recallCategories.forEach(cat -> md.append(' ').append(pct(c.categories().get(cat).recall())).append(" |"));
            md.append('\n');
        }
        crossProject(md, report.crossProject());
        longSession(md, report.longSession());
        md.append("\nGrading is deterministic (expected words in the answer, whole words, case ignored); it measures "
                + "the harness's questions, not a model's general quality.\n");
        return md.toString();
    }

    /** The long session read in parts against the tiered fit alone; nothing when it did not run. */
    private static void longSession(StringBuilder md, EvalReport.LongSession session) {
        if (session.conditions().isEmpty()) {
            return;
        }
        md.append("\nLong session (").append(session.sessionBytes()).append(" bytes, a ").append(session.windowTokens())
                .append("-token window; ").append(session.facts()).append(" facts at its start, middle and end):\n\n")
                .append("| extraction | facts in memory | requests | Phase 1 input tokens | Phase 1 tokens | coverage |\n")
                .append("|---|---|---|---|---|---|\n");
        for (EvalReport.LongSessionCondition c : session.conditions()) {
            md.append("| ").append(c.name()).append(" | ").append(c.recalled()).append(" of ").append(session.facts())
                    .append(" | ").append(c.requests()).append(" | ").append(c.inputTokens()).append(" | ")
                    .append(c.tokens()).append(" | ").append(c.coverage().isEmpty() ? "one request" : c.coverage())
                    .append(" |\n");
        }
    }

    /** The two read paths of the cross-project scenarios side by side; nothing for a set without them. */
    private static void crossProject(StringBuilder md, EvalReport.CrossProject cross) {
        if (cross.scenarios() == 0) {
            return;
        }
        md.append("\n## Cross-project contamination\n\n").append(cross.scenarios()).append(" scenarios of one user in"
                + " several projects whose facts conflict (which package manager, which Java version…), each probe"
                + " asked in one project. An answer holding another project's value of what was asked is"
                + " **contaminated**. `scoped`: sessions and probes in their projects; `global_only`: the same with no"
                + " project, one global memory as Codex keeps it.\n\n")
                .append("| read path | probes | recall | contaminated | Phase 1 tokens | Phase 2 tokens |"
                        + " answer tokens | total tokens |\n|---|---|---|---|---|---|---|---|\n");
        for (EvalReport.ReadPathSummary path : cross.readPaths()) {
            md.append("| ").append(path.readPath().name().toLowerCase(Locale.ROOT)).append(" | ").append(path.probes())
                    .append(" | ").append(pct(path.recall())).append(" | ").append(pct(path.contaminationRate()))
                    .append(" (").append(path.contaminated()).append(" of ").append(path.conflictingProbes())
                    .append(") | ").append(path.phase1Tokens()).append(" | ").append(path.phase2Tokens()).append(" | ")
                    .append(path.answerTokens()).append(" | ").append(path.tokens()).append(" |\n");
        }
    }

    /** Recall against total tokens, one labelled point per condition. */
    static String chart(EvalReport report) {
        int width = 560;
        int height = 360;
        int left = 60;
        int bottom = 300;
        long maxTokens = Math.max(1, report.conditions().stream().mapToLong(EvalReport.ConditionSummary::tokens).max()
                .orElse(1));
        StringBuilder svg = new StringBuilder();
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"")
                .append(height).append("\" font-family=\"sans-serif\" font-size=\"12\">\n")
                .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n")
                .append("<text x=\"").append(width / 2).append("\" y=\"20\" text-anchor=\"middle\">Recall vs tokens: ")
                .append(escape(report.model())).append("</text>\n")
                .append(line(left, bottom, width - 20, bottom)).append(line(left, bottom, left, 40))
                .append("<text x=\"").append(width / 2).append("\" y=\"340\" text-anchor=\"middle\">total tokens (max ")
                .append(maxTokens).append(")</text>\n")
                .append("<text x=\"15\" y=\"170\" transform=\"rotate(-90 15 170)\" text-anchor=\"middle\">recall</text>\n");
        for (int tick = 0; tick <= 4; tick++) {
            int y = bottom - tick * 65;
            svg.append("<text x=\"").append(left - 8).append("\" y=\"").append(y + 4).append("\" text-anchor=\"end\">")
                    .append(tick * 25).append("%</text>\n");
        }
        String[] colours = {"#1f77b4", "#d62728", "#2ca02c"};
        int i = 0;
        for (EvalReport.ConditionSummary c : report.conditions()) {
            double recall = Double.isNaN(c.recall()) ? 0 : c.recall();
            int x = left + (int) Math.round((width - 100) * (double) c.tokens() / maxTokens);
            int y = bottom - (int) Math.round(260 * recall);
            svg.append("<circle cx=\"").append(x).append("\" cy=\"").append(y).append("\" r=\"6\" fill=\"")
                    .append(colours[i++ % colours.length]).append("\"/>\n<text x=\"").append(x + 9).append("\" y=\"")
                    .append(y - 8).append("\">").append(c.condition().name().toLowerCase(Locale.ROOT)).append(' ')
                    .append(pct(c.recall())).append("</text>\n");
        }
        return svg.append("</svg>\n").toString();
    }

    private static String line(int x1, int y1, int x2, int y2) {
        return "<line x1=\"" + x1 + "\" y1=\"" + y1 + "\" x2=\"" + x2 + "\" y2=\"" + y2 + "\" stroke=\"black\"/>\n";
    }

    private static String pct(double rate) {
        return Double.isNaN(rate) ? "–" : String.format(Locale.ROOT, "%.0f %%", rate * 100);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
