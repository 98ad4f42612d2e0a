package dev.mnemo.eval;

import dev.mnemo.llm.TokenUsage;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one cross-project scenario's run produced: every graded answer, and what each read path's
 * pipeline spent.
 *
 * @param paths one entry per {@link ReadPath}
 * @param millis wall time of the scenario's whole run, both paths
 * @param scenarioId the cross-project scenario's id
 * @param results every graded answer, on both read paths
 */
public record CrossProjectOutcome(String scenarioId, List<ProjectProbeResult> results, Map<ReadPath, PathRun> paths,
        long millis) {

    /**
     * Checks the components and copies the collections.
     *
     * @param scenarioId the cross-project scenario's id
     * @param results every graded answer, on both read paths
     * @param paths one entry per {@link ReadPath}
     * @param millis wall time of the scenario's whole run, both paths
     * @throws NullPointerException when a required component is null
     */
    public CrossProjectOutcome {
        Objects.requireNonNull(scenarioId, "scenarioId");
        results = List.copyOf(results);
        paths = Map.copyOf(paths);
    }

    /**
     * One read path's pipeline and answers.
     *
     * @param extracted Phase 1 jobs that stored a memory
     * @param phase2Outcome the consolidation's outcome, as {@code Phase2Outcome}'s name
     * @param answerUsage tokens spent answering this path's probes, tool calls included
     * @param phase1Usage tokens Phase 1 (extraction) spent
     * @param phase2Usage tokens Phase 2 (consolidation) spent
     */
    public record PathRun(int extracted, String phase2Outcome, TokenUsage phase1Usage, TokenUsage phase2Usage,
            TokenUsage answerUsage) {
        /**
         * Checks the components.
         *
         * @param extracted Phase 1 jobs that stored a memory
         * @param phase2Outcome the consolidation's outcome, as {@code Phase2Outcome}'s name
         * @param phase1Usage tokens Phase 1 (extraction) spent
         * @param phase2Usage tokens Phase 2 (consolidation) spent
         * @param answerUsage tokens spent answering this path's probes, tool calls included
         * @throws NullPointerException when a required component is null
         */
        public PathRun {
            Objects.requireNonNull(phase2Outcome, "phase2Outcome");
            Objects.requireNonNull(phase1Usage, "phase1Usage");
            Objects.requireNonNull(phase2Usage, "phase2Usage");
            Objects.requireNonNull(answerUsage, "answerUsage");
        }
    }
}
