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
 *
 * @param generateMemories {@code generate_memories}: whether new threads are registered for extraction
 *     (default true; false registers them disabled and the startup task skips)
 * @param useMemories {@code use_memories}: whether the developer instructions carry the memory summary
 *     (default true; false returns {@code ""} while the pipeline still runs)
 * @param dedicatedTools {@code dedicated_tools}: whether the instructions say the memory tools are dedicated
 *     tools (default false)
 * @param disableOnExternalContext {@code disable_on_external_context}: whether external context marks a
 *     thread polluted, so its memory is forgotten and it is never extracted (default false)
 * @param maxRawMemoriesForConsolidation {@code max_raw_memories_for_consolidation}: how many stage-1 memories
 *     Phase 2 selects as input (default 256, 1..4096)
 * @param maxUnusedDays {@code max_unused_days}: days after which an unused memory is no longer selected and
 *     is pruned at startup (default 30, 0..365)
 * @param maxRolloutAgeDays {@code max_rollout_age_days}: Phase 1 only looks at threads updated within this
 *     many days (default 10, 0..90)
 * @param maxRolloutsPerStartup {@code max_rollouts_per_startup}: Phase 1 claims per run, also the cap on
 *     Phase 1 jobs running at once across processes (default 2, 1..128)
 * @param minRolloutIdleHours {@code min_rollout_idle_hours}: hours a thread must be idle before it is
 *     extracted, unless the application ended it (default 6, 1..48)
 * @param minRateLimitRemainingPercent {@code min_rate_limit_remaining_percent}: the startup task skips when
 *     the model's reported rate-limit headroom is below this percent (default 25, 0..100)
 * @param extractModel {@code extract_model}: the model name sent in Phase 1 requests; empty (the default) for
 *     the client's model; not blank
 * @param consolidationModel {@code consolidation_model}: the model name sent in Phase 2 requests; empty (the
 *     default) for the client's model; not blank
 * @param memorySources {@code memory_sources}: the thread sources eligible for Phase 1 (default
 *     {@code ["cli", "vscode", "app"]}); copied, each not blank
 * @param phase1Concurrency {@code phase1_concurrency}: Phase 1 extractions run in parallel (default 8, 1..64)
 * @param historyRetention {@code history_retention}: consolidations kept in the memory folder's git history
 *     for rollback; 0 keeps only the baseline (default 10, 0..1000)
 * @param consolidationTimeoutMinutes {@code consolidation_timeout_minutes}: upper bound in minutes on one
 *     consolidation agent run (default 30, 1..240)
 * @param summaryTokenLimit {@code summary_token_limit}: cap in tokens on the summary injected into the
 *     instructions (default 2,500, 500..20000)
 * @param approval {@code approval}: whether new memories wait for a person (default {@link Approval#AUTO})
 * @param maxExtractionTokensPerRollout {@code max_extraction_tokens_per_rollout}: input tokens one rollout's
 *     extraction may spend over all its requests (default 250,000, 1,000..100,000,000)
 * @param maxExtractionTokensPerDay {@code max_extraction_tokens_per_day}: tokens Phase 1 may spend per UTC
 *     day; 0 (the default) is unlimited
 * @param selectionPolicy {@code selection_policy}: how Phase 2 selects its inputs (default
 *     {@link SelectionPolicy#CODEX})
 * @param selectionHalfLifeDays {@code selection_half_life_days}: with {@link SelectionPolicy#FAIR}, days
 *     after which a usage count weighs half (default 30, 1..3650)
 * @param selectionNewSharePercent {@code selection_new_share_percent}: with {@link SelectionPolicy#FAIR},
 *     percent of the selection kept for never-selected memories (default 10, 0..50)
 */
public record MemoriesConfig(boolean generateMemories, boolean useMemories, boolean dedicatedTools,
        boolean disableOnExternalContext, int maxRawMemoriesForConsolidation, int maxUnusedDays,
        int maxRolloutAgeDays, int maxRolloutsPerStartup, int minRolloutIdleHours,
        int minRateLimitRemainingPercent, Optional<String> extractModel, Optional<String> consolidationModel,
        List<String> memorySources, int phase1Concurrency, int historyRetention,
        int consolidationTimeoutMinutes, int summaryTokenLimit, Approval approval,
        int maxExtractionTokensPerRollout, int maxExtractionTokensPerDay, SelectionPolicy selectionPolicy,
        int selectionHalfLifeDays, int selectionNewSharePercent) {

    /**
     * Checks every value against its range; unlike {@link Builder#build()}, clamps nothing.
     *
     * @param generateMemories {@code generate_memories}: whether new threads are registered for extraction
     *     (default true; false registers them disabled and the startup task skips)
     * @param useMemories {@code use_memories}: whether the developer instructions carry the memory summary
     *     (default true; false returns {@code ""} while the pipeline still runs)
     * @param dedicatedTools {@code dedicated_tools}: whether the instructions say the memory tools are
     *     dedicated tools (default false)
     * @param disableOnExternalContext {@code disable_on_external_context}: whether external context marks a
     *     thread polluted, so its memory is forgotten and it is never extracted (default false)
     * @param maxRawMemoriesForConsolidation {@code max_raw_memories_for_consolidation}: how many stage-1
     *     memories Phase 2 selects as input (default 256, 1..4096)
     * @param maxUnusedDays {@code max_unused_days}: days after which an unused memory is no longer selected
     *     and is pruned at startup (default 30, 0..365)
     * @param maxRolloutAgeDays {@code max_rollout_age_days}: Phase 1 only looks at threads updated within
     *     this many days (default 10, 0..90)
     * @param maxRolloutsPerStartup {@code max_rollouts_per_startup}: Phase 1 claims per run, also the cap on
     *     Phase 1 jobs running at once across processes (default 2, 1..128)
     * @param minRolloutIdleHours {@code min_rollout_idle_hours}: hours a thread must be idle before it is
     *     extracted, unless the application ended it (default 6, 1..48)
     * @param minRateLimitRemainingPercent {@code min_rate_limit_remaining_percent}: the startup task skips
     *     when the model's reported rate-limit headroom is below this percent (default 25, 0..100)
     * @param extractModel {@code extract_model}: the model name sent in Phase 1 requests; empty (the default)
     *     for the client's model; not blank
     * @param consolidationModel {@code consolidation_model}: the model name sent in Phase 2 requests; empty
     *     (the default) for the client's model; not blank
     * @param memorySources {@code memory_sources}: the thread sources eligible for Phase 1 (default
     *     {@code ["cli", "vscode", "app"]}); copied, each not blank
     * @param phase1Concurrency {@code phase1_concurrency}: Phase 1 extractions run in parallel (default 8,
     *     1..64)
     * @param historyRetention {@code history_retention}: consolidations kept in the memory folder's git
     *     history for rollback; 0 keeps only the baseline (default 10, 0..1000)
     * @param consolidationTimeoutMinutes {@code consolidation_timeout_minutes}: upper bound in minutes on one
     *     consolidation agent run (default 30, 1..240)
     * @param summaryTokenLimit {@code summary_token_limit}: cap in tokens on the summary injected into the
     *     instructions (default 2,500, 500..20000)
     * @param approval {@code approval}: whether new memories wait for a person (default
     *     {@link Approval#AUTO})
     * @param maxExtractionTokensPerRollout {@code max_extraction_tokens_per_rollout}: input tokens one
     *     rollout's extraction may spend over all its requests (default 250,000, 1,000..100,000,000)
     * @param maxExtractionTokensPerDay {@code max_extraction_tokens_per_day}: tokens Phase 1 may spend per
     *     UTC day; 0 (the default) is unlimited
     * @param selectionPolicy {@code selection_policy}: how Phase 2 selects its inputs (default
     *     {@link SelectionPolicy#CODEX})
     * @param selectionHalfLifeDays {@code selection_half_life_days}: with {@link SelectionPolicy#FAIR}, days
     *     after which a usage count weighs half (default 30, 1..3650)
     * @param selectionNewSharePercent {@code selection_new_share_percent}: with {@link SelectionPolicy#FAIR},
     *     percent of the selection kept for never-selected memories (default 10, 0..50)
     * @throws NullPointerException when an object component is null
     * @throws IllegalArgumentException when a number is outside its range or a model name or source
     *     is blank
     */
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
     *
     * @param generateMemories {@code generate_memories}: whether new threads are registered for extraction
     *     (default true; false registers them disabled and the startup task skips)
     * @param useMemories {@code use_memories}: whether the developer instructions carry the memory summary
     *     (default true; false returns {@code ""} while the pipeline still runs)
     * @param dedicatedTools {@code dedicated_tools}: whether the instructions say the memory tools are
     *     dedicated tools (default false)
     * @param disableOnExternalContext {@code disable_on_external_context}: whether external context marks a
     *     thread polluted, so its memory is forgotten and it is never extracted (default false)
     * @param maxRawMemoriesForConsolidation {@code max_raw_memories_for_consolidation}: how many stage-1
     *     memories Phase 2 selects as input (default 256, 1..4096)
     * @param maxUnusedDays {@code max_unused_days}: days after which an unused memory is no longer selected
     *     and is pruned at startup (default 30, 0..365)
     * @param maxRolloutAgeDays {@code max_rollout_age_days}: Phase 1 only looks at threads updated within
     *     this many days (default 10, 0..90)
     * @param maxRolloutsPerStartup {@code max_rollouts_per_startup}: Phase 1 claims per run, also the cap on
     *     Phase 1 jobs running at once across processes (default 2, 1..128)
     * @param minRolloutIdleHours {@code min_rollout_idle_hours}: hours a thread must be idle before it is
     *     extracted, unless the application ended it (default 6, 1..48)
     * @param minRateLimitRemainingPercent {@code min_rate_limit_remaining_percent}: the startup task skips
     *     when the model's reported rate-limit headroom is below this percent (default 25, 0..100)
     * @param extractModel {@code extract_model}: the model name sent in Phase 1 requests; empty (the default)
     *     for the client's model; not blank
     * @param consolidationModel {@code consolidation_model}: the model name sent in Phase 2 requests; empty
     *     (the default) for the client's model; not blank
     * @param memorySources {@code memory_sources}: the thread sources eligible for Phase 1 (default
     *     {@code ["cli", "vscode", "app"]}); copied, each not blank
     * @param phase1Concurrency {@code phase1_concurrency}: Phase 1 extractions run in parallel (default 8,
     *     1..64)
     * @param historyRetention {@code history_retention}: consolidations kept in the memory folder's git
     *     history for rollback; 0 keeps only the baseline (default 10, 0..1000)
     * @param consolidationTimeoutMinutes {@code consolidation_timeout_minutes}: upper bound in minutes on one
     *     consolidation agent run (default 30, 1..240)
     * @param summaryTokenLimit {@code summary_token_limit}: cap in tokens on the summary injected into the
     *     instructions (default 2,500, 500..20000)
     * @param approval {@code approval}: whether new memories wait for a person (default
     *     {@link Approval#AUTO})
     * @throws IllegalArgumentException when a number is outside its range or a model name or source
     *     is blank
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

    /**
     * The settings of earlier releases: {@link Approval#AUTO}, and the long-session keys at their
     * defaults.
     *
     * @param generateMemories {@code generate_memories}: whether new threads are registered for extraction
     *     (default true; false registers them disabled and the startup task skips)
     * @param useMemories {@code use_memories}: whether the developer instructions carry the memory summary
     *     (default true; false returns {@code ""} while the pipeline still runs)
     * @param dedicatedTools {@code dedicated_tools}: whether the instructions say the memory tools are
     *     dedicated tools (default false)
     * @param disableOnExternalContext {@code disable_on_external_context}: whether external context marks a
     *     thread polluted, so its memory is forgotten and it is never extracted (default false)
     * @param maxRawMemoriesForConsolidation {@code max_raw_memories_for_consolidation}: how many stage-1
     *     memories Phase 2 selects as input (default 256, 1..4096)
     * @param maxUnusedDays {@code max_unused_days}: days after which an unused memory is no longer selected
     *     and is pruned at startup (default 30, 0..365)
     * @param maxRolloutAgeDays {@code max_rollout_age_days}: Phase 1 only looks at threads updated within
     *     this many days (default 10, 0..90)
     * @param maxRolloutsPerStartup {@code max_rollouts_per_startup}: Phase 1 claims per run, also the cap on
     *     Phase 1 jobs running at once across processes (default 2, 1..128)
     * @param minRolloutIdleHours {@code min_rollout_idle_hours}: hours a thread must be idle before it is
     *     extracted, unless the application ended it (default 6, 1..48)
     * @param minRateLimitRemainingPercent {@code min_rate_limit_remaining_percent}: the startup task skips
     *     when the model's reported rate-limit headroom is below this percent (default 25, 0..100)
     * @param extractModel {@code extract_model}: the model name sent in Phase 1 requests; empty (the default)
     *     for the client's model; not blank
     * @param consolidationModel {@code consolidation_model}: the model name sent in Phase 2 requests; empty
     *     (the default) for the client's model; not blank
     * @param memorySources {@code memory_sources}: the thread sources eligible for Phase 1 (default
     *     {@code ["cli", "vscode", "app"]}); copied, each not blank
     * @param phase1Concurrency {@code phase1_concurrency}: Phase 1 extractions run in parallel (default 8,
     *     1..64)
     * @param historyRetention {@code history_retention}: consolidations kept in the memory folder's git
     *     history for rollback; 0 keeps only the baseline (default 10, 0..1000)
     * @param consolidationTimeoutMinutes {@code consolidation_timeout_minutes}: upper bound in minutes on one
     *     consolidation agent run (default 30, 1..240)
     * @param summaryTokenLimit {@code summary_token_limit}: cap in tokens on the summary injected into the
     *     instructions (default 2,500, 500..20000)
     * @throws IllegalArgumentException when a number is outside its range or a model name or source
     *     is blank
     */
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

    /**
     * Codex's defaults, plus Mnemo's for the keys Codex does not have.
     *
     * @return the settings of an empty {@code [memories]} table
     */
    public static MemoriesConfig defaults() {
        return builder().build();
    }

    /**
     * Reads the {@code [memories]} table of a {@code config.toml}; other tables are ignored. A
     * missing file gives {@link #defaults()}.
     *
     * @param configToml the path of {@code config.toml}; the file need not exist
     * @return the settings it holds, out-of-range numbers clamped
     * @throws MemoryConfigurationException for broken TOML, an unknown key in {@code [memories]} or a
     *     value of the wrong type; the message names the key and the file
     */
    public static MemoriesConfig load(Path configToml) {
        return TomlConfigLoader.load(configToml);
    }

    /**
     * A builder starting from the defaults.
     *
     * @return a new builder holding the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * A builder holding this config's values.
     *
     * @return a new builder, to change some values of a copy
     */
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

    /**
     * Whether Phase 1 has a daily token budget ({@code max_extraction_tokens_per_day > 0}).
     *
     * @return true when {@code maxExtractionTokensPerDay} is positive
     */
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

        /**
         * Sets {@code generate_memories}: whether new threads are registered for extraction.
         *
         * @param value false registers new threads disabled; default true
         * @return this builder
         */
        public Builder generateMemories(boolean value) {
            generateMemories = value;
            return this;
        }

        /**
         * Sets {@code use_memories}: whether the developer instructions carry the memory summary.
         *
         * @param value false leaves the instructions empty while the pipeline still runs; default true
         * @return this builder
         */
        public Builder useMemories(boolean value) {
            useMemories = value;
            return this;
        }

        /**
         * Sets {@code dedicated_tools}: whether the instructions say the memory tools are dedicated tools.
         *
         * @param value true when the agent exposes the memory tools as its own tools; default false
         * @return this builder
         */
        public Builder dedicatedTools(boolean value) {
            dedicatedTools = value;
            return this;
        }

        /**
         * Sets {@code disable_on_external_context}: whether external context marks a thread polluted.
         *
         * @param value true to forget a thread's memory once it has seen external context; default false
         * @return this builder
         */
        public Builder disableOnExternalContext(boolean value) {
            disableOnExternalContext = value;
            return this;
        }

        /**
         * Sets {@code max_raw_memories_for_consolidation}: how many stage-1 memories Phase 2 selects.
         *
         * @param value the count; default 256, clamped to 1..4096
         * @return this builder
         */
        public Builder maxRawMemoriesForConsolidation(long value) {
            maxRawMemoriesForConsolidation = value;
            return this;
        }

        /**
         * Sets {@code max_unused_days}: days after which an unused memory is no longer selected and is pruned.
         *
         * @param value the days; default 30, clamped to 0..365
         * @return this builder
         */
        public Builder maxUnusedDays(long value) {
            maxUnusedDays = value;
            return this;
        }

        /**
         * Sets {@code max_rollout_age_days}: Phase 1 only looks at threads updated within this many days.
         *
         * @param value the days; default 10, clamped to 0..90
         * @return this builder
         */
        public Builder maxRolloutAgeDays(long value) {
            maxRolloutAgeDays = value;
            return this;
        }

        /**
         * Sets {@code max_rollouts_per_startup}: Phase 1 claims per run and jobs running at once.
         *
         * @param value the count; default 2, clamped to 1..128
         * @return this builder
         */
        public Builder maxRolloutsPerStartup(long value) {
            maxRolloutsPerStartup = value;
            return this;
        }

        /**
         * Sets {@code min_rollout_idle_hours}: how long a thread must be idle before it is extracted.
         *
         * @param value the hours; default 6, clamped to 1..48
         * @return this builder
         */
        public Builder minRolloutIdleHours(long value) {
            minRolloutIdleHours = value;
            return this;
        }

        /**
         * Sets {@code min_rate_limit_remaining_percent}: the rate-limit headroom below which the startup
         * task skips.
         *
         * @param value the percent; default 25, clamped to 0..100
         * @return this builder
         */
        public Builder minRateLimitRemainingPercent(long value) {
            minRateLimitRemainingPercent = value;
            return this;
        }

        /**
         * Sets {@code extract_model}: the model name sent in Phase 1 requests.
         *
         * @param value the model name, or empty (the default) for the client's model; not null
         * @return this builder
         * @throws NullPointerException when {@code value} is null
         */
        public Builder extractModel(Optional<String> value) {
            extractModel = Objects.requireNonNull(value, "extractModel");
            return this;
        }

        /**
         * Sets {@code extract_model}: the model name sent in Phase 1 requests.
         *
         * @param value the model name; not null, and {@link #build()} rejects a blank one
         * @return this builder
         */
        public Builder extractModel(String value) {
            return extractModel(Optional.of(value));
        }

        /**
         * Sets {@code consolidation_model}: the model name sent in Phase 2 requests.
         *
         * @param value the model name, or empty (the default) for the client's model; not null
         * @return this builder
         * @throws NullPointerException when {@code value} is null
         */
        public Builder consolidationModel(Optional<String> value) {
            consolidationModel = Objects.requireNonNull(value, "consolidationModel");
            return this;
        }

        /**
         * Sets {@code consolidation_model}: the model name sent in Phase 2 requests.
         *
         * @param value the model name; not null, and {@link #build()} rejects a blank one
         * @return this builder
         */
        public Builder consolidationModel(String value) {
            return consolidationModel(Optional.of(value));
        }

        /**
         * Sets {@code memory_sources}: the thread sources eligible for Phase 1.
         *
         * @param value the sources, copied; default {@code ["cli", "vscode", "app"]}
         * @return this builder
         * @throws NullPointerException when {@code value} is null
         */
        public Builder memorySources(List<String> value) {
            memorySources = List.copyOf(Objects.requireNonNull(value, "memorySources"));
            return this;
        }

        /**
         * Sets {@code phase1_concurrency}: how many Phase 1 extractions run in parallel.
         *
         * @param value the count; default 8, clamped to 1..64
         * @return this builder
         */
        public Builder phase1Concurrency(long value) {
            phase1Concurrency = value;
            return this;
        }

        /**
         * Sets {@code history_retention}: consolidations kept in the memory folder's git history.
         *
         * @param value the count, 0 to keep only the baseline; default 10, clamped to 0..1000
         * @return this builder
         */
        public Builder historyRetention(long value) {
            historyRetention = value;
            return this;
        }

        /**
         * Sets {@code consolidation_timeout_minutes}: the upper bound on one consolidation agent run.
         *
         * @param value the minutes; default 30, clamped to 1..240
         * @return this builder
         */
        public Builder consolidationTimeoutMinutes(long value) {
            consolidationTimeoutMinutes = value;
            return this;
        }

        /**
         * Sets {@code summary_token_limit}: the cap on the summary injected into the instructions.
         *
         * @param value the tokens; default 2,500, clamped to 500..20000
         * @return this builder
         */
        public Builder summaryTokenLimit(long value) {
            summaryTokenLimit = value;
            return this;
        }

        /**
         * Whether new memories wait for a person ({@link Approval#ASK}); default {@link Approval#AUTO}.
         *
         * @param value the approval mode; not null
         * @return this builder
         */
        public Builder approval(Approval value) {
            approval = Objects.requireNonNull(value, "approval");
            return this;
        }

        /**
         * Input tokens one rollout's extraction may spend over all its requests (default 250,000,
         * about 1 MB). A longer session is first fitted to it, least important rows dropped first.
         *
         * @param value the tokens; clamped to 1,000..100,000,000
         * @return this builder
         */
        public Builder maxExtractionTokensPerRollout(long value) {
            maxExtractionTokensPerRollout = value;
            return this;
        }

        /**
         * Tokens Phase 1 may spend per UTC day (0, the default: unlimited).
         *
         * @param value the tokens; 0 for no budget, clamped to 0..2147483647
         * @return this builder
         */
        public Builder maxExtractionTokensPerDay(long value) {
            maxExtractionTokensPerDay = value;
            return this;
        }

        /**
         * How Phase 2 selects its inputs; default {@link SelectionPolicy#CODEX}.
         *
         * @param value the policy; not null
         * @return this builder
         */
        public Builder selectionPolicy(SelectionPolicy value) {
            selectionPolicy = Objects.requireNonNull(value, "selectionPolicy");
            return this;
        }

        /**
         * With {@link SelectionPolicy#FAIR}: days after which a usage count weighs half (default 30).
         *
         * @param value the days; clamped to 1..3650
         * @return this builder
         */
        public Builder selectionHalfLifeDays(long value) {
            selectionHalfLifeDays = value;
            return this;
        }

        /**
         * With {@link SelectionPolicy#FAIR}: percent of the selection kept for never-selected memories (default 10).
         *
         * @param value the percent; clamped to 0..50
         * @return this builder
         */
        public Builder selectionNewSharePercent(long value) {
            selectionNewSharePercent = value;
            return this;
        }

        /**
         * Clamps each number into its range (logging a warning naming the key) and builds.
         *
         * @return the settings
         * @throws IllegalArgumentException when a model name or memory source is blank
         */
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
