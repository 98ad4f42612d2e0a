package dev.mnemo.internal.logs;

import dev.mnemo.Phase1JobOutcome;
import dev.mnemo.Phase1JobReport;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.SkipReason;
import dev.mnemo.StartupReport;
import dev.mnemo.ThreadLogEntry;
import dev.mnemo.ThreadLogs;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.MemoryEventListener;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Turns the engine's events into thread log entries, each filed under the conversation it concerns
 * where the event names one: a Phase 1 job (outcome, duration, tokens, error), a citation, and
 * every conversation whose memory a consolidation took as input (its outcome). What concerns no
 * one conversation goes to pseudo-threads: {@link ThreadLogs#STARTUP_THREAD} for the startup runs,
 * {@code mnemo:phase1} / {@code mnemo:phase2} for the phases as a whole (claims; steps, the
 * consolidation agent's tool calls and model calls). Only offers to the writer: never blocks the
 * pipeline.
 */
public final class ThreadLogListener implements MemoryEventListener {

    private final ThreadLogWriter writer;
    private final Clock clock;
    /** Why this engine cannot consolidate at all (no consolidation model or agent); empty when it can. */
    private final Optional<String> phase2Unavailable;
    /** The inputs of the consolidation running now (Phase 2 runs one at a time per engine). */
    private final AtomicReference<List<String>> phase2Inputs = new AtomicReference<>(List.of());

    public ThreadLogListener(ThreadLogWriter writer, Clock clock) {
        this(writer, clock, Optional.empty());
    }

    /**
     * @param phase2Unavailable why the engine cannot run Phase 2 at all (it has no consolidation
     *     model or agent), said under {@link ThreadLogs#PHASE2_THREAD} after each startup run;
     *     empty when it can
     */
    public ThreadLogListener(ThreadLogWriter writer, Clock clock, Optional<String> phase2Unavailable) {
        this.writer = writer;
        this.clock = clock;
        this.phase2Unavailable = phase2Unavailable;
    }

    private void log(String threadId, String level, String target, String message) {
        writer.log(new ThreadLogEntry(threadId, clock.instant(), level, target, message));
    }

    @Override
    public void startupSkipped(SkipReason reason) {
        log(ThreadLogs.STARTUP_THREAD, "INFO", "mnemo::startup", "startup skipped: " + reason);
    }

    @Override
    public void threadsSynced(int changed) {
        log(ThreadLogs.STARTUP_THREAD, "DEBUG", "mnemo::startup", "threads synced: " + changed + " added or updated");
    }

    @Override
    public void phase1Claimed(int count) {
        log(ThreadLogs.PHASE1_THREAD, "INFO", "mnemo::phase1", "claimed " + count + " rollout(s) for extraction");
    }

    @Override
    public void phase1JobFinished(Phase1JobReport report) {
        String level = report.outcome() == Phase1JobOutcome.FAILED ? "WARN" : "INFO";
        log(report.threadId(), level, "mnemo::phase1", "phase 1 job " + report.outcome().label() + " in "
                + report.elapsed().toMillis() + " ms, " + tokens(report.usage())
                + report.error().map(e -> ": " + e).orElse(""));
    }

    @Override
    public void phase2InputsSelected(List<String> threadIds) {
        phase2Inputs.set(List.copyOf(threadIds));
        log(ThreadLogs.PHASE2_THREAD, "INFO", "mnemo::phase2", "selected " + threadIds.size() + " memories as inputs");
    }

    @Override
    public void consolidationToolCalled(String tool, String target, Optional<String> error) {
        log(ThreadLogs.PHASE2_THREAD, error.isPresent() ? "WARN" : "DEBUG", "mnemo::phase2::agent", "tool " + tool
                + (target.isEmpty() ? "" : " " + target) + error.map(e -> " failed: " + e).orElse(""));
    }

    @Override
    public void phase2Step(String step) {
        log(ThreadLogs.PHASE2_THREAD, "INFO", "mnemo::phase2", "step " + step);
    }

    /** The run's outcome under the pseudo-thread, and under each conversation whose memory was an input. */
    @Override
    public void phase2Finished(Phase2Outcome outcome, Optional<String> failure) {
        String level = failure.isPresent() ? "ERROR" : "INFO";
        log(ThreadLogs.PHASE2_THREAD, level, "mnemo::phase2",
                "phase 2 " + outcome + failure.map(f -> ": " + f).orElse("") + Phase2Words.why(outcome, failure));
        List<String> inputs = phase2Inputs.getAndSet(List.of());
        String message = switch (outcome) {
            case SUCCEEDED -> "consolidated into the memory folder with " + (inputs.size() - 1) + " other memories";
            case NO_WORKSPACE_CHANGES -> "consolidation input, unchanged since the last consolidation";
            default -> "consolidation input, but phase 2 " + outcome + failure.map(f -> ": " + f).orElse("");
        };
        for (String threadId : inputs) {
            log(threadId, failure.isPresent() ? "WARN" : "INFO", "mnemo::phase2", message);
        }
    }

    @Override
    public void memoriesCited(String threadId, List<String> rolloutIds, int counted) {
        log(threadId, "INFO", "mnemo::cite", "cited " + rolloutIds.size() + " memories (" + counted + " counted): "
                + String.join(", ", rolloutIds));
    }

    /**
     * After a startup run: a consolidation that could not run says why under
     * {@link ThreadLogs#PHASE2_THREAD}, in plain words (a skip for an ephemeral or sub-agent session
     * is how such sessions work, not a reason to tell).
     */
    private void phase2NotRun(StartupReport report) {
        if (report.phase2().outcome() != Phase2Outcome.NOT_RUN) {
            return;
        }
        Optional<SkipReason> skipped = report.skipped();
        if (phase2Unavailable.isPresent() && (skipped.isEmpty() || skipped.get() == SkipReason.NO_MODEL
                || skipped.get() == SkipReason.TOKEN_BUDGET_EXHAUSTED)) {
            log(ThreadLogs.PHASE2_THREAD, "WARN", "mnemo::phase2", "phase 2 cannot run: " + phase2Unavailable.get());
        } else if (skipped.isPresent()) {
            Phase2Words.startupSkip(skipped.get()).ifPresent(why ->
                    log(ThreadLogs.PHASE2_THREAD, "INFO", "mnemo::phase2", "phase 2 not run: " + why));
        }
    }

    @Override
    public void startupFinished(StartupReport report) {
        phase2NotRun(report);
        log(ThreadLogs.STARTUP_THREAD, "INFO", "mnemo::startup", "startup finished in " + report.elapsed().toMillis()
                + " ms" + report.skipped().map(s -> ", skipped: " + s).orElse("") + "; phase 1 claimed "
                + report.phase1().claimed() + ", succeeded " + report.phase1().succeeded() + ", no output "
                + report.phase1().succeededNoOutput() + ", failed " + report.phase1().failed() + " ("
                + tokens(report.phase1().usage()) + "); phase 2 " + report.phase2().outcome() + " over "
                + report.phase2().inputs() + " input(s) (" + tokens(report.phase2().usage()) + ")");
    }

    /**
     * The consolidation agent's model calls, one entry each. Phase 1's are not logged one by one:
     * each job's entry carries its tokens, and a line per call would double what every job writes.
     */
    @Override
    public void modelCalled(String phase, TokenUsage usage) {
        if (PHASE2.equals(phase)) {
            log(ThreadLogs.PHASE2_THREAD, "DEBUG", "mnemo::phase2", "model call: " + tokens(usage));
        }
    }

    private static String tokens(TokenUsage usage) {
        return "tokens in " + usage.inputTokens() + " (cached " + usage.cachedInputTokens() + "), out "
                + usage.outputTokens() + " (reasoning " + usage.reasoningTokens() + ")";
    }
}
