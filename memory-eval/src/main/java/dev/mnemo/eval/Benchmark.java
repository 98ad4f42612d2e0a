package dev.mnemo.eval;

import java.nio.file.Path;
import java.util.Locale;

/**
 * A published long-term memory benchmark whose file the user downloads and {@link BenchmarkRun}
 * reads: its conversations go through Mnemo's pipeline and its questions are graded by a model
 * judge following the benchmark's own protocol. No benchmark data ships with Mnemo.
 */
public enum Benchmark {
    /**
     * LoCoMo ({@code locomo10.json}, snap-research/locomo): ten long two-person conversations, each
     * with its questions in categories 1 to 5; category 5 (adversarial) is reported apart.
     */
    LOCOMO,
    /**
     * LongMemEval ({@code longmemeval_s_cleaned.json}, xiaowu0162/LongMemEval): one question per
     * entry, each with its own haystack of dated chat sessions; ids ending {@code _abs} ask for an
     * abstention.
     */
    LONGMEMEVAL;

    /**
     * The benchmark named {@code name} ({@code locomo}, {@code longmemeval}; case ignored).
     *
     * @param name {@code locomo} or {@code longmemeval}, in any case, surrounding blanks ignored
     * @return the benchmark
     * @throws IllegalArgumentException when no benchmark has that name
     */
    public static Benchmark named(String name) {
        for (Benchmark b : values()) {
            if (b.id().equals(name.strip().toLowerCase(Locale.ROOT))) {
                return b;
            }
        }
        throw new IllegalArgumentException("no benchmark '" + name + "'; choose locomo or longmemeval");
    }

    /**
     * {@code locomo} or {@code longmemeval}.
     *
     * @return the benchmark's id, lower case
     */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Reads the published file. */
    BenchmarkSet read(Path file) {
        return switch (this) {
            case LOCOMO -> LocomoReader.read(file);
            case LONGMEMEVAL -> LongMemEvalReader.read(file);
        };
    }
}
