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
 * @param crossProject the cross-project scenarios' figures, one summary per {@link ReadPath}
 * @param millis the run's wall time
 * @param users scenario users run
 * @param perUser each user's outcome, in the scenario set's order
 * @param longSession the long-session scenario's figures; {@link LongSession#notRun()} when it did not run
 */
public record EvalReport(String model, int scenarioVersion, int users, List<ConditionSummary> conditions,
        int secretsInMemory, int pollutedInMemory, List<UserOutcome> perUser, CrossProject crossProject,
        long millis, LongSession longSession) {

    /**
     * Checks the components and copies the collections.
     *
     * @param model the model's name as given to the run
     * @param scenarioVersion the scenario set's format version
     * @param users scenario users run
     * @param conditions one summary per condition, in {@link Condition} order
     * @param secretsInMemory users whose memory folder holds their planted secret (must be 0)
     * @param pollutedInMemory users whose memory folder holds their polluted fact (must be 0)
     * @param perUser each user's outcome, in the scenario set's order
     * @param crossProject the cross-project scenarios' figures, one summary per {@link ReadPath}
     * @param millis the run's wall time
     * @param longSession the long-session scenario's figures; {@link LongSession#notRun()} when it did not run
     * @throws NullPointerException when a required component is null
     */
    public EvalReport {
        Objects.requireNonNull(model, "model");
        conditions = List.copyOf(conditions);
        perUser = List.copyOf(perUser);
        Objects.requireNonNull(crossProject, "crossProject");
        Objects.requireNonNull(longSession, "longSession");
    }

    /**
     * A report without the long-session scenario (as before it existed).
     *
     * @param model the model's name as given to the run
     * @param scenarioVersion the scenario set's format version
     * @param users scenario users run
     * @param conditions one summary per condition, in {@link Condition} order
     * @param secretsInMemory users whose memory folder holds their planted secret (must be 0)
     * @param pollutedInMemory users whose memory folder holds their polluted fact (must be 0)
     * @param perUser each user's outcome, in the scenario set's order
     * @param crossProject the cross-project scenarios' figures, one summary per {@link ReadPath}
     * @param millis the run's wall time, in milliseconds
     */
    public EvalReport(String model, int scenarioVersion, int users, List<ConditionSummary> conditions,
            int secretsInMemory, int pollutedInMemory, List<UserOutcome> perUser, CrossProject crossProject,
            long millis) {
        this(model, scenarioVersion, users, conditions, secretsInMemory, pollutedInMemory, perUser, crossProject,
                millis, LongSession.notRun());
    }

    /**
     * The long-session scenario's figures: one session many times the model's window, its planted
     * facts looked for in the memory Phase 1 stored, extracted in parts and by the tiered fit alone.
     *
     * @param windowTokens the model's context window (0: unknown, the scenario did not run)
     * @param sessionBytes the session's size, its turns' text
     * @param facts facts planted (a third each at its start, middle and end)
     * @param conditions {@code chunked} and {@code tiered_fit}, in that order; empty when not run
     */
    public record LongSession(int windowTokens, long sessionBytes, int facts, List<LongSessionCondition> conditions) {
        /**
         * Checks the components and copies the collections.
         *
         * @param windowTokens the model's context window (0: unknown, the scenario did not run)
         * @param sessionBytes the session's size, its turns' text
         * @param facts facts planted (a third each at its start, middle and end)
         * @param conditions {@code chunked} and {@code tiered_fit}, in that order; empty when not run
         * @throws NullPointerException when a required component is null
         */
        public LongSession {
            conditions = List.copyOf(conditions);
        }

        /**
         * The scenario did not run (the model's window is unknown).
         *
         * @return an empty long-session result, with a window of 0
         */
        public static LongSession notRun() {
            return new LongSession(0, 0, 0, List.of());
        }

        /**
         * The figures of one condition, {@code chunked} or {@code tiered_fit}.
         *
         * @param name {@code chunked} or {@code tiered_fit}
         * @return that condition's figures
         * @throws IllegalArgumentException when the scenario has no such condition (as when it did not run)
         */
        public LongSessionCondition condition(String name) {
            return conditions.stream().filter(c -> c.name().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no long-session condition '" + name + "'"));
        }
    }

    /**
     * One way of extracting the long session.
     *
     * @param name {@code chunked} (read in parts and merged) or {@code tiered_fit} (one request, as Codex)
     * @param recalled planted facts found in the stored memory
     * @param requests extraction requests the model answered
     * @param inputTokens input tokens Phase 1 spent
     * @param tokens all tokens Phase 1 spent
     * @param coverage what the memory says it covers (empty for one request)
     */
    public record LongSessionCondition(String name, int recalled, int requests, long inputTokens, long tokens,
            String coverage) {
        /**
         * Checks the components.
         *
         * @param name {@code chunked} (read in parts and merged) or {@code tiered_fit} (one request, as Codex)
         * @param recalled planted facts found in the stored memory
         * @param requests extraction requests the model answered
         * @param inputTokens input tokens Phase 1 spent
         * @param tokens all tokens Phase 1 spent
         * @param coverage what the memory says it covers (empty for one request)
         * @throws NullPointerException when a required component is null
         */
        public LongSessionCondition {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(coverage, "coverage");
        }
    }

    /**
     * The summary of one condition.
     *
     * @param condition the condition asked for
     * @return its summary
     * @throws java.util.NoSuchElementException when the report has no summary of that condition
     */
    public ConditionSummary condition(Condition condition) {
        return conditions.stream().filter(c -> c.condition() == condition).findFirst().orElseThrow();
    }

    /**
     * One condition's figures.
     *
     * @param recall answers holding every expected fact, over the recall categories' probes
     * @param tokens everything this condition spent: Phase 1 and Phase 2 (Mnemo only) and answering
     * @param condition the condition these figures are for
     * @param categories the figures of each category
     * @param phase1Tokens tokens Phase 1 spent
     * @param phase2Tokens tokens Phase 2 spent
     * @param answerTokens tokens spent answering the probes
     */
    public record ConditionSummary(Condition condition, Map<Category, CategoryFigures> categories, double recall,
            long phase1Tokens, long phase2Tokens, long answerTokens, long tokens) {
        /**
         * Checks the components and copies the collections.
         *
         * @param condition the condition these figures are for
         * @param categories the figures of each category
         * @param recall answers holding every expected fact, over the recall categories' probes
         * @param phase1Tokens tokens Phase 1 spent
         * @param phase2Tokens tokens Phase 2 spent
         * @param answerTokens tokens spent answering the probes
         * @param tokens everything this condition spent: Phase 1 and Phase 2 (Mnemo only) and answering
         * @throws NullPointerException when a required component is null
         */
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

    /**
     * The cross-project scenarios' figures: the same sessions and probes on each {@link ReadPath}.
     *
     * @param scenarios cross-project scenarios run (0 for a set without them; every rate is then {@code NaN})
     * @param readPaths one summary per read path, in {@link ReadPath} order
     * @param perScenario each cross-project scenario's outcome
     */
    public record CrossProject(int scenarios, List<ReadPathSummary> readPaths, List<CrossProjectOutcome> perScenario) {
        /**
         * Checks the components and copies the collections.
         *
         * @param scenarios cross-project scenarios run (0 for a set without them; every rate is then {@code
         *     NaN})
         * @param readPaths one summary per read path, in {@link ReadPath} order
         * @param perScenario each cross-project scenario's outcome
         * @throws NullPointerException when a required component is null
         */
        public CrossProject {
            readPaths = List.copyOf(readPaths);
            perScenario = List.copyOf(perScenario);
        }

        /**
         * The summary of one read path.
         *
         * @param readPath the read path asked for
         * @return its summary
         * @throws java.util.NoSuchElementException when the report has no summary of that read path
         */
        public ReadPathSummary readPath(ReadPath readPath) {
            return readPaths.stream().filter(r -> r.readPath() == readPath).findFirst().orElseThrow();
        }
    }

    /**
     * One read path's figures over every cross-project probe.
     *
     * @param probes probes asked (each in one project)
     * @param recall answers holding the project's own value or the shared preference, over all probes
     * @param conflictingProbes probes whose fact has another value in another project
     * @param contaminated answers to those probes holding another project's value
     * @param contaminationRate {@code contaminated / conflictingProbes}
     * @param tokens everything this path spent: Phase 1, Phase 2 and answering
     * @param readPath the read path these figures are for
     * @param phase1Tokens tokens Phase 1 spent
     * @param phase2Tokens tokens Phase 2 spent
     * @param answerTokens tokens spent answering the probes
     */
    public record ReadPathSummary(ReadPath readPath, int probes, double recall, int conflictingProbes, int contaminated,
            double contaminationRate, long phase1Tokens, long phase2Tokens, long answerTokens, long tokens) {
        /**
         * Checks the components.
         *
         * @param readPath the read path these figures are for
         * @param probes probes asked (each in one project)
         * @param recall answers holding the project's own value or the shared preference, over all probes
         * @param conflictingProbes probes whose fact has another value in another project
         * @param contaminated answers to those probes holding another project's value
         * @param contaminationRate {@code contaminated / conflictingProbes}
         * @param phase1Tokens tokens Phase 1 spent
         * @param phase2Tokens tokens Phase 2 spent
         * @param answerTokens tokens spent answering the probes
         * @param tokens everything this path spent: Phase 1, Phase 2 and answering
         * @throws NullPointerException when a required component is null
         */
        public ReadPathSummary {
            Objects.requireNonNull(readPath, "readPath");
        }
    }
}
