package dev.mnemo.eval;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The figures of one {@link BenchmarkRun}: per condition ({@code mnemo}, {@code no_memory},
 * {@code full_context}), accuracy overall and per category as the model judge graded it, the
 * tokens answering spent per question and the 95th-percentile answer latency. Rates are fractions
 * in 0..1 ({@code NaN} where there are no questions).
 *
 * @param benchmark {@code locomo} or {@code longmemeval}
 * @param judgeModel the judge's name (the answering model's unless another was given)
 * @param conversations conversations run (LongMemEval: one per question)
 * @param questions questions asked, in each condition
 * @param pipelineTokens what recording's Phase 1 and Phase 2 spent (the {@code mnemo} condition's cost
 *     before any question)
 * @param judgeTokens what grading spent, over every condition
 * @param conditions one per condition, {@code mnemo} first
 * @param model the answering model's name, as given to the run
 * @param millis the run's wall time, in milliseconds
 */
public record BenchmarkReport(String benchmark, String model, String judgeModel, int conversations, int questions,
        long pipelineTokens, long judgeTokens, List<ConditionFigures> conditions, long millis) {

    /**
     * Checks the components and copies the collections.
     *
     * @param benchmark {@code locomo} or {@code longmemeval}
     * @param model the answering model's name, as given to the run
     * @param judgeModel the judge's name (the answering model's unless another was given)
     * @param conversations conversations run (LongMemEval: one per question)
     * @param questions questions asked, in each condition
     * @param pipelineTokens what recording's Phase 1 and Phase 2 spent (the {@code mnemo} condition's cost
     *     before any question)
     * @param judgeTokens what grading spent, over every condition
     * @param conditions one per condition, {@code mnemo} first
     * @param millis the run's wall time, in milliseconds
     * @throws NullPointerException when a required component is null
     */
    public BenchmarkReport {
        Objects.requireNonNull(benchmark, "benchmark");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(judgeModel, "judgeModel");
        conditions = List.copyOf(conditions);
    }

    /**
     * The figures of one condition by name.
     *
     * @param name the condition's name: {@code mnemo}, {@code no_memory} or {@code full_context}
     * @return that condition's figures
     * @throws IllegalArgumentException when the report has no such condition
     */
    public ConditionFigures condition(String name) {
        return conditions.stream().filter(c -> c.condition().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no condition '" + name + "'"));
    }

    /**
     * One condition's figures.
     *
     * @param accuracy LoCoMo: over categories 1 to 4 (the adversarial category apart, as published
     *     J scores are); LongMemEval: over every question, abstention included (as its paper counts)
     * @param categories per LoCoMo category number or LongMemEval question type
     * @param special LoCoMo's adversarial category 5, or LongMemEval's abstention questions
     * @param tokensPerQuestion answering tokens per question (Phase 1 and 2 not included)
     * @param p95Millis the 95th-percentile time to answer one question
     * @param contextCut questions whose full conversation did not fit the model's window and was cut
     *     (full context only)
     * @param condition the condition's name: {@code mnemo}, {@code no_memory} or {@code full_context}
     * @param questions questions asked in this condition
     * @param correct answers the judge passed
     */
    public record ConditionFigures(String condition, int questions, int correct, double accuracy,
            Map<String, CategoryFigures> categories, CategoryFigures special, double tokensPerQuestion, long p95Millis,
            int contextCut) {
        /**
         * Checks the components and copies the collections.
         *
         * @param condition the condition's name: {@code mnemo}, {@code no_memory} or {@code full_context}
         * @param questions questions asked in this condition
         * @param correct answers the judge passed
         * @param accuracy LoCoMo: over categories 1 to 4 (the adversarial category apart, as published J scores
         *     are); LongMemEval: over every question, abstention included (as its paper counts)
         * @param categories per LoCoMo category number or LongMemEval question type
         * @param special LoCoMo's adversarial category 5, or LongMemEval's abstention questions
         * @param tokensPerQuestion answering tokens per question (Phase 1 and 2 not included)
         * @param p95Millis the 95th-percentile time to answer one question
         * @param contextCut questions whose full conversation did not fit the model's window and was cut (full
         *     context only)
         * @throws NullPointerException when a required component is null
         */
        public ConditionFigures {
            Objects.requireNonNull(condition, "condition");
            categories = Map.copyOf(categories);
            Objects.requireNonNull(special, "special");
        }
    }

    /** Questions of one category, and how many the judge passed. */
    public record CategoryFigures(int questions, int correct, double accuracy) {
        static CategoryFigures of(int questions, int correct) {
            return new CategoryFigures(questions, correct, questions == 0 ? Double.NaN : (double) correct / questions);
        }
    }
}
