package dev.mnemo.cli;

import dev.mnemo.MemoryEngine;
import dev.mnemo.Phase1JobOutcome;
import dev.mnemo.ExtractionBudget;
import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.Phase2Report;
import dev.mnemo.SkipReason;
import dev.mnemo.StartupReport;
import dev.mnemo.spi.MemoryEventListener;
import java.io.PrintWriter;
import java.time.Instant;
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
        line("startup skipped: " + reason.code());
    }

    @Override
    public void phase1BudgetExhausted(ExtractionBudget budget, int deferredJobs) {
        line("phase 1: daily extraction budget " + budget.describe()
                + (deferredJobs > 0 ? "; " + deferredJobs + " job(s) deferred" : "; nothing claimed"));
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

    /** Says that eligibility is decided as of {@code asOf} while history and elapsed times stay real. */
    void pipelineClock(Instant asOf) {
        line("pipeline clock: " + asOf + " (--as-of: decides idle and age windows, leases and backoffs;"
                + " history entries and elapsed times use the real time)");
    }

    void summary(StartupReport report, MemoryEngine engine) {
        report.skipped().ifPresent(reason -> out.println("Skipped: " + reason.code()));
        summary(report.phase1());
        summary(report.phase2(), engine);
        out.println("Elapsed: " + report.elapsed().toMillis() + " ms");
        out.flush();
    }

    void summary(Phase1Report p) {
        out.printf("Phase 1: %d claimed, %d succeeded, %d with nothing to keep, %d failed; %d tokens%s%n", p.claimed(),
                p.succeeded(), p.succeededNoOutput(), p.failed(), p.usage().totalTokens(),
                p.skipped().map(reason -> "; stopped by the daily extraction budget (" + reason.code() + "), "
                        + p.deferred() + " deferred").orElse(""));
        out.flush();
    }

    /** The Phase 2 outcome; a cooldown or backoff says when it ends (read from the engine's status). */
    void summary(Phase2Report p, MemoryEngine engine) {
        out.printf("Phase 2: %s, %d input(s), %d tokens%s%s%n", p.outcome(), p.inputs(), p.usage().totalTokens(),
                p.failure().map(f -> "; " + f).orElse(""), lockOpens(p.outcome(), engine));
        out.flush();
    }

    private static String lockOpens(Phase2Outcome outcome, MemoryEngine engine) {
        String what = switch (outcome) {
            case SKIPPED_COOLDOWN -> "; a consolidation succeeded less than 6 h ago, the cooldown ends at ";
            case SKIPPED_RETRY_BACKOFF -> "; the last consolidation failed, the next attempt is allowed at ";
            default -> null;
        };
        if (what == null) {
            return "";
        }
        return engine.admin().status().phase2NotBefore().map(at -> what + at + " (pipeline clock)").orElse("");
    }
}
