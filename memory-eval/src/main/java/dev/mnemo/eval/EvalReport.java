package dev.mnemo.eval;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The figures of one eval run: per condition and category, and per user. Rates are fractions in
 * 0..1 over the probes of that category ({@code NaN} where a category has no probes).
 *
 * @param model the model's name as given to the run
 * @param scenarioVersion the scenario set's format version
 * @param conditions one summary per condition, in {@link Condition} order
 * @param secretsInMemory users whose memory folder holds their planted secret (must be 0)
 * @param pollutedInMemory users whose memory folder holds their polluted fact (must be 0)
 * @param millis the run's wall time
 */
public record EvalReport(String model, int scenarioVersion, int users, List<ConditionSummary> conditions,
        int secretsInMemory, int pollutedInMemory, List<UserOutcome> perUser, long millis) {

    public EvalReport {
        Objects.requireNonNull(model, "model");
        conditions = List.copyOf(conditions);
        perUser = List.copyOf(perUser);
    }

    /** The summary of one condition. */
    public ConditionSummary condition(Condition condition) {
        return conditions.stream().filter(c -> c.condition() == condition).findFirst().orElseThrow();
    }

    /**
     * One condition's figures.
     *
     * @param recall answers holding every expected fact, over the recall categories' probes
     * @param tokens everything this condition spent: Phase 1 and Phase 2 (Mnemo only) and answering
     */
    public record ConditionSummary(Condition condition, Map<Category, CategoryFigures> categories, double recall,
            long phase1Tokens, long phase2Tokens, long answerTokens, long tokens) {
        public ConditionSummary {
            Objects.requireNonNull(condition, "condition");
            categories = Map.copyOf(categories);
        }
    }

    /**
     * One category's figures in one condition.
     *
     * @param recall answers with every expected fact
     * @param staleRate answers repeating a corrected fact
     * @param leakRate answers holding a polluted fact or a secret
     */
    public record CategoryFigures(int probes, double recall, double staleRate, double leakRate) {}
}
