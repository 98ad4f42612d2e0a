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
 */
public record CrossProjectOutcome(String scenarioId, List<ProjectProbeResult> results, Map<ReadPath, PathRun> paths,
        long millis) {

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
     */
    public record PathRun(int extracted, String phase2Outcome, TokenUsage phase1Usage, TokenUsage phase2Usage,
            TokenUsage answerUsage) {
        public PathRun {
            Objects.requireNonNull(phase2Outcome, "phase2Outcome");
            Objects.requireNonNull(phase1Usage, "phase1Usage");
            Objects.requireNonNull(phase2Usage, "phase2Usage");
            Objects.requireNonNull(answerUsage, "answerUsage");
        }
    }
}
