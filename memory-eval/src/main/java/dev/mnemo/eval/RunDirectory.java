package dev.mnemo.eval;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A run directory as every eval keeps it: a {@link RunRecord} says whose answers it holds, and a
 * run resumes there only when it is the same run; another model's, another input's or an
 * unrecorded run's answers are refused with an {@link EvalRunMismatchException}.
 */
final class RunDirectory {

    private static final Logger LOG = LoggerFactory.getLogger(RunDirectory.class);

    private RunDirectory() {}

    /**
     * Creates {@code dir}, or checks that the run it holds is {@code record}'s before anything in
     * it is reused; {@code fresh} deletes the earlier run's {@code runFiles} first (nothing else in
     * the directory). The record is written before the first model call.
     */
    static void prepare(Path dir, RunRecord record, List<String> runFiles, boolean fresh) {
        try {
            Files.createDirectories(dir);
            if (fresh) {
                deleteEarlierRun(dir, runFiles);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the run directory " + dir, e);
        }
        Optional<RunRecord> earlier = RunRecord.read(dir);
        if (earlier.isPresent()) {
            if (!earlier.get().sameRunAs(record)) {
                throw new EvalRunMismatchException(dir, mismatch(dir, earlier.get(), record));
            }
            LOG.info("eval: resuming the run of {} on {} in {}", record.describeModel(), record.describeScenarios(),
                    dir);
            return;
        }
        if (runFiles.stream().anyMatch(name -> Files.exists(dir.resolve(name)))) {
            throw new EvalRunMismatchException(dir, "The run directory " + dir + " holds an eval run"
                    + " that recorded neither its model nor its " + record.inputNoun() + " (there is no " + RunRecord.FILE + ", as in a"
                    + " run made before Mnemo kept one), so its answers may be another model's; this run is "
                    + record.describeModel() + " on " + record.describeScenarios() + ".");
        }
        record.write(dir);
    }

    private static String mismatch(Path dir, RunRecord earlier, RunRecord record) {
        String input = record.inputNoun();
        String what = earlier.sameModelAs(record) ? "another " + input
                : earlier.sameScenariosAs(record) ? "another model" : "another model and " + input;
        return "The run directory " + dir + " holds a run of " + what + ": " + earlier.describeModel()
                + " on " + earlier.describeScenarios() + "; this run is " + record.describeModel() + " on "
                + record.describeScenarios() + ". Resuming would report the earlier run's answers as this one's.";
    }

    private static void deleteEarlierRun(Path dir, List<String> runFiles) throws IOException {
        boolean deleted = false;
        for (String name : runFiles) {
            Path path = dir.resolve(name);
            if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(path)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(p);
                }
            }
            deleted = true;
        }
        if (deleted) {
            LOG.info("eval: starting afresh; the earlier run in {} is discarded", dir);
        }
    }
}
