package dev.mnemo.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.BenchmarkList;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the JMH suite and writes the summary: one line a metric, {@code <metric> <value> <unit>
 * <reference-value> <ratio>}, the reference measured in the same run ({@code -} where the issue
 * names none). Arguments: {@code [--quick] [--include REGEX] [--out FILE]}.
 */
public final class BenchmarkSuite {

    private static final String PACKAGE = BenchmarkSuite.class.getPackageName() + ".";

    private BenchmarkSuite() {}

    public static void main(String[] args) throws RunnerException, IOException {
        boolean quick = false;
        String include = PACKAGE.replace(".", "\\.") + ".*";
        Path out = Path.of("memory-benchmarks/target/bench-summary.txt");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--include" -> include = args[++i];
                case "--out" -> out = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument '" + args[i]
                        + "'; usage: [--quick] [--include REGEX] [--out FILE]");
            }
        }
        ChainedOptionsBuilder options = new OptionsBuilder().include(include).forks(1).shouldFailOnError(true)
                .jvmArgsAppend("-Xms1g", "-Xmx2g", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                        "-Dmnemo.fixtures=" + BenchSupport.fixturesDir().toAbsolutePath());
        if (quick) {
            options.warmupIterations(1).warmupTime(TimeValue.seconds(1)).measurementIterations(3)
                    .measurementTime(TimeValue.seconds(1));
        } else {
            options.warmupIterations(3).warmupTime(TimeValue.seconds(2)).measurementIterations(5)
                    .measurementTime(TimeValue.seconds(2));
        }
        Pattern selected = Pattern.compile(include);
        Collection<RunResult> results = hasJmhBenchmark(include) ? new Runner(options.build()).run() : List.of();
        Map<String, Result<?>> byName = new HashMap<>();
        for (RunResult result : results) {
            byName.put(result.getParams().getBenchmark().substring(PACKAGE.length()), result.getPrimaryResult());
        }
        List<String> lines = summary(byName);
        lines.addAll(EngineOpenCold.measure(name -> selected.matcher(PACKAGE + name).find()));
        lines.addAll(McpInitializeCold.measure(name -> selected.matcher(PACKAGE + name).find()));
        lines.addAll(McpParallelCalls.measure(name -> selected.matcher(PACKAGE + name).find(), quick));
        lines.addAll(Phase1OverheadInterleaved.measure(name -> selected.matcher(PACKAGE + name).find(), quick));
        lines.addAll(SpawnDescendantsInterleaved.measure(name -> selected.matcher(PACKAGE + name).find(), quick));
        lines.addAll(SelectionInterleaved.measure(name -> selected.matcher(PACKAGE + name).find(), quick));
        lines.addAll(SearchInterleaved.measure(name -> selected.matcher(PACKAGE + name).find(), quick));
        lines.addAll(SelectionSimulation.measure(name -> selected.matcher(PACKAGE + name).find()));
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.write(out, lines, StandardCharsets.UTF_8);
        System.out.println();
        System.out.println("# " + out + " (" + (quick ? "quick" : "full") + " run)");
        lines.forEach(System.out::println);
    }

    static List<String> summary(Map<String, Result<?>> r) throws IOException {
        List<String> lines = new ArrayList<>();
        Result<?> submit = r.get("StartupSubmitBenchmark.submit");
        if (submit != null) {
            lines.add(line("startup_submit", p99Micros(submit), "us_p99", null));
        }
        pair(lines, r, "instructions", "ReadPathBenchmarks.instructions", 1e3, "us");
        pair(lines, r, "instructions_project", "ProjectInstructionsBenchmark.instructionsProject", 1e3, "us");
        pair(lines, r, "instructions_project_miss", "ProjectInstructionsBenchmark.instructionsProjectMiss", 1e3, "us");
        throughput(lines, r, "citation_stream", "ReadPathBenchmarks.citationStream",
                ReadPathBenchmarks.answerBytes(ReadPathBenchmarks.answerChunks()));
        throughput(lines, r, "rollout_render", "RolloutRenderBenchmark.render", RolloutRenderBenchmark.totalBytes());
        throughput(lines, r, "token_count", "TokenCountBenchmark.count", TokenCountBenchmark.totalBytes());
        if (r.containsKey("TokenCountBenchmark.count")) {
            TokenCountBenchmark.Totals tokens = TokenCountBenchmark.totals();
            lines.add(line("token_count_tokens", tokens.exact(), "tokens", (double) tokens.estimated()));
        }
        pair(lines, r, "claim", "StoreBenchmarks.claim", 1e6, "ms");
        pair(lines, r, "selection", "StoreBenchmarks.selection", 1e6, "ms");
        pair(lines, r, "workspace_diff", "WorkspaceBenchmarks.workspaceDiff", 1e6, "ms");
        pair(lines, r, "search", "WorkspaceBenchmarks.search", 1e6, "ms");
        // Thread logs on against off (the reference); alone when only the logs-on run was selected.
        Result<?> overhead = r.get("Phase1Benchmarks.phase1Overhead");
        Result<?> overheadOff = r.get("Phase1Benchmarks.phase1OverheadReference");
        if (overhead != null) {
            double perJob = 1e6 * Phase1Benchmarks.OVERHEAD_ROLLOUTS;
            lines.add(line("phase1_overhead", nanos(overhead) / perJob, "ms_per_job",
                    overheadOff == null ? null : nanos(overheadOff) / perJob));
        }
        // Phase 1 per MB of a session larger than the window, read in parts; reference: one request.
        pair(lines, r, "phase1_chunked", "Phase1ChunkingBenchmark.phase1Chunked",
                1e6 * Phase1ChunkingBenchmark.SESSION_MB, "ms_per_mb");
        Result<?> concurrency = r.get("Phase1Benchmarks.phase1Concurrency");
        if (concurrency != null) {
            double ideal = (double) Phase1Benchmarks.CONCURRENCY_ROLLOUTS / 8 * Phase1Benchmarks.MODEL_LATENCY_MS / 1e3;
            lines.add(line("phase1_concurrency", nanos(concurrency) / 1e9, "s", ideal));
        }
        rate(lines, r, "log_ingest", "ThreadLogBenchmarks.logIngest", ThreadLogBenchmarks.BURST, "entries_per_s");
        pair(lines, r, "spawn_descendants", "SpawnGraphBenchmarks.spawnDescendants", 1e6, "ms");
        Result<?> receipt = r.get("ReceiptBenchmark.receipt");
        if (receipt != null) {
            lines.add(line("receipt_per_turn", nanos(receipt) / 1e3, "us", null));
        }
        // The p99 of a history append on the caller's thread, 8 conversations at once; reference: one alone.
        Result<?> history = r.get("HistoryAppendBenchmark.append");
        if (history != null) {
            Result<?> alone = r.get("HistoryAppendBenchmark.appendAlone");
            lines.add(line("history_append", p99Micros(history), "us_p99", alone == null ? null : p99Micros(alone)));
        }
        // The OpenTelemetry listener's handling of one turn's operations; reference: a listener that does nothing.
        Result<?> unheard = r.get("OpenTelemetryListenerBenchmark.noopReference");
        for (String[] metric : new String[][] {{"otel_listener_noop", "OpenTelemetryListenerBenchmark.noop"},
                {"otel_listener_sdk", "OpenTelemetryListenerBenchmark.sdk"}}) {
            Result<?> value = r.get(metric[1]);
            if (value != null) {
                lines.add(line(metric[0], nanos(value) / 1e3, "us", unheard == null ? null : nanos(unheard) / 1e3));
            }
        }
        Result<?> warm = r.get("EngineOpenBenchmark.warm");
        if (warm != null) {
            lines.add(line("engine_open_warm", nanos(warm) / 1e6, "ms", null));
        }
        fleet(lines, r);
        return lines;
    }

    /** Fleet mode (PostgreSQL): no reference benchmark; compare with the SQLite lines above. */
    private static void fleet(List<String> lines, Map<String, Result<?>> r) {
        for (String[] metric : new String[][] {{"fleet_claim", "FleetBenchmarks.claim"},
                {"fleet_selection", "FleetBenchmarks.selection"}, {"fleet_engine_open", "FleetBenchmarks.engineOpen"}}) {
            Result<?> value = r.get(metric[1]);
            if (value != null) {
                lines.add(line(metric[0], nanos(value) / 1e6, "ms", null));
            }
        }
        Result<?> instructions = r.get("FleetBenchmarks.instructions");
        if (instructions != null) {
            double scale = nanosPer(instructions.getScoreUnit()) / 1e3;
            lines.add(line("fleet_instructions", instructions.getStatistics().getPercentile(50.0) * scale, "us_p50",
                    null));
            lines.add(line("fleet_instructions", instructions.getStatistics().getPercentile(99.0) * scale, "us_p99",
                    null));
            Result<?> query = r.get("FleetBenchmarks.instructionsReference");
            if (query != null) {
                double queryScale = nanosPer(query.getScoreUnit()) / 1e3;
                lines.add(line("fleet_instructions_vs_query", instructions.getStatistics().getPercentile(50.0) * scale,
                        "us_p50", query.getStatistics().getPercentile(50.0) * queryScale));
            }
        }
        Result<?> phase1 = r.get("FleetBenchmarks.phase1");
        if (phase1 != null) {
            lines.add(line("fleet_phase1", FleetBenchmarks.PHASE1_ROLLOUTS / (nanos(phase1) / 1e9), "jobs_per_s",
                    null));
        }
    }

    /** True when {@code include} selects a JMH benchmark (JMH refuses to run an empty selection). */
    private static boolean hasJmhBenchmark(String include) {
        OutputFormat silent = OutputFormatFactory.createFormatInstance(System.out, VerboseMode.SILENT);
        return !BenchmarkList.defaultList().find(silent, List.of(include), List.of()).isEmpty();
    }

    /** A time metric beside its {@code <name>Reference} benchmark; ratio = time / reference time. */
    private static void pair(List<String> lines, Map<String, Result<?>> r, String metric, String name, double scale,
            String unit) {
        Result<?> value = r.get(name);
        Result<?> reference = r.get(name + "Reference");
        if (value != null && reference != null) {
            lines.add(line(metric, nanos(value) / scale, unit, nanos(reference) / scale));
        }
    }

    /** A throughput metric in MB/s over {@code bytes}; ratio = time / reference time. */
    private static void throughput(List<String> lines, Map<String, Result<?>> r, String metric, String name, long bytes) {
        Result<?> value = r.get(name);
        Result<?> reference = r.get(name + "Reference");
        if (value != null && reference != null) {
            double mb = bytes / 1e6;
            double mbps = mb / (nanos(value) / 1e9);
            double refMbps = mb / (nanos(reference) / 1e9);
            lines.add(String.format(Locale.ROOT, "%s %.1f MB/s %.1f %.2f", metric, mbps, refMbps, refMbps / mbps));
        }
    }

    /**
     * A rate of {@code items} per call, per second, beside its {@code <name>Reference} benchmark;
     * ratio = time / reference time (reference rate over this rate), so lower is better, as for MB/s.
     */
    private static void rate(List<String> lines, Map<String, Result<?>> r, String metric, String name, int items,
            String unit) {
        Result<?> value = r.get(name);
        Result<?> reference = r.get(name + "Reference");
        if (value != null && reference != null) {
            double perSecond = items / (nanos(value) / 1e9);
            double refPerSecond = items / (nanos(reference) / 1e9);
            lines.add(String.format(Locale.ROOT, "%s %.0f %s %.0f %.2f", metric, perSecond, unit, refPerSecond,
                    refPerSecond / perSecond));
        }
    }

    private static String line(String metric, double value, String unit, Double reference) {
        if (reference == null) {
            return String.format(Locale.ROOT, "%s %.3f %s - -", metric, value, unit);
        }
        return String.format(Locale.ROOT, "%s %.3f %s %.3f %.2f", metric, value, unit, reference, value / reference);
    }

    private static double p99Micros(Result<?> sampled) {
        return sampled.getStatistics().getPercentile(99.0) * nanosPer(sampled.getScoreUnit()) / 1e3;
    }

    private static double nanos(Result<?> result) {
        return result.getScore() * nanosPer(result.getScoreUnit());
    }

    private static double nanosPer(String unit) {
        String time = unit.split("/")[0];
        return switch (time) {
            case "ns" -> 1;
            case "us" -> 1e3;
            case "ms" -> 1e6;
            case "s" -> 1e9;
            default -> throw new IllegalArgumentException("unexpected score unit " + unit);
        };
    }
}
