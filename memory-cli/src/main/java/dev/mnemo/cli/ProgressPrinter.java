package dev.mnemo.cli;

import dev.mnemo.Phase1JobOutcome;
import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.Phase2Report;
import dev.mnemo.SkipReason;
import dev.mnemo.StartupReport;
import dev.mnemo.spi.MemoryEventListener;
import java.io.PrintWriter;
import java.util.Optional;

/** Prints the pipeline's progress as it happens (silent with {@code -q}) and the final summaries. */
final class ProgressPrinter implements MemoryEventListener {

    private final PrintWriter out;
    private final boolean quiet;

    ProgressPrinter(PrintWriter out, boolean quiet) {
        this.out = out;
        this.quiet = quiet;
    }

    private synchronized void line(String text) {
        if (!quiet) {
            out.println(text);
            out.flush();
        }
    }

    @Override
    public void startupSkipped(SkipReason reason) {
        line("startup skipped: " + reason);
    }

    @Override
    public void threadsSynced(int changed) {
        line("threads synced: " + changed + " added or changed");
    }

    @Override
    public void phase1Claimed(int count) {
        line("phase 1: claimed " + count + " rollout(s)");
    }

    @Override
    public void phase1JobFinished(String threadId, Phase1JobOutcome outcome, Optional<String> error) {
        line("phase 1: " + threadId + " " + outcome.label() + error.map(e -> " (" + e + ")").orElse(""));
    }

    @Override
    public void phase2Step(String step) {
        line("phase 2: " + step);
    }

    @Override
    public void phase2Finished(Phase2Outcome outcome, Optional<String> failure) {
        line("phase 2: finished " + outcome + failure.map(f -> " (" + f + ")").orElse(""));
    }

    void summary(StartupReport report) {
        report.skipped().ifPresent(reason -> out.println("Skipped: " + reason));
        summary(report.phase1());
        summary(report.phase2());
        out.println("Elapsed: " + report.elapsed().toMillis() + " ms");
        out.flush();
    }

    void summary(Phase1Report p) {
        out.printf("Phase 1: %d claimed, %d succeeded, %d with nothing to keep, %d failed; %d tokens%n", p.claimed(),
                p.succeeded(), p.succeededNoOutput(), p.failed(), p.usage().totalTokens());
        out.flush();
    }

    void summary(Phase2Report p) {
        out.printf("Phase 2: %s, %d input(s), %d tokens%s%n", p.outcome(), p.inputs(), p.usage().totalTokens(),
                p.failure().map(f -> "; " + f).orElse(""));
        out.flush();
    }
}
