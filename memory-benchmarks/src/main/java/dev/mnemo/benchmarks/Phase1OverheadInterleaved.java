package dev.mnemo.benchmarks;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * {@code phase1_overhead_interleaved}: the two sides of {@code phase1_overhead} (thread logs on and
 * off, {@link Phase1Benchmarks}' states and loop) measured in one child JVM, turn about, so that a
 * shared machine's load changes both alike. JMH runs the two sides in forks one after the other, and
 * on a loaded machine their means moved by ±50 % between runs, too much to judge a 5 % target.
 *
 * <p>Both homes are built first; then {@link #WARMUP_ROUNDS} rounds unmeasured and the measured
 * rounds, each round extracting all 1,000 rollouts once on each engine, the order alternating
 * (on-off, off-on). Each side's figure is its median; the logs-on side is checked after every round
 * as in the JMH benchmark (every thread has its entry). Two lines: wall time
 * ({@code phase1_overhead_interleaved}) and the process's CPU time over the same rounds
 * ({@code phase1_overhead_cpu}), which counts the log writer's thread too and moves less with the
 * machine's load than wall time does.
 */
public final class Phase1OverheadInterleaved {

    static final int WARMUP_ROUNDS = 6;
    static final int QUICK_ROUNDS = 5;
    static final int FULL_ROUNDS = 9;

    private Phase1OverheadInterleaved() {}

    /**
     * The child: {@code <rounds>}; prints four medians in nanoseconds: wall time logs on, off, then
     * process CPU time (every thread: Phase 1's, the log writer's, the collector's and the JIT's)
     * logs on, off.
     */
    public static void main(String[] args) {
        int rounds = Integer.parseInt(args[0]);
        Phase1Benchmarks.OverheadState on = new Phase1Benchmarks.OverheadState();
        Phase1Benchmarks.OverheadLogsOffState off = new Phase1Benchmarks.OverheadLogsOffState();
        on.setUp();
        try {
            off.setUp();
            try {
                System.out.println(interleave(on, off, rounds));
            } finally {
                off.tearDown();
            }
        } finally {
            on.tearDown();
        }
    }

    /** The rounds, turn about; returns the four medians, space-separated. */
    private static String interleave(Phase1Benchmarks.OverheadState on, Phase1Benchmarks.OverheadLogsOffState off,
            int rounds) {
        long[][] onNanos = new long[2][rounds];
        long[][] offNanos = new long[2][rounds];
        for (int i = -WARMUP_ROUNDS; i < rounds; i++) {
            boolean onFirst = (i & 1) == 0;
            long[] first = onFirst ? timeOn(on) : timeOff(off);
            long[] second = onFirst ? timeOff(off) : timeOn(on);
            long[] logsOn = onFirst ? first : second;
            long[] logsOff = onFirst ? second : first;
            System.err.printf(Locale.ROOT, "phase1_overhead_interleaved round %d: logs on %.1f ms (CPU %.1f ms),"
                    + " off %.1f ms (CPU %.1f ms)%n", i, logsOn[0] / 1e6, logsOn[1] / 1e6, logsOff[0] / 1e6,
                    logsOff[1] / 1e6);
            if (i >= 0) {
                for (int k = 0; k < 2; k++) {
                    onNanos[k][i] = logsOn[k];
                    offNanos[k][i] = logsOff[k];
                }
            }
        }
        return median(onNanos[0]) + " " + median(offNanos[0]) + " " + median(onNanos[1]) + " " + median(offNanos[1]);
    }

    /** Wall and process CPU nanoseconds of one extraction of every rollout, logs on (flush included). */
    private static long[] timeOn(Phase1Benchmarks.OverheadState state) {
        state.forget();
        long cpu = processCpuNanos();
        long start = System.nanoTime();
        new Phase1Benchmarks().phase1Overhead(state);
        long[] elapsed = {System.nanoTime() - start, processCpuNanos() - cpu};
        state.checkLogsWritten();
        return elapsed;
    }

    private static long[] timeOff(Phase1Benchmarks.OverheadLogsOffState state) {
        state.forget();
        long cpu = processCpuNanos();
        long start = System.nanoTime();
        new Phase1Benchmarks().phase1OverheadReference(state);
        return new long[] {System.nanoTime() - start, processCpuNanos() - cpu};
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /** Runs the child when {@code Phase1OverheadInterleaved.measure} is selected; returns the summary line. */
    static List<String> measure(Predicate<String> selected, boolean quick) {
        List<String> lines = new ArrayList<>();
        if (!selected.test("Phase1OverheadInterleaved.measure")) {
            return lines;
        }
        List<String> command = new ArrayList<>(List.of(EngineOpenCold.java(), "-Xms1g", "-Xmx2g",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dmnemo.fixtures=" + BenchSupport.fixturesDir().toAbsolutePath(), "-cp", EngineOpenCold.ownJar(),
                Phase1OverheadInterleaved.class.getName(), String.valueOf(quick ? QUICK_ROUNDS : FULL_ROUNDS)));
        String[] medians = EngineOpenCold.run(command).strip().split(" ");
        double perJob = 1e6 * Phase1Benchmarks.OVERHEAD_ROLLOUTS;
        String[] metrics = {"phase1_overhead_interleaved", "phase1_overhead_cpu"};
        for (int k = 0; k < 2; k++) {
            double logsOn = Double.parseDouble(medians[2 * k]) / perJob;
            double logsOff = Double.parseDouble(medians[2 * k + 1]) / perJob;
            lines.add(String.format(Locale.ROOT, "%s %.3f ms_per_job %.3f %.2f", metrics[k], logsOn, logsOff,
                    logsOn / logsOff));
        }
        return lines;
    }

    private static long median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }
}
