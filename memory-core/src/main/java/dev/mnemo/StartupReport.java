package dev.mnemo;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a startup task did.
 *
 * @param skipped why the pipeline did nothing, if a gate or the rate-limit guard stopped it; or
 *     {@link SkipReason#TOKEN_BUDGET_EXHAUSTED} when the day's extraction budget stopped Phase 1
 *     (before its claim or part-way, see {@link Phase1Report#skipped()}), in which case Phase 2 still
 *     ran on the memories already extracted and {@code phase2} says how
 * @param phase1 the Phase 1 pass
 * @param phase2 the Phase 2 attempt
 * @param elapsed wall time of the background run
 */
public record StartupReport(Optional<SkipReason> skipped, Phase1Report phase1, Phase2Report phase2, Duration elapsed) {
    /**
     * Checks the components.
     *
     * @param skipped why the pipeline did nothing, if it did nothing; or {@link SkipReason#TOKEN_BUDGET_EXHAUSTED}
     * @param phase1 the Phase 1 pass
     * @param phase2 the Phase 2 attempt
     * @param elapsed wall time of the background run
     * @throws NullPointerException when a component is null
     */
    public StartupReport {
        Objects.requireNonNull(skipped, "skipped");
        Objects.requireNonNull(phase1, "phase1");
        Objects.requireNonNull(phase2, "phase2");
        Objects.requireNonNull(elapsed, "elapsed");
    }

    /**
     * A run that a gate stopped before any work.
     *
     * @param reason the gate that stopped it
     * @param elapsed wall time of the run
     * @return a report with that reason, an empty Phase 1 pass and Phase 2 not run
     * @throws NullPointerException when {@code reason} or {@code elapsed} is null
     */
    public static StartupReport skipped(SkipReason reason, Duration elapsed) {
        return new StartupReport(Optional.of(reason), Phase1Report.empty(), Phase2Report.notRun(), elapsed);
    }
}
