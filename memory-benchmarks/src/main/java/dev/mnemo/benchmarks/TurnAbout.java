package dev.mnemo.benchmarks;

import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * The two sides of a ratio (Mnemo's and its reference) measured in one child JVM, turn about: the
 * {@code *_interleaved} lines. JMH measures each side in a fork of its own, one after the other,
 * and on this shared machine the speed of work that reads files through the kernel drifts by a
 * half within a minute (the plain-JDBC selection alone read 4.6 ms for fifteen seconds, then 2.9,
 * in fork after fork, with the JIT limited to C1 too), so the fork a side happens to get can
 * decide its JMH ratio more than the code does. Called turn about, the two sides meet the same drift.
 *
 * <p>A child runs {@code warm-up} rounds unmeasured, then the measured rounds, each calling both
 * sides once, the order alternating, and checking what each returned; each side's figure is the
 * median of its rounds. It prints the two medians in nanoseconds, Mnemo's first.
 */
final class TurnAbout {

    /** Measured rounds with {@code --quick}, and without. */
    static final int QUICK_ROUNDS = 51;
    static final int FULL_ROUNDS = 201;

    private TurnAbout() {}

    /** One call of a side; returns what it found, for the check. */
    @FunctionalInterface
    interface Side {
        Object call() throws Exception;
    }

    /** Throws when a side's answer is not the one both sides must give. */
    @FunctionalInterface
    interface Check {
        void check(Object found);
    }

    /** In the child: the rounds, then the two medians printed on one line (nanoseconds, Mnemo's first). */
    static void printMedians(int warmupRounds, int rounds, Side mnemo, Side reference, Check check) throws Exception {
        long[] mnemoTimes = new long[rounds];
        long[] referenceTimes = new long[rounds];
        for (int i = -warmupRounds; i < rounds; i++) {
            boolean mnemoFirst = (i & 1) == 0;
            long first = time(mnemoFirst ? mnemo : reference, check);
            long second = time(mnemoFirst ? reference : mnemo, check);
            if (i >= 0) {
                mnemoTimes[i] = mnemoFirst ? first : second;
                referenceTimes[i] = mnemoFirst ? second : first;
            }
        }
        System.out.println((long) EngineOpenCold.median(mnemoTimes) + " " + (long) EngineOpenCold.median(referenceTimes));
    }

    private static long time(Side side, Check check) throws Exception {
        long start = System.nanoTime();
        Object found = side.call();
        long elapsed = System.nanoTime() - start;
        check.check(found);
        return elapsed;
    }

    /**
     * In the parent: when {@code name} is selected, runs {@code child}'s {@code main} with
     * {@code <warm-up rounds> <rounds>} and returns its summary line,
     * {@code <metric> <Mnemo's median> ms <the reference's> <ratio>}; otherwise nothing.
     */
    static List<String> measure(Predicate<String> selected, String name, Class<?> child, String metric,
            int warmupRounds, boolean quick) {
        if (!selected.test(name)) {
            return List.of();
        }
        List<String> command = List.of(EngineOpenCold.java(), "-Xms1g", "-Xmx2g",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", EngineOpenCold.ownJar(), child.getName(),
                String.valueOf(warmupRounds), String.valueOf(quick ? QUICK_ROUNDS : FULL_ROUNDS));
        String[] medians = EngineOpenCold.run(command).strip().split(" ");
        double mnemo = Double.parseDouble(medians[0]) / 1e6;
        double reference = Double.parseDouble(medians[1]) / 1e6;
        return List.of(String.format(Locale.ROOT, "%s %.3f ms %.3f %.2f", metric, mnemo, reference, mnemo / reference));
    }
}
