package dev.mnemo.eval;

import dev.mnemo.llm.TokenUsage;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one scenario user's run produced: every graded answer, what the pipeline spent, and what
 * ended up in the memory folder that must not have.
 *
 * @param extracted Phase 1 jobs that stored a memory
 * @param phase2Outcome the consolidation's outcome, as {@code Phase2Outcome}'s name
 * @param answerUsage tokens spent answering the probes, per condition
 * @param secretInMemory the planted secret is in a file of the memory folder
 * @param pollutedInMemory the polluted fact is in a file of the memory folder
 * @param millis wall time of the user's whole run
 * @param userId the scenario user's id
 * @param results every graded answer, in every condition
 * @param phase1Usage tokens Phase 1 (extraction) spent
 * @param phase2Usage tokens Phase 2 (consolidation) spent
 */
public record UserOutcome(String userId, List<ProbeResult> results, int extracted, String phase2Outcome,
        TokenUsage phase1Usage, TokenUsage phase2Usage, Map<Condition, TokenUsage> answerUsage,
        boolean secretInMemory, boolean pollutedInMemory, long millis) {

    /**
     * Checks the components and copies the collections.
     *
     * @param userId the scenario user's id
     * @param results every graded answer, in every condition
     * @param extracted Phase 1 jobs that stored a memory
     * @param phase2Outcome the consolidation's outcome, as {@code Phase2Outcome}'s name
     * @param phase1Usage tokens Phase 1 (extraction) spent
     * @param phase2Usage tokens Phase 2 (consolidation) spent
     * @param answerUsage tokens spent answering the probes, per condition
     * @param secretInMemory the planted secret is in a file of the memory folder
     * @param pollutedInMemory the polluted fact is in a file of the memory folder
     * @param millis wall time of the user's whole run
     * @throws NullPointerException when a required component is null
     */
    public UserOutcome {
        Objects.requireNonNull(userId, "userId");
        results = List.copyOf(results);
        Objects.requireNonNull(phase2Outcome, "phase2Outcome");
        Objects.requireNonNull(phase1Usage, "phase1Usage");
        Objects.requireNonNull(phase2Usage, "phase2Usage");
        answerUsage = Map.copyOf(answerUsage);
    }
}
