package dev.mnemo.benchmarks;

import java.util.List;
import java.util.function.Predicate;

/**
 * {@code search_interleaved}: the two sides of {@code search} ({@code memories_search} for a rare
 * string over the 50 MB workspace, and {@code grep -rF} for it in the same folder, on one
 * {@link WorkspaceBenchmarks.SearchState}) measured {@link TurnAbout turn about} in one child JVM.
 */
public final class SearchInterleaved {

    static final int WARMUP_ROUNDS = 100;

    private SearchInterleaved() {}

    /** The child: {@code <warm-up rounds> <rounds>}; prints the two medians in nanoseconds, Mnemo then grep. */
    public static void main(String[] args) throws Exception {
        WorkspaceBenchmarks.SearchState state = new WorkspaceBenchmarks.SearchState();
        state.setUp();
        try {
            WorkspaceBenchmarks sides = new WorkspaceBenchmarks();
            TurnAbout.printMedians(Integer.parseInt(args[0]), Integer.parseInt(args[1]),
                    () -> sides.search(state), () -> sides.searchReference(state), SearchInterleaved::requireNeedle);
        } finally {
            state.tearDown();
        }
    }

    private static void requireNeedle(Object found) {
        if (!found.toString().contains("summary-7.md")) {
            throw new IllegalStateException("the needle was not found: " + found);
        }
    }

    /** Runs the child when {@code SearchInterleaved.measure} is selected; returns the summary line. */
    static List<String> measure(Predicate<String> selected, boolean quick) {
        return TurnAbout.measure(selected, "SearchInterleaved.measure", SearchInterleaved.class,
                "search_interleaved", WARMUP_ROUNDS, quick);
    }
}
