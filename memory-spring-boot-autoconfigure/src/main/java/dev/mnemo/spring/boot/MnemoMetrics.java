package dev.mnemo.spring.boot;

import dev.mnemo.ExtractionBudget;
import dev.mnemo.Phase1JobOutcome;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.SkipReason;
import dev.mnemo.StartupReport;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.MemoryEventListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Micrometer meters for the pipeline, fed by the engine's listener. Tags have bounded
 * cardinality (outcome, phase, reason: enum values and Codex's fixed names); never a thread or
 * tenant id.
 *
 * <ul>
 *   <li>{@code mnemo.phase1.jobs} (counter; {@code outcome}: succeeded, succeeded_no_output, failed)</li>
 *   <li>{@code mnemo.phase2.runs} (counter; {@code outcome}: a {@link Phase2Outcome} in lower case)</li>
 *   <li>{@code mnemo.phase2.duration} (timer; {@code outcome}) — from the global lock claimed to the
 *       run's end, for runs that got the lock</li>
 *   <li>{@code mnemo.startup.duration} (timer; {@code outcome}: ran or skipped) — one startup run,
 *       Phase 1 and Phase 2 together</li>
 *   <li>{@code mnemo.startup.skipped} (counter; {@code reason}: a {@link SkipReason})</li>
 *   <li>{@code mnemo.tokens} (counter; {@code phase}: phase1 or phase2) — input plus output tokens of
 *       every model call the pipeline of an engine this listener is registered on makes: startup
 *       tasks, scheduled runs, {@code runPhase1}/{@code runPhase2}; counted as each call is answered
 *       ({@link #modelCalled}).</li>
 *   <li>{@code mnemo.citations.counted} (counter) — cited memories whose usage count went up</li>
 *   <li>{@code mnemo.phase1.budget.exhausted} (counter; {@code when}: before_claim or part_way) —
 *       Phase 1 runs the day's extraction budget ({@code max_extraction_tokens_per_day}) stopped,
 *       before their claim or after deferring jobs it had no room for</li>
 *   <li>{@code mnemo.phase1.budget.deferred} (counter) — claimed Phase 1 jobs released unrun for the
 *       budget (they keep their retries)</li>
 * </ul>
 */
final class MnemoMetrics implements MemoryEventListener {

    /** Phase 2 runs on one thread from its {@code claimed} step to its end. */
    private final ThreadLocal<Long> phase2Start = new ThreadLocal<>();
    private final MeterRegistry registry;

    MnemoMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void phase2Step(String step) {
        if (step.equals("claimed")) {
            phase2Start.set(System.nanoTime());
        }
    }

    @Override
    public void phase1JobFinished(String threadId, Phase1JobOutcome outcome, Optional<String> error) {
        Counter.builder("mnemo.phase1.jobs").description("Phase 1 extraction jobs, by outcome")
                .tag("outcome", outcome.label()).register(registry).increment();
    }

    @Override
    public void phase2Finished(Phase2Outcome outcome, Optional<String> failure) {
        String tag = outcome.name().toLowerCase(Locale.ROOT);
        Counter.builder("mnemo.phase2.runs").description("Phase 2 consolidation runs, by outcome")
                .tag("outcome", tag).register(registry).increment();
        Long start = phase2Start.get();
        if (start != null) {
            phase2Start.remove();
            Timer.builder("mnemo.phase2.duration").description("Phase 2 runs that held the global lock")
                    .tag("outcome", tag).register(registry).record(Duration.ofNanos(System.nanoTime() - start));
        }
    }

    @Override
    public void startupSkipped(SkipReason reason) {
        Counter.builder("mnemo.startup.skipped").description("Startup runs stopped by a gate, by reason")
                .tag("reason", reason.code()).register(registry).increment();
    }

    @Override
    public void startupFinished(StartupReport report) {
        Timer.builder("mnemo.startup.duration").description("One background startup run (Phase 1 and Phase 2)")
                .tag("outcome", report.skipped().isPresent() ? "skipped" : "ran").register(registry)
                .record(report.elapsed());
    }

    /** {@code phase} is one of the listener's two constants, so the tag stays bounded. */
    @Override
    public void modelCalled(String phase, TokenUsage usage) {
        Counter.builder("mnemo.tokens").description("Model tokens (input plus output) the pipeline used")
                .baseUnit("tokens").tag("phase", phase).register(registry).increment(usage.totalTokens());
    }

    @Override
    public void memoriesCited(String threadId, List<String> rolloutIds, int counted) {
        Counter.builder("mnemo.citations.counted").description("Cited memories whose usage count went up")
                .register(registry).increment(counted);
    }

    /** The tag is one of two constants; the tenant whose budget it was is never a tag. */
    @Override
    public void phase1BudgetExhausted(ExtractionBudget budget, int deferredJobs) {
        Counter.builder("mnemo.phase1.budget.exhausted")
                .description("Phase 1 runs stopped by the daily extraction token budget")
                .tag("when", deferredJobs == 0 ? "before_claim" : "part_way").register(registry).increment();
        if (deferredJobs > 0) {
            Counter.builder("mnemo.phase1.budget.deferred")
                    .description("Claimed Phase 1 jobs released unrun for the daily extraction token budget")
                    .register(registry).increment(deferredJobs);
        }
    }
}
