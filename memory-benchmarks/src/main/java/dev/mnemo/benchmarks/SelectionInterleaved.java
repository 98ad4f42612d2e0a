package dev.mnemo.benchmarks;

import dev.mnemo.spi.Stage1Output;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * {@code selection_interleaved}: the two sides of {@code selection} (the store's Phase 2 selection
 * of 256 over 100,000 threads, and the same statement over plain JDBC, on one
 * {@link StoreBenchmarks.SelectionState}) measured {@link TurnAbout turn about} in one child JVM.
 * Both sides spend most of a call reading the file's pages through the kernel (the 63 MB file
 * against SQLite's 2 MB page cache a connection), which is where this machine's speed drifts.
 */
public final class SelectionInterleaved {

    static final int WARMUP_ROUNDS = 300;

    private SelectionInterleaved() {}

    /** The child: {@code <warm-up rounds> <rounds>}; prints the two medians in nanoseconds, store then plain JDBC. */
    public static void main(String[] args) throws Exception {
        StoreBenchmarks.SelectionState state = new StoreBenchmarks.SelectionState();
        state.setUp();
        try {
            StoreBenchmarks sides = new StoreBenchmarks();
            requireSameMemories(sides.selection(state), sides.selectionReference(state));
            TurnAbout.printMedians(Integer.parseInt(args[0]), Integer.parseInt(args[1]),
                    () -> sides.selection(state), () -> sides.selectionReference(state),
                    SelectionInterleaved::requireFullSelection);
        } finally {
            state.tearDown();
        }
    }

    private static void requireSameMemories(List<Stage1Output> store, List<String> reference) {
        Set<String> storeIds = store.stream().map(Stage1Output::threadId).collect(Collectors.toSet());
        // Each reference row is the thread id followed by the other columns; the ids have one length.
        int idLength = store.get(0).threadId().length();
        Set<String> referenceIds = reference.stream().map(row -> row.substring(0, idLength))
                .collect(Collectors.toSet());
        if (!storeIds.equals(referenceIds)) {
            throw new IllegalStateException("the store and the plain statement selected different memories");
        }
    }

    private static void requireFullSelection(Object found) {
        int size = ((List<?>) found).size();
        if (size != StoreBenchmarks.SELECTION) {
            throw new IllegalStateException(size + " memories selected, expected " + StoreBenchmarks.SELECTION);
        }
    }

    /** Runs the child when {@code SelectionInterleaved.measure} is selected; returns the summary line. */
    static List<String> measure(Predicate<String> selected, boolean quick) {
        return TurnAbout.measure(selected, "SelectionInterleaved.measure", SelectionInterleaved.class,
                "selection_interleaved", WARMUP_ROUNDS, quick);
    }
}
