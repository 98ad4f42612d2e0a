package dev.mnemo.benchmarks;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * {@code spawn_descendants_interleaved}: the two sides of {@code spawn_descendants} (the engine's
 * {@code agentGraph().descendants} and the same recursive query over plain JDBC, on the one
 * {@link SpawnGraphBenchmarks.Tree}) measured in one child JVM, turn about. JMH runs the two sides
 * in forks one after the other; in one JVM they are level, while forks taken minutes apart gave
 * ratios from 0.99 to 1.34, so the fork a side happens to get decides the JMH figure more than the
 * code does.
 *
 * <p>{@link #WARMUP_ROUNDS} rounds unmeasured, then the measured rounds, each calling both sides
 * once, the order alternating; each side's figure is its median.
 */
public final class SpawnDescendantsInterleaved {

    static final int WARMUP_ROUNDS = 100;
    static final int QUICK_ROUNDS = 51;
    static final int FULL_ROUNDS = 201;

    private SpawnDescendantsInterleaved() {}

    /** The child: {@code <rounds>}; prints the two medians in nanoseconds, engine then plain JDBC. */
    public static void main(String[] args) throws SQLException {
        int rounds = Integer.parseInt(args[0]);
        SpawnGraphBenchmarks.Tree tree = new SpawnGraphBenchmarks.Tree();
        tree.setUp();
        try {
            SpawnGraphBenchmarks sides = new SpawnGraphBenchmarks();
            long[] engine = new long[rounds];
            long[] plain = new long[rounds];
            for (int i = -WARMUP_ROUNDS; i < rounds; i++) {
                boolean engineFirst = (i & 1) == 0;
                long a = engineFirst ? timeEngine(sides, tree) : timePlain(sides, tree);
                long b = engineFirst ? timePlain(sides, tree) : timeEngine(sides, tree);
                if (i >= 0) {
                    engine[i] = engineFirst ? a : b;
                    plain[i] = engineFirst ? b : a;
                }
            }
            System.out.println((long) EngineOpenCold.median(engine) + " " + (long) EngineOpenCold.median(plain));
        } finally {
            tree.tearDown();
        }
    }

    private static long timeEngine(SpawnGraphBenchmarks sides, SpawnGraphBenchmarks.Tree tree) {
        long start = System.nanoTime();
        int found = sides.spawnDescendants(tree).size();
        long elapsed = System.nanoTime() - start;
        requireWholeTree(found);
        return elapsed;
    }

    private static long timePlain(SpawnGraphBenchmarks sides, SpawnGraphBenchmarks.Tree tree) throws SQLException {
        long start = System.nanoTime();
        int found = sides.spawnDescendantsReference(tree).size();
        long elapsed = System.nanoTime() - start;
        requireWholeTree(found);
        return elapsed;
    }

    private static void requireWholeTree(int found) {
        if (found != SpawnGraphBenchmarks.TREE_NODES) {
            throw new IllegalStateException(found + " descendants, expected " + SpawnGraphBenchmarks.TREE_NODES);
        }
    }

    /** Runs the child when {@code SpawnDescendantsInterleaved.measure} is selected; returns the summary line. */
    static List<String> measure(Predicate<String> selected, boolean quick) {
        List<String> lines = new ArrayList<>();
        if (!selected.test("SpawnDescendantsInterleaved.measure")) {
            return lines;
        }
        List<String> command = List.of(EngineOpenCold.java(), "-Xms1g", "-Xmx2g",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", EngineOpenCold.ownJar(),
                SpawnDescendantsInterleaved.class.getName(), String.valueOf(quick ? QUICK_ROUNDS : FULL_ROUNDS));
        String[] medians = EngineOpenCold.run(command).strip().split(" ");
        double engine = Double.parseDouble(medians[0]) / 1e6;
        double plain = Double.parseDouble(medians[1]) / 1e6;
        lines.add(String.format(Locale.ROOT, "spawn_descendants_interleaved %.3f ms %.3f %.2f", engine, plain,
                engine / plain));
        return lines;
    }
}
