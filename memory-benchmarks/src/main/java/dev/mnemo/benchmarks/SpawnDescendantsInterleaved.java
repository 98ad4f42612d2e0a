package dev.mnemo.benchmarks;

import java.util.List;
import java.util.function.Predicate;

/**
 * {@code spawn_descendants_interleaved}: the two sides of {@code spawn_descendants} (the engine's
 * {@code agentGraph().descendants} and the same recursive query over plain JDBC, on the one
 * {@link SpawnGraphBenchmarks.Tree}) measured {@link TurnAbout turn about} in one child JVM. In one
 * JVM they are level, while JMH's forks taken minutes apart gave ratios from 0.99 to 1.34.
 */
public final class SpawnDescendantsInterleaved {

    static final int WARMUP_ROUNDS = 100;

    private SpawnDescendantsInterleaved() {}

    /** The child: {@code <warm-up rounds> <rounds>}; prints the two medians in nanoseconds, engine then plain JDBC. */
    public static void main(String[] args) throws Exception {
        SpawnGraphBenchmarks.Tree tree = new SpawnGraphBenchmarks.Tree();
        tree.setUp();
        try {
            SpawnGraphBenchmarks sides = new SpawnGraphBenchmarks();
            TurnAbout.printMedians(Integer.parseInt(args[0]), Integer.parseInt(args[1]),
                    () -> sides.spawnDescendants(tree), () -> sides.spawnDescendantsReference(tree),
                    SpawnDescendantsInterleaved::requireWholeTree);
        } finally {
            tree.tearDown();
        }
    }

    private static void requireWholeTree(Object found) {
        int size = ((List<?>) found).size();
        if (size != SpawnGraphBenchmarks.TREE_NODES) {
            throw new IllegalStateException(size + " descendants, expected " + SpawnGraphBenchmarks.TREE_NODES);
        }
    }

    /** Runs the child when {@code SpawnDescendantsInterleaved.measure} is selected; returns the summary line. */
    static List<String> measure(Predicate<String> selected, boolean quick) {
        return TurnAbout.measure(selected, "SpawnDescendantsInterleaved.measure", SpawnDescendantsInterleaved.class,
                "spawn_descendants_interleaved", WARMUP_ROUNDS, quick);
    }
}
