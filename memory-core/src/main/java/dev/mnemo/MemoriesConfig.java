package dev.mnemo;

import dev.mnemo.internal.config.ConfigClamps;
import dev.mnemo.internal.config.TomlConfigLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code [memories]} settings, with Codex's key names, defaults and clamps (see the
 * configuration guide for each key).
 *
 * <p>The canonical constructor rejects out-of-range values; {@link Builder#build()} and
 * {@link #load(Path)} clamp them as Codex does, logging a warning that names the key.
 */
public record MemoriesConfig(boolean generateMemories, boolean useMemories, boolean dedicatedTools,
        boolean disableOnExternalContext, int maxRawMemoriesForConsolidation, int maxUnusedDays,
        int maxRolloutAgeDays, int maxRolloutsPerStartup, int minRolloutIdleHours,
        int minRateLimitRemainingPercent, Optional<String> extractModel, Optional<String> consolidationModel,
        List<String> memorySources, int phase1Concurrency, int historyRetention,
        int consolidationTimeoutMinutes, int summaryTokenLimit, Approval approval,
        int maxExtractionTokensPerRollout, int maxExtractionTokensPerDay, SelectionPolicy selectionPolicy,
        int selectionHalfLifeDays, int selectionNewSharePercent) {

    public MemoriesConfig {
        Objects.requireNonNull(selectionPolicy, "selectionPolicy");
        Objects.requireNonNull(approval, "approval");
        Objects.requireNonNull(extractModel, "extractModel");
        Objects.requireNonNull(consolidationModel, "consolidationModel");
        memorySources = List.copyOf(Objects.requireNonNull(memorySources, "memorySources"));
        ConfigClamps.requireInRange(ConfigClamps.MAX_RAW_MEMORIES_FOR_CONSOLIDATION, maxRawMemoriesForConsolidation);
        ConfigClamps.requireInRange(ConfigClamps.MAX_UNUSED_DAYS, maxUnusedDays);
        ConfigClamps.requireInRange(ConfigClamps.MAX_ROLLOUT_AGE_DAYS, maxRolloutAgeDays);
        ConfigClamps.requireInRange(ConfigClamps.MAX_ROLLOUTS_PER_STARTUP, maxRolloutsPerStartup);
        ConfigClamps.requireInRange(ConfigClamps.MIN_ROLLOUT_IDLE_HOURS, minRolloutIdleHours);
        ConfigClamps.requireInRange(ConfigClamps.MIN_RATE_LIMIT_REMAINING_PERCENT, minRateLimitRemainingPercent);
        ConfigClamps.requireInRange(ConfigClamps.PHASE1_CONCURRENCY, phase1Concurrency);
        ConfigClamps.requireInRange(ConfigClamps.HISTORY_RETENTION, historyRetention);
        ConfigClamps.requireInRange(ConfigClamps.CONSOLIDATION_TIMEOUT_MINUTES, consolidationTimeoutMinutes);
        ConfigClamps.requireInRange(ConfigClamps.SUMMARY_TOKEN_LIMIT, summaryTokenLimit);
        ConfigClamps.requireInRange(ConfigClamps.MAX_EXTRACTION_TOKENS_PER_ROLLOUT, maxExtractionTokensPerRollout);
        ConfigClamps.requireInRange(ConfigClamps.MAX_EXTRACTION_TOKENS_PER_DAY, maxExtractionTokensPerDay);
        ConfigClamps.requireInRange(ConfigClamps.SELECTION_HALF_LIFE_DAYS, selectionHalfLifeDays);
        ConfigClamps.requireInRange(ConfigClamps.SELECTION_NEW_SHARE_PERCENT, selectionNewSharePercent);
        if (extractModel.isPresent()) {
            requireNotBlank("extract_model", extractModel.get());
        }
        if (consolidationModel.isPresent()) {
            requireNotBlank("consolidation_model", consolidationModel.get());
        }
        for (String source : memorySources) {
            requireNotBlank("memory_sources", source);
        }
    }

    /**
     * The settings of round three: the long-session keys at their defaults
     * ({@code max_extraction_tokens_per_rollout = 250000}, no daily budget,
     * {@link SelectionPolicy#CODEX}).
     */
    public MemoriesConfig(boolean generateMemories, boolean useMemories, boolean dedicatedTools,
            boolean disableOnExternalContext, int maxRawMemoriesForConsolidation, int maxUnusedDays,
            int maxRolloutAgeDays, int maxRolloutsPerStartup, int minRolloutIdleHours,
            int minRateLimitRemainingPercent, Optional<String> extractModel, Optional<String> consolidationModel,
            List<String> memorySources, int phase1Concurrency, int historyRetention,
            int consolidationTimeoutMinutes, int summaryTokenLimit, Approval approval) {
        this(generateMemories, useMemories, dedicatedTools, disableOnExternalContext, maxRawMemoriesForConsolidation,
                maxUnusedDays, maxRolloutAgeDays, maxRolloutsPerStartup, minRolloutIdleHours,
                minRateLimitRemainingPercent, extractModel, consolidationModel, memorySources, phase1Concurrency,
                historyRetention, consolidationTimeoutMinutes, summaryTokenLimit, approval,
                ConfigClamps.MAX_EXTRACTION_TOKENS_PER_ROLLOUT.defaultValue(),
                ConfigClamps.MAX_EXTRACTION_TOKENS_PER_DAY.defaultValue(), SelectionPolicy.CODEX,
                ConfigClamps.SELECTION_HALF_LIFE_DAYS.defaultValue(),
                ConfigClamps.SELECTION_NEW_SHARE_PERCENT.defaultValue());
    }

    /** The settings of earlier releases: {@link Approval#AUTO}. */
    public MemoriesConfig(boolean generateMemories, boolean useMemories, boolean dedicatedTools,
            boolean disableOnExternalContext, int maxRawMemoriesForConsolidation, int maxUnusedDays,
            int maxRolloutAgeDays, int maxRolloutsPerStartup, int minRolloutIdleHours,
            int minRateLimitRemainingPercent, Optional<String> extractModel, Optional<String> consolidationModel,
            List<String> memorySources, int phase1Concurrency, int historyRetention,
            int consolidationTimeoutMinutes, int summaryTokenLimit) {
        this(generateMemories, useMemories, dedicatedTools, disableOnExternalContext, maxRawMemoriesForConsolidation,
                maxUnusedDays, maxRolloutAgeDays, maxRolloutsPerStartup, minRolloutIdleHours,
                minRateLimitRemainingPercent, extractModel, consolidationModel, memorySources, phase1Concurrency,
                historyRetention, consolidationTimeoutMinutes, summaryTokenLimit, Approval.AUTO);
    }

    /** Codex's defaults, plus Mnemo's for the keys Codex does not have. */
    public static MemoriesConfig defaults() {
        return builder().build();
    }

    /**
     * Reads the {@code [memories]} table of a {@code config.toml}; other tables are ignored. A
     * missing file gives {@link #defaults()}.
     *
     * @throws MemoryConfigurationException for broken TOML, an unknown key in {@code [memories]} or a
     *     value of the wrong type; the message names the key and the file
     */
    public static MemoriesConfig load(Path configToml) {
        return TomlConfigLoader.load(configToml);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this config's values. */
    public Builder toBuilder() {
        return new Builder().generateMemories(generateMemories).useMemories(useMemories)
                .dedicatedTools(dedicatedTools).disableOnExternalContext(disableOnExternalContext)
                .maxRawMemoriesForConsolidation(maxRawMemoriesForConsolidation).maxUnusedDays(maxUnusedDays)
                .maxRolloutAgeDays(maxRolloutAgeDays).maxRolloutsPerStartup(maxRolloutsPerStartup)
                .minRolloutIdleHours(minRolloutIdleHours).minRateLimitRemainingPercent(minRateLimitRemainingPercent)
                .extractModel(extractModel).consolidationModel(consolidationModel).memorySources(memorySources)
                .phase1Concurrency(phase1Concurrency).historyRetention(historyRetention)
                .consolidationTimeoutMinutes(consolidationTimeoutMinutes).summaryTokenLimit(summaryTokenLimit)
                .approval(approval).maxExtractionTokensPerRollout(maxExtractionTokensPerRollout)
                .maxExtractionTokensPerDay(maxExtractionTokensPerDay).selectionPolicy(selectionPolicy)
                .selectionHalfLifeDays(selectionHalfLifeDays).selectionNewSharePercent(selectionNewSharePercent);
    }

    /** Whether Phase 1 has a daily token budget ({@code max_extraction_tokens_per_day > 0}). */
    public boolean hasDailyExtractionBudget() {
        return maxExtractionTokensPerDay > 0;
    }

    private static void requireNotBlank(String key, String value) {
        if (value.isBlank()) {
            throw new IllegalArgumentException(key + " must not be blank");
        }
    }

    /** A setter per component, same name; {@link #build()} clamps out-of-range numbers with a warning. */
    public static final class Builder {
        private boolean generateMemories = true;
        private boolean useMemories = true;
        private boolean dedicatedTools = false;
        private boolean disableOnExternalContext = false;
        private long maxRawMemoriesForConsolidation = ConfigClamps.MAX_RAW_MEMORIES_FOR_CONSOLIDATION.defaultValue();
        private long maxUnusedDays = ConfigClamps.MAX_UNUSED_DAYS.defaultValue();
        private long maxRolloutAgeDays = ConfigClamps.MAX_ROLLOUT_AGE_DAYS.defaultValue();
        private long maxRolloutsPerStartup = ConfigClamps.MAX_ROLLOUTS_PER_STARTUP.defaultValue();
        private long minRolloutIdleHours = ConfigClamps.MIN_ROLLOUT_IDLE_HOURS.defaultValue();
        private long minRateLimitRemainingPercent = ConfigClamps.MIN_RATE_LIMIT_REMAINING_PERCENT.defaultValue();
        private Optional<String> extractModel = Optional.empty();
        private Approval approval = Approval.AUTO;
        private Optional<String> consolidationModel = Optional.empty();
        private List<String> memorySources = List.of("cli", "vscode", "app");
        private long phase1Concurrency = ConfigClamps.PHASE1_CONCURRENCY.defaultValue();
        private long historyRetention = ConfigClamps.HISTORY_RETENTION.defaultValue();
        private long consolidationTimeoutMinutes = ConfigClamps.CONSOLIDATION_TIMEOUT_MINUTES.defaultValue();
        private long summaryTokenLimit = ConfigClamps.SUMMARY_TOKEN_LIMIT.defaultValue();
        private long maxExtractionTokensPerRollout = ConfigClamps.MAX_EXTRACTION_TOKENS_PER_ROLLOUT.defaultValue();
        private long maxExtractionTokensPerDay = ConfigClamps.MAX_EXTRACTION_TOKENS_PER_DAY.defaultValue();
        private SelectionPolicy selectionPolicy = SelectionPolicy.CODEX;
        private long selectionHalfLifeDays = ConfigClamps.SELECTION_HALF_LIFE_DAYS.defaultValue();
        private long selectionNewSharePercent = ConfigClamps.SELECTION_NEW_SHARE_PERCENT.defaultValue();

        private Builder() {}

        public Builder generateMemories(boolean value) {
            generateMemories = value;
            return this;
        }

        public Builder useMemories(boolean value) {
            useMemories = value;
            return this;
        }

        public Builder dedicatedTools(boolean value) {
            dedicatedTools = value;
            return this;
        }

        public Builder disableOnExternalContext(boolean value) {
            disableOnExternalContext = value;
            return this;
        }

        public Builder maxRawMemoriesForConsolidation(long value) {
            maxRawMemoriesForConsolidation = value;
            return this;
        }

        public Builder maxUnusedDays(long value) {
            maxUnusedDays = value;
            return this;
        }

        public Builder maxRolloutAgeDays(long value) {
            maxRolloutAgeDays = value;
            return this;
        }

        public Builder maxRolloutsPerStartup(long value) {
            maxRolloutsPerStartup = value;
            return this;
        }

        public Builder minRolloutIdleHours(long value) {
            minRolloutIdleHours = value;
            return this;
        }

        public Builder minRateLimitRemainingPercent(long value) {
            minRateLimitRemainingPercent = value;
            return this;
        }

        public Builder extractModel(Optional<String> value) {
            extractModel = Objects.requireNonNull(value, "extractModel");
            return this;
        }

        public Builder extractModel(String value) {
            return extractModel(Optional.of(value));
        }

        public Builder consolidationModel(Optional<String> value) {
            consolidationModel = Objects.requireNonNull(value, "consolidationModel");
            return this;
        }

        public Builder consolidationModel(String value) {
            return consolidationModel(Optional.of(value));
        }

        public Builder memorySources(List<String> value) {
            memorySources = List.copyOf(Objects.requireNonNull(value, "memorySources"));
            return this;
        }

        public Builder phase1Concurrency(long value) {
            phase1Concurrency = value;
            return this;
        }

        public Builder historyRetention(long value) {
            historyRetention = value;
            return this;
        }

        public Builder consolidationTimeoutMinutes(long value) {
            consolidationTimeoutMinutes = value;
            return this;
        }

        public Builder summaryTokenLimit(long value) {
            summaryTokenLimit = value;
            return this;
        }

        /** Whether new memories wait for a person ({@link Approval#ASK}); default {@link Approval#AUTO}. */
        public Builder approval(Approval value) {
            approval = Objects.requireNonNull(value, "approval");
            return this;
        }

        /**
         * Input tokens one rollout's extraction may spend over all its requests (default 250,000,
         * about 1 MB). A longer session is first fitted to it, least important rows dropped first.
         */
        public Builder maxExtractionTokensPerRollout(long value) {
            maxExtractionTokensPerRollout = value;
            return this;
        }

        /** Tokens Phase 1 may spend per UTC day (0, the default: unlimited). */
        public Builder maxExtractionTokensPerDay(long value) {
            maxExtractionTokensPerDay = value;
            return this;
        }

        /** How Phase 2 selects its inputs; default {@link SelectionPolicy#CODEX}. */
        public Builder selectionPolicy(SelectionPolicy value) {
            selectionPolicy = Objects.requireNonNull(value, "selectionPolicy");
            return this;
        }

        /** With {@link SelectionPolicy#FAIR}: days after which a usage count weighs half (default 30). */
        public Builder selectionHalfLifeDays(long value) {
            selectionHalfLifeDays = value;
            return this;
        }

        /** With {@link SelectionPolicy#FAIR}: percent of the selection kept for never-selected memories (default 10). */
        public Builder selectionNewSharePercent(long value) {
            selectionNewSharePercent = value;
            return this;
        }

        /** Clamps each number into its range (logging a warning naming the key) and builds. */
        public MemoriesConfig build() {
            return new MemoriesConfig(generateMemories, useMemories, dedicatedTools, disableOnExternalContext,
                    ConfigClamps.MAX_RAW_MEMORIES_FOR_CONSOLIDATION.clamp(maxRawMemoriesForConsolidation),
                    ConfigClamps.MAX_UNUSED_DAYS.clamp(maxUnusedDays),
                    ConfigClamps.MAX_ROLLOUT_AGE_DAYS.clamp(maxRolloutAgeDays),
                    ConfigClamps.MAX_ROLLOUTS_PER_STARTUP.clamp(maxRolloutsPerStartup),
                    ConfigClamps.MIN_ROLLOUT_IDLE_HOURS.clamp(minRolloutIdleHours),
                    ConfigClamps.MIN_RATE_LIMIT_REMAINING_PERCENT.clamp(minRateLimitRemainingPercent),
                    extractModel, consolidationModel, memorySources,
                    ConfigClamps.PHASE1_CONCURRENCY.clamp(phase1Concurrency),
                    ConfigClamps.HISTORY_RETENTION.clamp(historyRetention),
                    ConfigClamps.CONSOLIDATION_TIMEOUT_MINUTES.clamp(consolidationTimeoutMinutes),
                    ConfigClamps.SUMMARY_TOKEN_LIMIT.clamp(summaryTokenLimit), approval,
                    ConfigClamps.MAX_EXTRACTION_TOKENS_PER_ROLLOUT.clamp(maxExtractionTokensPerRollout),
                    ConfigClamps.MAX_EXTRACTION_TOKENS_PER_DAY.clamp(maxExtractionTokensPerDay), selectionPolicy,
                    ConfigClamps.SELECTION_HALF_LIFE_DAYS.clamp(selectionHalfLifeDays),
                    ConfigClamps.SELECTION_NEW_SHARE_PERCENT.clamp(selectionNewSharePercent));
        }
    }
}
