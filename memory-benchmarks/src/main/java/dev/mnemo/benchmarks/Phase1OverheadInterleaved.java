package dev.mnemo.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * {@code phase1_overhead_interleaved}: the two sides of {@code phase1_overhead} (thread logs on and
 * off, {@link Phase1Benchmarks}' states and loop) measured in one child JVM, turn about, so that a
 * shared machine's load changes both alike. JMH runs the two sides in forks one after the other, and
 * on a loaded machine their means moved by ±50 % between runs, too much to judge a 5 % target.
 *
 * <p>Both homes are built first; then rounds unmeasured until the JIT has settled, and the measured
 * rounds, each round extracting all 1,000 rollouts once on each engine, the order alternating
 * (on-off, off-on). The logs-on side is checked after every round as in the JMH benchmark (every
 * thread has its entry). Two lines: wall time ({@code phase1_overhead_interleaved}) and the
 * process's CPU time over the same rounds ({@code phase1_overhead_cpu}), which counts the log
 * writer's thread too and moves less with the machine's load than wall time does.
 *
 * <p>Each side's figure is the mean of its rounds less the highest and the lowest. The process's
 * CPU time is counted in the kernel's 10 ms ticks, a twenty-fourth of a round, so a median could
 * only read 1.00×, 1.04×, 1.09×…; a trimmed mean is counted to the tick over all the rounds and
 * still ignores one odd round each way. A full run takes {@link #FULL_CHILDREN} such child JVMs in
 * turn and reports, for each line, the child whose ratio is the median.
 *
 * <p>The process's CPU time also counts the JIT's compiler threads, and a fixed six rounds of
 * warm-up left them compiling for 20–430 ms a round well into the measured rounds (a round is
 * about 250 ms of CPU), more than the 5 % being judged, on whichever side was running; the log
 * writer's code, run a few times a round, is among the last to be compiled. What a steady state
 * costs is the figure, so the warm-up goes on, from {@link #MIN_WARMUP_ROUNDS} to at
 * most {@link #MAX_WARMUP_ROUNDS} rounds, until {@link #QUIET_ROUNDS} rounds in a row compiled
 * for at most {@link #QUIET_COMPILATION_SHARE} of their CPU time; the compilation time of the
 * measured rounds is printed with the result, so a run that never settled says so.
 *
 * <p>Even settled, the compiler threads went on compiling for 2–25 ms a round, as much as the whole
 * difference the target allows, mostly on the logs-on side, which has more code to compile and
 * takes longer to finish (15 rounds: 396 against 191 ms; 139 against 164 ms), a cost a long-running
 * process pays once. So {@code phase1_overhead_cpu} is the process's CPU
 * time less what its JIT compiler threads ran during the round (their own CPU time, read from
 * Linux's {@code /proc/self/task/<id>/schedstat}; where that cannot be read, nothing is taken off
 * and the run says so): what running Phase 1 costs once its code is compiled, the collector's time
 * included. The process's whole CPU time is reported too, as {@code phase1_overhead_cpu_with_jit}.
 */
public final class Phase1OverheadInterleaved {

    static final int MIN_WARMUP_ROUNDS = 12;
    static final int MAX_WARMUP_ROUNDS = 60;
    /** Warm-up rounds in a row (both sides) whose compilation share must be under {@link #QUIET_COMPILATION_SHARE}. */
    static final int QUIET_ROUNDS = 5;
    /** The share of a round's process CPU time the JIT may still spend compiling in a settled round. */
    static final double QUIET_COMPILATION_SHARE = 0.03;
    static final int QUICK_ROUNDS = 7;
    static final int FULL_ROUNDS = 15;
    /**
     * Child JVMs a run takes the median of. One child's ratio moved by up to 0.08 from the next
     * one's on the same code (1.05 to 1.13 in four children in a row), more than the rounds within
     * a child explain: each JVM compiles and lays out the code its own way.
     */
    static final int FULL_CHILDREN = 3;
    static final int QUICK_CHILDREN = 1;

    /** Indexes of what {@link #measured} takes of a round. */
    private static final int WALL = 0;
    private static final int CPU = 1;
    private static final int COMPILING_MILLIS = 2;
    private static final int COMPILER_CPU = 3;

    private Phase1OverheadInterleaved() {}

    /**
     * The child: {@code <rounds>}; prints six trimmed means in nanoseconds, logs on then off for
     * each: wall time, process CPU time less the JIT compiler threads', and the process's whole CPU
     * time (every thread: Phase 1's, the log writer's, the collector's and the JIT's).
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

    /** The rounds, turn about; returns the six trimmed means, space-separated. */
    private static String interleave(Phase1Benchmarks.OverheadState on, Phase1Benchmarks.OverheadLogsOffState off,
            int rounds) {
        int warmup = warmUp(on, off);
        long[][][] sides = new long[2][3][rounds]; // {on, off} x {wall, CPU less the JIT's, CPU} x rounds
        long[] compilingMillis = new long[2];
        long[] compilerNanos = new long[2];
        for (int i = 0; i < rounds; i++) {
            long[][] pair = pair(on, off, i);
            for (int side = 0; side < 2; side++) {
                long[] round = pair[side];
                sides[side][0][i] = round[WALL];
                sides[side][1][i] = round[CPU] - round[COMPILER_CPU];
                sides[side][2][i] = round[CPU];
                compilingMillis[side] += round[COMPILING_MILLIS];
                compilerNanos[side] += round[COMPILER_CPU];
            }
        }
        System.err.printf(Locale.ROOT, "phase1_overhead_interleaved: %d rounds of warm-up; during the %d measured"
                + " rounds the JIT compiled for %d ms with logs on, %d ms with logs off (its threads' CPU: %.0f and"
                + " %.0f ms%s)%n", warmup, rounds, compilingMillis[0], compilingMillis[1], compilerNanos[0] / 1e6,
                compilerNanos[1] / 1e6, compilerNanos[0] + compilerNanos[1] == 0 ? ", not readable here: nothing taken off" : "");
        StringBuilder means = new StringBuilder();
        for (int metric = 0; metric < 3; metric++) {
            means.append(trimmedMean(sides[0][metric])).append(' ').append(trimmedMean(sides[1][metric])).append(' ');
        }
        return means.toString().strip();
    }

    /**
     * Unmeasured rounds until the JIT has settled ({@link #QUIET_ROUNDS} rounds in a row under
     * {@link #QUIET_COMPILATION_SHARE}), {@link #MIN_WARMUP_ROUNDS} at least and
     * {@link #MAX_WARMUP_ROUNDS} at most; returns how many ran.
     */
    private static int warmUp(Phase1Benchmarks.OverheadState on, Phase1Benchmarks.OverheadLogsOffState off) {
        int quiet = 0;
        int round = 0;
        while (round < MAX_WARMUP_ROUNDS && (round < MIN_WARMUP_ROUNDS || quiet < QUIET_ROUNDS)) {
            long[][] pair = pair(on, off, -1 - round);
            double cpuMillis = (pair[0][CPU] + pair[1][CPU]) / 1e6;
            quiet = pair[0][COMPILING_MILLIS] + pair[1][COMPILING_MILLIS] <= QUIET_COMPILATION_SHARE * cpuMillis
                    ? quiet + 1 : 0;
            round++;
        }
        return round;
    }

    /**
     * One round: both sides, the order alternating with the round's number; returns {logs on, logs
     * off}, each as {@link #measured} gives it.
     */
    private static long[][] pair(Phase1Benchmarks.OverheadState on, Phase1Benchmarks.OverheadLogsOffState off,
            int round) {
        boolean onFirst = (round & 1) == 0;
        long[] first = onFirst ? timeOn(on) : timeOff(off);
        long[] second = onFirst ? timeOff(off) : timeOn(on);
        long[] logsOn = onFirst ? first : second;
        long[] logsOff = onFirst ? second : first;
        System.err.printf(Locale.ROOT, "phase1_overhead_interleaved round %d: logs on %.1f ms (CPU %.1f ms, JIT %d"
                + " ms, %.1f ms of CPU), off %.1f ms (CPU %.1f ms, JIT %d ms, %.1f ms of CPU)%n", round,
                logsOn[WALL] / 1e6, logsOn[CPU] / 1e6, logsOn[COMPILING_MILLIS], logsOn[COMPILER_CPU] / 1e6,
                logsOff[WALL] / 1e6, logsOff[CPU] / 1e6, logsOff[COMPILING_MILLIS], logsOff[COMPILER_CPU] / 1e6);
        return new long[][] {logsOn, logsOff};
    }

    /** Milliseconds the JIT's compiler threads have spent compiling since the JVM started. */
    private static long compilationMillis() {
        return ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    }

    /** One extraction of every rollout, logs on (flush included), as {@link #measured} gives it. */
    private static long[] timeOn(Phase1Benchmarks.OverheadState state) {
        state.forget();
        long[] round = measured(() -> new Phase1Benchmarks().phase1Overhead(state));
        state.checkLogsWritten();
        return round;
    }

    private static long[] timeOff(Phase1Benchmarks.OverheadLogsOffState state) {
        state.forget();
        return measured(() -> new Phase1Benchmarks().phase1OverheadReference(state));
    }

    /**
     * Runs {@code extraction}; returns its wall and process CPU nanoseconds, the JIT's compilation
     * milliseconds and its compiler threads' CPU nanoseconds meanwhile (indexes {@link #WALL},
     * {@link #CPU}, {@link #COMPILING_MILLIS}, {@link #COMPILER_CPU}). The compiler threads are read
     * outside the process's CPU time, so that reading them costs the round nothing.
     */
    private static long[] measured(Runnable extraction) {
        long compiler = compilerThreadsNanos();
        long compiling = compilationMillis();
        long cpu = processCpuNanos();
        long start = System.nanoTime();
        extraction.run();
        long wall = System.nanoTime() - start;
        long[] round = {wall, processCpuNanos() - cpu, compilationMillis() - compiling, 0};
        round[COMPILER_CPU] = compilerThreadsNanos() - compiler;
        return round;
    }

    /**
     * The CPU nanoseconds the JIT's compiler threads ({@code C1 CompilerThread0}… as Linux shortens
     * their names) have run, from each thread's {@code /proc/self/task/<id>/schedstat}; 0 where
     * there is no such file (not Linux). A compiler thread that ends between two readings (the JVM
     * adds and removes them with the load) is left out of the second, so at worst less is taken off.
     */
    static long compilerThreadsNanos() {
        long nanos = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    if (Files.readString(task.resolve("comm")).contains("CompilerThre")) {
                        String schedstat = Files.readString(task.resolve("schedstat"));
                        nanos += Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended between the listing and the reading
                }
            }
        } catch (IOException e) {
            return 0;
        }
        return nanos;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    /**
     * Runs the child when {@code Phase1OverheadInterleaved.measure} is selected, {@link #FULL_CHILDREN}
     * times in turn ({@link #QUICK_CHILDREN} with {@code --quick}); returns the summary lines, each
     * metric as the child whose ratio is the median of the children's. Every child's figures are
     * printed on standard error.
     */
    static List<String> measure(Predicate<String> selected, boolean quick) {
        List<String> lines = new ArrayList<>();
        if (!selected.test("Phase1OverheadInterleaved.measure")) {
            return lines;
        }
        List<String> command = new ArrayList<>(List.of(EngineOpenCold.java(), "-Xms1g", "-Xmx2g",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-Dmnemo.fixtures=" + BenchSupport.fixturesDir().toAbsolutePath(), "-cp", EngineOpenCold.ownJar(),
                Phase1OverheadInterleaved.class.getName(), String.valueOf(quick ? QUICK_ROUNDS : FULL_ROUNDS)));
        int children = quick ? QUICK_CHILDREN : FULL_CHILDREN;
        double[][] means = new double[children][];
        for (int child = 0; child < children; child++) {
            means[child] = Arrays.stream(EngineOpenCold.run(command).strip().split(" "))
                    .mapToDouble(mean -> Double.parseDouble(mean) / (1e6 * Phase1Benchmarks.OVERHEAD_ROLLOUTS))
                    .toArray();
        }
        String[] metrics = {"phase1_overhead_interleaved", "phase1_overhead_cpu", "phase1_overhead_cpu_with_jit"};
        for (int k = 0; k < metrics.length; k++) {
            int on = 2 * k;
            int off = on + 1;
            double[] median = medianChild(means, on, off);
            lines.add(String.format(Locale.ROOT, "%s %.3f ms_per_job %.3f %.2f", metrics[k], median[on], median[off],
                    median[on] / median[off]));
            StringBuilder ratios = new StringBuilder();
            for (double[] child : means) {
                ratios.append(String.format(Locale.ROOT, " %.3f", child[on] / child[off]));
            }
            System.err.println(metrics[k] + ": the children's ratios" + ratios);
        }
        return lines;
    }

    /** Of the children's figures, the one whose ratio {@code on / off} is the median (the lower middle of an even count). */
    private static double[] medianChild(double[][] children, int on, int off) {
        double[][] sorted = children.clone();
        Arrays.sort(sorted, Comparator.comparingDouble(child -> child[on] / child[off]));
        return sorted[(sorted.length - 1) / 2];
    }

    /** The mean of {@code values} less the highest and the lowest one. */
    private static long trimmedMean(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        long sum = 0;
        for (int i = 1; i < sorted.length - 1; i++) {
            sum += sorted[i];
        }
        return sum / (sorted.length - 2);
    }
}
