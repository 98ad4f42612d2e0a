package dev.mnemo.eval;

import dev.mnemo.MemoryException;
import java.nio.file.Path;

/**
 * The run directory holds answers that this run cannot take over: another model's, another
 * scenario set's, or a run that never recorded whose they were. Resuming would report them under
 * this run's name. What to do: choose another run directory, or start afresh
 * ({@link MemoryEval.Builder#fresh(boolean)}), which discards the earlier run.
 */
public final class EvalRunMismatchException extends MemoryException {

    private static final long serialVersionUID = 1L;

    private final transient Path runDirectory;
    /**
     * What the directory holds and what this run is; see {@link #problem()}.
     */
    private final String problem;

    EvalRunMismatchException(Path runDirectory, String problem) {
        super(problem + " Choose another run directory, or build the eval with fresh(true) to discard the earlier"
                + " run and start over.");
        this.runDirectory = runDirectory;
        this.problem = problem;
    }

    /**
     * The directory that holds the earlier run.
     *
     * @return the earlier run's directory
     */
    public Path runDirectory() {
        return runDirectory;
    }

    /**
     * What the directory holds and what this run is, without the advice the message ends with: for
     * a front end that words its own (the CLI names its {@code --out} and {@code --fresh} flags).
     *
     * @return the problem, a sentence or two
     */
    public String problem() {
        return problem;
    }
}
