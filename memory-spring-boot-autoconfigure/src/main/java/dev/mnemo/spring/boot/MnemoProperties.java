package dev.mnemo.spring.boot;

import dev.mnemo.Approval;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.SelectionPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/*
 * Why this file is long (about 600 lines): it is the @ConfigurationProperties class, and its nested
 * property groups (Memories, Model, ChatClient, Conversations, Tenants, Endpoint, ChatMemory,
 * Pipeline, Telemetry) are public types users refer to as MnemoProperties.Memories and so on, and their
 * nesting gives the binding names (mnemo.memories.*, ...). Moving a group to a file of its own would
 * change its type's name; what remains is mostly the getters and setters binding needs.
 */

/**
 * Mnemo's settings in a Spring Boot application: {@code mnemo.tenancy} (whose memory a request
 * reads and records; no default), {@code mnemo.home}, every {@code [memories]} key of
 * {@code config.toml} as {@code mnemo.memories.<kebab-case-key>} with the same defaults and clamps,
 * and how conversations, users' engines, the scheduled pipeline and {@code ChatClient}s are handled.
 * The properties replace {@code <home>/config.toml}, which is not read when the engine comes from
 * this auto-configuration.
 */
@ConfigurationProperties(MnemoProperties.PREFIX)
public class MnemoProperties {

    /** The prefix of every Mnemo property. */
    public static final String PREFIX = "mnemo";

    /**
     * Whose memory a request reads and records: {@code shared} (one memory for the whole
     * application) or {@code per-user} (one memory per user). No default: without it, and without
     * an application's own MemoryEngine or MemoryEngines bean, the application does not start.
     */
    private Tenancy tenancy;

    /**
     * The folder for state, recorded conversations and memories; with {@code tenancy=per-user} the
     * folder holding one home per user. Default: {@code $MNEMO_HOME}, else {@code ~/.mnemo}.
     */
    private Path home;

    private final Memories memories = new Memories();

    private final ChatClient chatClient = new ChatClient();

    private final Model model = new Model();

    private final Conversations conversations = new Conversations();

    private final Tenants tenants = new Tenants();

    private final Pipeline pipeline = new Pipeline();

    private final Endpoint endpoint = new Endpoint();

    private final ChatMemory chatMemory = new ChatMemory();

    private final Telemetry telemetry = new Telemetry();

    /** Whose memory a request reads and records. */
    public enum Tenancy {
        /** One memory for the whole application: a team bot, a single-user tool. */
        SHARED,
        /** One memory per user, the user resolved per request. */
        PER_USER
    }

    /**
     * {@code mnemo.tenancy}: whose memory a request reads and records: {@code shared} (one memory for the
     * whole application) or {@code per-user} (one memory per user). No default: without it, and without an
     * application's own MemoryEngine or MemoryEngines bean, the application does not start.
     *
     * @return the bound value; null when the property is not set
     */
    public Tenancy getTenancy() {
        return tenancy;
    }

    /**
     * Sets {@code mnemo.tenancy}; see {@link #getTenancy()}.
     *
     * @param tenancy the value to bind
     */
    public void setTenancy(Tenancy tenancy) {
        this.tenancy = tenancy;
    }

    /**
     * {@code mnemo.home}: the folder for state, recorded conversations and memories; with {@code
     * tenancy=per-user} the folder holding one home per user. Default: {@code $MNEMO_HOME}, else {@code
     * ~/.mnemo}.
     *
     * @return the bound value; null when the property is not set
     */
    public Path getHome() {
        return home;
    }

    /**
     * Sets {@code mnemo.home}; see {@link #getHome()}.
     *
     * @param home the value to bind
     */
    public void setHome(Path home) {
        this.home = home;
    }

    /**
     * The {@code mnemo.memories.*} properties.
     *
     * @return the group, bound in place; never null
     */
    public Memories getMemories() {
        return memories;
    }

    /**
     * The {@code mnemo.chat-client.*} properties.
     *
     * @return the group, bound in place; never null
     */
    public ChatClient getChatClient() {
        return chatClient;
    }

    /**
     * The {@code mnemo.model.*} properties.
     *
     * @return the group, bound in place; never null
     */
    public Model getModel() {
        return model;
    }

    /**
     * The {@code mnemo.conversations.*} properties.
     *
     * @return the group, bound in place; never null
     */
    public Conversations getConversations() {
        return conversations;
    }

    /**
     * The {@code mnemo.tenants.*} properties.
     *
     * @return the group, bound in place; never null
     */
    public Tenants getTenants() {
        return tenants;
    }

    /**
     * The {@code mnemo.endpoint.*} properties.
     *
     * @return the group, bound in place; never null
     */
    public Endpoint getEndpoint() {
        return endpoint;
    }

    /**
     * The {@code mnemo.chat-memory.*} properties.
     *
     * @return the group, bound in place; never null
     */
    public ChatMemory getChatMemory() {
        return chatMemory;
    }

    /**
     * The {@code mnemo.telemetry.*} properties.
     *
     * @return the group, bound in place; never null
     */
    public Telemetry getTelemetry() {
        return telemetry;
    }

    /**
     * The {@code mnemo.pipeline.*} properties.
     *
     * @return the group, bound in place; never null
     */
    public Pipeline getPipeline() {
        return pipeline;
    }

    /** The home, or the default home core uses: {@code $MNEMO_HOME}, else {@code ~/.mnemo}. */
    Path homeOrDefault() {
        Optional<Path> given = checkedHome();
        if (given.isPresent()) {
            return given.get();
        }
        String env = System.getenv("MNEMO_HOME");
        return env != null && !env.isBlank() ? Path.of(env) : Path.of(System.getProperty("user.home"), ".mnemo");
    }

    /** The home, checked: a path that exists must be a folder. */
    Optional<Path> checkedHome() {
        if (home != null && Files.exists(home) && !Files.isDirectory(home)) {
            throw new InvalidConfigurationPropertyValueException(PREFIX + ".home", home,
                    "it is a file; Mnemo's home must be a folder (it is created when missing)");
        }
        return Optional.ofNullable(home);
    }

    /** The {@code [memories]} keys; defaults and clamps as in {@code config.toml}. */
    public static class Memories {

        private static final Logger LOG = LoggerFactory.getLogger(MnemoProperties.class);
        private static final String KEY = PREFIX + ".memories.";

        /**
         * Core's defaults, the one source of the defaults below. The configuration processor cannot
         * read a default from a method call, so the IDE's copy lives in
         * {@code META-INF/additional-spring-configuration-metadata.json}, and
         * {@code ConfigurationMetadataTest} checks it (and each range in a description) against core.
         */
        private static final MemoriesConfig DEFAULTS = MemoriesConfig.defaults();

        /** Whether new conversations are distilled into memories; off: the startup task skips. */
        private boolean generateMemories = DEFAULTS.generateMemories();

        /** Whether the memory summary is added to the model's instructions. */
        private boolean useMemories = DEFAULTS.useMemories();

        /** Whether the model is handed the memory tools (memories_list, _read, _search, _add_ad_hoc_note). */
        private boolean dedicatedTools = DEFAULTS.dedicatedTools();

        /** Whether content from outside a conversation (web, MCP) marks it polluted. */
        private boolean disableOnExternalContext = DEFAULTS.disableOnExternalContext();

        /** Phase 2 selection size (1..4096). */
        private int maxRawMemoriesForConsolidation = DEFAULTS.maxRawMemoriesForConsolidation();

        /** Days an unused memory stays eligible for Phase 2 and is kept (0..365). */
        private int maxUnusedDays = DEFAULTS.maxUnusedDays();

        /** Phase 1 considers conversations at most this many days old (0..90). */
        private int maxRolloutAgeDays = DEFAULTS.maxRolloutAgeDays();

        /** Phase 1 claims per startup run, also the global running cap (1..128). */
        private int maxRolloutsPerStartup = DEFAULTS.maxRolloutsPerStartup();

        /** A conversation must be idle this many hours before Phase 1 distils it (1..48). */
        private int minRolloutIdleHours = DEFAULTS.minRolloutIdleHours();

        /** The pipeline skips when less than this share of the rate limit remains (0..100). */
        private int minRateLimitRemainingPercent = DEFAULTS.minRateLimitRemainingPercent();

        /** The model name for Phase 1 requests; default the ChatModel's own. */
        private String extractModel;

        /** The model name for the consolidation agent; default the ChatModel's own. */
        private String consolidationModel;

        /** Conversation sources eligible for Phase 1 ("app" = conversations recorded through Mnemo). */
        private List<String> memorySources = new ArrayList<>(DEFAULTS.memorySources());

        /** Parallel Phase 1 jobs (1..64). */
        private int phase1Concurrency = DEFAULTS.phase1Concurrency();

        /** Consolidations kept in the memory folder's history (0..1000; 0 = baseline only). */
        private int historyRetention = DEFAULTS.historyRetention();

        /** Bound on one consolidation agent run, in minutes (1..240). */
        private int consolidationTimeoutMinutes = DEFAULTS.consolidationTimeoutMinutes();

        /** Cap on the summary added to the instructions, in tokens (500..20000). */
        private int summaryTokenLimit = DEFAULTS.summaryTokenLimit();

        /** {@code ask}: new memories and notes wait for a person's approval; {@code auto}: they take effect at once. */
        private Approval approval = DEFAULTS.approval();

        /** Input tokens one conversation's extraction may spend over all its requests (1000..100000000). */
        private int maxExtractionTokensPerRollout = DEFAULTS.maxExtractionTokensPerRollout();

        /** Tokens Phase 1 may spend per UTC day (0..2147483647; 0 = unlimited). Per user with mnemo.tenancy=per-user. */
        private int maxExtractionTokensPerDay = DEFAULTS.maxExtractionTokensPerDay();

        /** {@code codex}: Phase 2 selects by usage and recency; {@code fair}: usage decays and new memories get a share. */
        private SelectionPolicy selectionPolicy = DEFAULTS.selectionPolicy();

        /** With selection-policy=fair: days after which a usage count weighs half (1..3650). */
        private int selectionHalfLifeDays = DEFAULTS.selectionHalfLifeDays();

        /** With selection-policy=fair: percent of the selection kept for never-selected memories (0..50). */
        private int selectionNewSharePercent = DEFAULTS.selectionNewSharePercent();

        /**
         * The settings, clamped as {@link MemoriesConfig.Builder#build()} clamps (each clamp logged
         * with the property's name).
         *
         * @return the settings the engine is built with, clamped to their ranges
         * @throws InvalidConfigurationPropertyValueException for a blank model name or source
         */
        public MemoriesConfig toConfig() {
            requireNotBlank("extract-model", extractModel);
            requireNotBlank("consolidation-model", consolidationModel);
            for (int i = 0; i < memorySources.size(); i++) {
                if (memorySources.get(i) == null || memorySources.get(i).isBlank()) {
                    throw new InvalidConfigurationPropertyValueException(KEY + "memory-sources[" + i + "]",
                            memorySources.get(i), "a memory source must not be blank");
                }
            }
            MemoriesConfig config = MemoriesConfig.builder().generateMemories(generateMemories)
                    .useMemories(useMemories).dedicatedTools(dedicatedTools)
                    .disableOnExternalContext(disableOnExternalContext)
                    .maxRawMemoriesForConsolidation(maxRawMemoriesForConsolidation).maxUnusedDays(maxUnusedDays)
                    .maxRolloutAgeDays(maxRolloutAgeDays).maxRolloutsPerStartup(maxRolloutsPerStartup)
                    .minRolloutIdleHours(minRolloutIdleHours)
                    .minRateLimitRemainingPercent(minRateLimitRemainingPercent)
                    .extractModel(Optional.ofNullable(extractModel)).consolidationModel(Optional.ofNullable(consolidationModel))
                    .memorySources(memorySources).phase1Concurrency(phase1Concurrency)
                    .historyRetention(historyRetention).consolidationTimeoutMinutes(consolidationTimeoutMinutes)
                    .summaryTokenLimit(summaryTokenLimit).approval(approval)
                    .maxExtractionTokensPerRollout(maxExtractionTokensPerRollout)
                    .maxExtractionTokensPerDay(maxExtractionTokensPerDay).selectionPolicy(selectionPolicy)
                    .selectionHalfLifeDays(selectionHalfLifeDays).selectionNewSharePercent(selectionNewSharePercent)
                    .build();
            logClamp("max-raw-memories-for-consolidation", maxRawMemoriesForConsolidation,
                    config.maxRawMemoriesForConsolidation());
            logClamp("max-unused-days", maxUnusedDays, config.maxUnusedDays());
            logClamp("max-rollout-age-days", maxRolloutAgeDays, config.maxRolloutAgeDays());
            logClamp("max-rollouts-per-startup", maxRolloutsPerStartup, config.maxRolloutsPerStartup());
            logClamp("min-rollout-idle-hours", minRolloutIdleHours, config.minRolloutIdleHours());
            logClamp("min-rate-limit-remaining-percent", minRateLimitRemainingPercent,
                    config.minRateLimitRemainingPercent());
            logClamp("phase1-concurrency", phase1Concurrency, config.phase1Concurrency());
            logClamp("history-retention", historyRetention, config.historyRetention());
            logClamp("consolidation-timeout-minutes", consolidationTimeoutMinutes,
                    config.consolidationTimeoutMinutes());
            logClamp("summary-token-limit", summaryTokenLimit, config.summaryTokenLimit());
            logClamp("max-extraction-tokens-per-rollout", maxExtractionTokensPerRollout,
                    config.maxExtractionTokensPerRollout());
            logClamp("max-extraction-tokens-per-day", maxExtractionTokensPerDay, config.maxExtractionTokensPerDay());
            logClamp("selection-half-life-days", selectionHalfLifeDays, config.selectionHalfLifeDays());
            logClamp("selection-new-share-percent", selectionNewSharePercent, config.selectionNewSharePercent());
            return config;
        }

        private static void requireNotBlank(String name, String value) {
            if (value != null && value.isBlank()) {
                throw new InvalidConfigurationPropertyValueException(KEY + name, value,
                        "a model name must not be blank; leave the property out to use the ChatModel's own");
            }
        }

        private static void logClamp(String name, int given, int used) {
            if (given != used) {
                LOG.warn("{}{} = {} is out of range; using {}", KEY, name, given, used);
            }
        }

        /**
         * {@code mnemo.memories.generate-memories}: whether new conversations are distilled into memories;
         * off: the startup task skips.
         *
         * @return the bound value, or the default when the property is not set
         */
        public boolean isGenerateMemories() {
            return generateMemories;
        }

        /**
         * Sets {@code mnemo.memories.generate-memories}; see {@link #isGenerateMemories()}.
         *
         * @param generateMemories the value to bind
         */
        public void setGenerateMemories(boolean generateMemories) {
            this.generateMemories = generateMemories;
        }

        /**
         * {@code mnemo.memories.use-memories}: whether the memory summary is added to the model's
         * instructions.
         *
         * @return the bound value, or the default when the property is not set
         */
        public boolean isUseMemories() {
            return useMemories;
        }

        /**
         * Sets {@code mnemo.memories.use-memories}; see {@link #isUseMemories()}.
         *
         * @param useMemories the value to bind
         */
        public void setUseMemories(boolean useMemories) {
            this.useMemories = useMemories;
        }

        /**
         * {@code mnemo.memories.dedicated-tools}: whether the model is handed the memory tools
         * (memories_list, _read, _search, _add_ad_hoc_note).
         *
         * @return the bound value, or the default when the property is not set
         */
        public boolean isDedicatedTools() {
            return dedicatedTools;
        }

        /**
         * Sets {@code mnemo.memories.dedicated-tools}; see {@link #isDedicatedTools()}.
         *
         * @param dedicatedTools the value to bind
         */
        public void setDedicatedTools(boolean dedicatedTools) {
            this.dedicatedTools = dedicatedTools;
        }

        /**
         * {@code mnemo.memories.disable-on-external-context}: whether content from outside a conversation
         * (web, MCP) marks it polluted.
         *
         * @return the bound value, or the default when the property is not set
         */
        public boolean isDisableOnExternalContext() {
            return disableOnExternalContext;
        }

        /**
         * Sets {@code mnemo.memories.disable-on-external-context}; see {@link #isDisableOnExternalContext()}.
         *
         * @param disableOnExternalContext the value to bind
         */
        public void setDisableOnExternalContext(boolean disableOnExternalContext) {
            this.disableOnExternalContext = disableOnExternalContext;
        }

        /**
         * {@code mnemo.memories.max-raw-memories-for-consolidation}: Phase 2 selection size (1..4096).
         *
         * @return the bound value, or the default when the property is not set
         */
        public int getMaxRawMemoriesForConsolidation() {
            return maxRawMemoriesForConsolidation;
        }

        /**
         * Sets {@code mnemo.memories.max-raw-memories-for-consolidation}; see {@link
         * #getMaxRawMemoriesForConsolidation()}.
         *
         * @param maxRawMemoriesForConsolidation the value to bind
         */
        public void setMaxRawMemoriesForConsolidation(int maxRawMemoriesForConsolidation) {
            this.maxRawMemoriesForConsolidation = maxRawMemoriesForConsolidation;
        }

        /**
         * {@code mnemo.memories.max-unused-days}: days an unused memory stays eligible for Phase 2 and is
         * kept (0..365).
         *
         * @return the bound value, or the default when the property is not set
         */
        public int getMaxUnusedDays() {
            return maxUnusedDays;
        }

        /**
         * Sets {@code mnemo.memories.max-unused-days}; see {@link #getMaxUnusedDays()}.
         *
         * @param maxUnusedDays the value to bind
         */
        public void setMaxUnusedDays(int maxUnusedDays) {
            this.maxUnusedDays = maxUnusedDays;
        }

        /**
         * {@code mnemo.memories.max-rollout-age-days}: Phase 1 considers conversations at most this many days
         * old (0..90).
         *
         * @return the bound value, or the default when the property is not set
         */
        public int getMaxRolloutAgeDays() {
            return maxRolloutAgeDays;
        }

        /**
         * Sets {@code mnemo.memories.max-rollout-age-days}; see {@link #getMaxRolloutAgeDays()}.
         *
         * @param maxRolloutAgeDays the value to bind
         */
        public void setMaxRolloutAgeDays(int maxRolloutAgeDays) {
            this.maxRolloutAgeDays = maxRolloutAgeDays;
        }

        /**
         * {@code mnemo.memories.max-rollouts-per-startup}: Phase 1 claims per startup run, also the global
         * running cap (1..128).
         *
         * @return the bound value, or the default when the property is not set
         */
        public int getMaxRolloutsPerStartup() {
            return maxRolloutsPerStartup;
        }

        /**
         * Sets {@code mnemo.memories.max-rollouts-per-startup}; see {@link #getMaxRolloutsPerStartup()}.
         *
         * @param maxRolloutsPerStartup the value to bind
         */
        public void setMaxRolloutsPerStartup(int maxRolloutsPerStartup) {
            this.maxRolloutsPerStartup = maxRolloutsPerStartup;
        }

        /**
         * {@code mnemo.memories.min-rollout-idle-hours}: a conversation must be idle this many hours before
         * Phase 1 distils it (1..48).
         *
         * @return the bound value, or the default when the property is not set
         */
        public int getMinRolloutIdleHours() {
            return minRolloutIdleHours;
        }

        /**
         * Sets {@code mnemo.memories.min-rollout-idle-hours}; see {@link #getMinRolloutIdleHours()}.
         *
         * @param minRolloutIdleHours the value to bind
         */
        public void setMinRolloutIdleHours(int minRolloutIdleHours) {
            this.minRolloutIdleHours = minRolloutIdleHours;
        }

        /**
         * {@code mnemo.memories.min-rate-limit-remaining-percent}: the pipeline skips when less than this
         * share of the rate limit remains (0..100).
         *
         * @return the bound value, or the default when the property is not set
         */
        public int getMinRateLimitRemainingPercent() {
            return minRateLimitRemainingPercent;
        }

        /**
         * Sets {@code mnemo.memories.min-rate-limit-remaining-percent}; see {@link
         * #getMinRateLimitRemainingPercent()}.
         *
         * @param minRateLimitRemainingPercent the value to bind
         */
        public void setMinRateLimitRemainingPercent(int minRateLimitRemainingPercent) {
            this.minRateLimitRemainingPercent = minRateLimitRemainingPercent;
        }

        /**
         * {@code mnemo.memories.extract-model}: the model name for Phase 1 requests; default the ChatModel's
         * own.
         *
         * @return the bound value; null when the property is not set
         */
        public String getExtractModel() {
            return extractModel;
        }

        /**
         * Sets {@code mnemo.memories.extract-model}; see {@link #getExtractModel()}.
         *
         * @param extractModel the value to bind
         */
        public void setExtractModel(String extractModel) {
            this.extractModel = extractModel;
        }

        /**
         * {@code mnemo.memories.consolidation-model}: the model name for the consolidation agent; default the
         * ChatModel's own.
         *
         * @return the bound value; null when the property is not set
         */
        public String getConsolidationModel() {
            return consolidationModel;
        }

        /**
         * Sets {@code mnemo.memories.consolidation-model}; see {@link #getConsolidationModel()}.
         *
         * @param consolidationModel the value to bind
         */
        public void setConsolidationModel(String consolidationModel) {
            this.consolidationModel = consolidationModel;
        }

        /**
         * {@code mnemo.memories.memory-sources}: conversation sources eligible for Phase 1 ("app" =
         * conversations recorded through Mnemo).
         *
         * @return the bound value, or the default when the property is not set
         */
        public List<String> getMemorySources() {
            return memorySources;
        }

        /**
         * Sets {@code mnemo.memories.memory-sources}; see {@link #getMemorySources()}.
         *
         * @param memorySources the value to bind
         */
        public void setMemorySources(List<String> memorySources) {
            this.memorySources = memorySources;
        }

        /**
         * {@code mnemo.memories.phase1-concurrency}: parallel Phase 1 jobs (1..64).
         *
         * @return the bound value, or the default when the property is not set
         */
        public int getPhase1Concurrency() {
            return phase1Concurrency;
        }

        /**
         * Sets {@code mnemo.memories.phase1-concurrency}; see {@link #getPhase1Concurrency()}.
         *
         * @param phase1Concurrency the value to bind
         */
        public void setPhase1Concurrency(int phase1Concurrency) {
            this.phase1Concurrency = phase1Concurrency;
        }

        /**
         * {@code mnemo.memories.history-retention}: consolidations kept in the memory folder's history
         * (0..1000; 0 = baseline only).
         *
         * @return the bound value, or the default when the property is not set
         */
        public int getHistoryRetention() {
            return historyRetention;
        }

        /**
         * Sets {@code mnemo.memories.history-retention}; see {@link #getHistoryRetention()}.
         *
         * @param historyRetention the value to bind
         */
        public void setHistoryRetention(int historyRetention) {
            this.historyRetention = historyRetention;
        }

        /**
         * {@code mnemo.memories.consolidation-timeout-minutes}: bound on one consolidation agent run, in
         * minutes (1..240).
         *
         * @return the bound value, or the default when the property is not set
         */
        public int getConsolidationTimeoutMinutes() {
            return consolidationTimeoutMinutes;
        }

        /**
         * Sets {@code mnemo.memories.consolidation-timeout-minutes}; see {@link
         * #getConsolidationTimeoutMinutes()}.
         *
         * @param consolidationTimeoutMinutes the value to bind
         */
        public void setConsolidationTimeoutMinutes(int consolidationTimeoutMinutes) {
            this.consolidationTimeoutMinutes = consolidationTimeoutMinutes;
        }

        /**
         * {@code mnemo.memories.summary-token-limit}: cap on the summary added to the instructions, in tokens
         * (500..20000).
         *
         * @return the bound value, or the default when the property is not set
         */
        public int getSummaryTokenLimit() {
            return summaryTokenLimit;
        }

        /**
         * Sets {@code mnemo.memories.summary-token-limit}; see {@link #getSummaryTokenLimit()}.
         *
         * @param summaryTokenLimit the value to bind
         */
        public void setSummaryTokenLimit(int summaryTokenLimit) {
            this.summaryTokenLimit = summaryTokenLimit;
        }

        /**
         * {@code mnemo.memories.approval}: {@code ask}: new memories and notes wait for a person's approval;
         * {@code auto}: they take effect at once.
         *
         * @return the bound value, or the default when the property is not set
         */
        public Approval getApproval() {
            return approval;
        }

        /**
         * Sets {@code mnemo.memories.approval}; see {@link #getApproval()}.
         *
         * @param approval the value to bind
         */
        public void setApproval(Approval approval) {
            this.approval = approval;
        }

        /**
         * {@code mnemo.memories.max-extraction-tokens-per-rollout}: input tokens one conversation's
         * extraction may spend over all its requests (1000..100000000).
         *
         * @return the bound value, or the default when the property is not set
         */
        public int getMaxExtractionTokensPerRollout() {
            return maxExtractionTokensPerRollout;
        }

        /**
         * Sets {@code mnemo.memories.max-extraction-tokens-per-rollout}; see {@link
         * #getMaxExtractionTokensPerRollout()}.
         *
         * @param maxExtractionTokensPerRollout the value to bind
         */
        public void setMaxExtractionTokensPerRollout(int maxExtractionTokensPerRollout) {
            this.maxExtractionTokensPerRollout = maxExtractionTokensPerRollout;
        }

        /**
         * {@code mnemo.memories.max-extraction-tokens-per-day}: tokens Phase 1 may spend per UTC day
         * (0..2147483647; 0 = unlimited). Per user with mnemo.tenancy=per-user.
         *
         * @return the bound value, or the default when the property is not set
         */
        public int getMaxExtractionTokensPerDay() {
            return maxExtractionTokensPerDay;
        }

        /**
         * Sets {@code mnemo.memories.max-extraction-tokens-per-day}; see {@link
         * #getMaxExtractionTokensPerDay()}.
         *
         * @param maxExtractionTokensPerDay the value to bind
         */
        public void setMaxExtractionTokensPerDay(int maxExtractionTokensPerDay) {
            this.maxExtractionTokensPerDay = maxExtractionTokensPerDay;
        }

        /**
         * {@code mnemo.memories.selection-policy}: {@code codex}: Phase 2 selects by usage and recency;
         * {@code fair}: usage decays and new memories get a share.
         *
         * @return the bound value, or the default when the property is not set
         */
        public SelectionPolicy getSelectionPolicy() {
            return selectionPolicy;
        }

        /**
         * Sets {@code mnemo.memories.selection-policy}; see {@link #getSelectionPolicy()}.
         *
         * @param selectionPolicy the value to bind
         */
        public void setSelectionPolicy(SelectionPolicy selectionPolicy) {
            this.selectionPolicy = selectionPolicy;
        }

        /**
         * {@code mnemo.memories.selection-half-life-days}: with selection-policy=fair: days after which a
         * usage count weighs half (1..3650).
         *
         * @return the bound value, or the default when the property is not set
         */
        public int getSelectionHalfLifeDays() {
            return selectionHalfLifeDays;
        }

        /**
         * Sets {@code mnemo.memories.selection-half-life-days}; see {@link #getSelectionHalfLifeDays()}.
         *
         * @param selectionHalfLifeDays the value to bind
         */
        public void setSelectionHalfLifeDays(int selectionHalfLifeDays) {
            this.selectionHalfLifeDays = selectionHalfLifeDays;
        }

        /**
         * {@code mnemo.memories.selection-new-share-percent}: with selection-policy=fair: percent of the
         * selection kept for never-selected memories (0..50).
         *
         * @return the bound value, or the default when the property is not set
         */
        public int getSelectionNewSharePercent() {
            return selectionNewSharePercent;
        }

        /**
         * Sets {@code mnemo.memories.selection-new-share-percent}; see {@link
         * #getSelectionNewSharePercent()}.
         *
         * @param selectionNewSharePercent the value to bind
         */
        public void setSelectionNewSharePercent(int selectionNewSharePercent) {
            this.selectionNewSharePercent = selectionNewSharePercent;
        }
    }

    /**
     * Mnemo's OpenTelemetry spans and metrics, recorded when memory-opentelemetry is on the class
     * path and the application has an {@code OpenTelemetry} bean.
     */
    public static class Telemetry {

        /**
         * Whether memory spans carry the searched query and the records read or stored
         * (gen_ai.memory.query.text, gen_ai.memory.records), redacted by Mnemo's built-in secret
         * redactor. Off by default: memories may hold personal data no redactor recognises.
         */
        private boolean captureContent = false;

        /**
         * {@code mnemo.telemetry.capture-content}: whether memory spans carry the searched query and the
         * records read or stored (gen_ai.memory.query.text, gen_ai.memory.records), redacted by Mnemo's
         * built-in secret redactor. Off by default: memories may hold personal data no redactor recognises.
         *
         * @return the bound value, or the default when the property is not set
         */
        public boolean isCaptureContent() {
            return captureContent;
        }

        /**
         * Sets {@code mnemo.telemetry.capture-content}; see {@link #isCaptureContent()}.
         *
         * @param captureContent the value to bind
         */
        public void setCaptureContent(boolean captureContent) {
            this.captureContent = captureContent;
        }
    }

    /** Which of the application's models the pipeline uses. */
    public static class Model {

        /**
         * The name of the ChatModel bean Phase 1 and Phase 2 run on. Default: the application's only
         * ChatModel; needed when it has several.
         */
        private String chatModel;

        /**
         * {@code mnemo.model.chat-model}: the name of the ChatModel bean Phase 1 and Phase 2 run on. Default:
         * the application's only ChatModel; needed when it has several.
         *
         * @return the bound value; null when the property is not set
         */
        public String getChatModel() {
            return chatModel;
        }

        /**
         * Sets {@code mnemo.model.chat-model}; see {@link #getChatModel()}.
         *
         * @param chatModel the value to bind
         */
        public void setChatModel(String chatModel) {
            this.chatModel = chatModel;
        }
    }

    /** How Mnemo joins the application's {@code ChatClient}s. */
    public static class ChatClient {

        private final Advisor advisor = new Advisor();

        /**
         * The {@code mnemo.chat-client.advisor.*} properties.
         *
         * @return the group, bound in place; never null
         */
        public Advisor getAdvisor() {
            return advisor;
        }

        /** The {@code MnemoAdvisor} on {@code ChatClient}s built from Boot's {@code ChatClient.Builder}. */
        public static class Advisor {

            /**
             * Whether every ChatClient built from Boot's ChatClient.Builder gets the MnemoAdvisor.
             * Off by default: a client gets memory by adding the MnemoAdvisor bean with
             * defaultAdvisors(..), as it adds any other advisor.
             */
            private boolean enabled = false;

            /**
             * {@code mnemo.chat-client.advisor.enabled}: whether every ChatClient built from Boot's
             * ChatClient.Builder gets the MnemoAdvisor. Off by default: a client gets memory by adding the
             * MnemoAdvisor bean with defaultAdvisors(..), as it adds any other advisor.
             *
             * @return the bound value, or the default when the property is not set
             */
            public boolean isEnabled() {
                return enabled;
            }

            /**
             * Sets {@code mnemo.chat-client.advisor.enabled}; see {@link #isEnabled()}.
             *
             * @param enabled the value to bind
             */
            public void setEnabled(boolean enabled) {
                this.enabled = enabled;
            }
        }
    }

    /** The conversations an engine keeps open for the advisor (closed when idle; the next request reopens them). */
    public static class Conversations {

        /** A conversation unused this long stops being held open; its next request continues its rollout. */
        private Duration idleTimeout = Duration.ofMinutes(30);

        /** The most conversations one engine holds open; beyond it the least recently used idle ones are closed. */
        private int maxOpen = 10_000;

        /**
         * {@code mnemo.conversations.idle-timeout}: a conversation unused this long stops being held open;
         * its next request continues its rollout.
         *
         * @return the bound value, or the default when the property is not set
         */
        public Duration getIdleTimeout() {
            return idleTimeout;
        }

        /**
         * Sets {@code mnemo.conversations.idle-timeout}; see {@link #getIdleTimeout()}.
         *
         * @param idleTimeout the value to bind
         */
        public void setIdleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
        }

        /**
         * {@code mnemo.conversations.max-open}: the most conversations one engine holds open; beyond it the
         * least recently used idle ones are closed.
         *
         * @return the bound value, or the default when the property is not set
         */
        public int getMaxOpen() {
            return maxOpen;
        }

        /**
         * Sets {@code mnemo.conversations.max-open}; see {@link #getMaxOpen()}.
         *
         * @param maxOpen the value to bind
         */
        public void setMaxOpen(int maxOpen) {
            this.maxOpen = maxOpen;
        }

        void check() {
            requirePositive("conversations.idle-timeout", idleTimeout);
            if (maxOpen < 1) {
                throw new InvalidConfigurationPropertyValueException(PREFIX + ".conversations.max-open", maxOpen,
                        "at least one conversation must be allowed open");
            }
        }
    }

    /** The users' engines with {@code tenancy=per-user}. */
    public static class Tenants {

        /** The most users' engines open at once; beyond it the least recently used one without a request is closed. */
        private int maxOpen = 100;

        /** A user's engine without a request for this long is closed (in the background). */
        private Duration idleTimeout = Duration.ofMinutes(30);

        /**
         * {@code mnemo.tenants.max-open}: the most users' engines open at once; beyond it the least recently
         * used one without a request is closed.
         *
         * @return the bound value, or the default when the property is not set
         */
        public int getMaxOpen() {
            return maxOpen;
        }

        /**
         * Sets {@code mnemo.tenants.max-open}; see {@link #getMaxOpen()}.
         *
         * @param maxOpen the value to bind
         */
        public void setMaxOpen(int maxOpen) {
            this.maxOpen = maxOpen;
        }

        /**
         * {@code mnemo.tenants.idle-timeout}: a user's engine without a request for this long is closed (in
         * the background).
         *
         * @return the bound value, or the default when the property is not set
         */
        public Duration getIdleTimeout() {
            return idleTimeout;
        }

        /**
         * Sets {@code mnemo.tenants.idle-timeout}; see {@link #getIdleTimeout()}.
         *
         * @param idleTimeout the value to bind
         */
        public void setIdleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
        }

        void check() {
            requirePositive("tenants.idle-timeout", idleTimeout);
            if (maxOpen < 1) {
                throw new InvalidConfigurationPropertyValueException(PREFIX + ".tenants.max-open", maxOpen,
                        "at least one user's engine must be allowed open");
            }
        }
    }

    /** The {@code mnemo} Actuator endpoint with {@code tenancy=per-user}. */
    public static class Endpoint {

        /**
         * The role (a Spring Security authority, with or without the ROLE_ prefix) whose holders may
         * name any user on the mnemo endpoint; every other caller reaches only their own memory.
         */
        private String adminRole = "MNEMO_ADMIN";

        /**
         * {@code mnemo.endpoint.admin-role}: the role (a Spring Security authority, with or without the ROLE_
         * prefix) whose holders may name any user on the mnemo endpoint; every other caller reaches only
         * their own memory.
         *
         * @return the bound value, or the default when the property is not set
         */
        public String getAdminRole() {
            return adminRole;
        }

        /**
         * Sets {@code mnemo.endpoint.admin-role}; see {@link #getAdminRole()}.
         *
         * @param adminRole the value to bind
         */
        public void setAdminRole(String adminRole) {
            this.adminRole = adminRole;
        }
    }

    /** Spring AI's short-term chat memory with {@code tenancy=per-user}. */
    public static class ChatMemory {

        /**
         * Whether the application's ChatMemoryRepository beans are wrapped so that each user's
         * conversation history is kept apart (conversation ids qualified by the user).
         */
        private boolean tenantScoped = true;

        /**
         * {@code mnemo.chat-memory.tenant-scoped}: whether the application's ChatMemoryRepository beans are
         * wrapped so that each user's conversation history is kept apart (conversation ids qualified by the
         * user).
         *
         * @return the bound value, or the default when the property is not set
         */
        public boolean isTenantScoped() {
            return tenantScoped;
        }

        /**
         * Sets {@code mnemo.chat-memory.tenant-scoped}; see {@link #isTenantScoped()}.
         *
         * @param tenantScoped the value to bind
         */
        public void setTenantScoped(boolean tenantScoped) {
            this.tenantScoped = tenantScoped;
        }
    }

    /** The background pipeline (extraction and consolidation). */
    public static class Pipeline {

        private final Schedule schedule = new Schedule();

        /**
         * The {@code mnemo.pipeline.schedule.*} properties.
         *
         * @return the group, bound in place; never null
         */
        public Schedule getSchedule() {
            return schedule;
        }

        /** The pipeline run on a schedule, for the shared engine and every open user's engine. */
        public static class Schedule {

            /** Whether the pipeline runs on a schedule (besides when a new conversation opens). */
            private boolean enabled = true;

            /** The time between two scheduled runs; the first runs one interval after startup. */
            private Duration interval = Duration.ofMinutes(15);

            /**
             * {@code mnemo.pipeline.schedule.enabled}: whether the pipeline runs on a schedule (besides when
             * a new conversation opens).
             *
             * @return the bound value, or the default when the property is not set
             */
            public boolean isEnabled() {
                return enabled;
            }

            /**
             * Sets {@code mnemo.pipeline.schedule.enabled}; see {@link #isEnabled()}.
             *
             * @param enabled the value to bind
             */
            public void setEnabled(boolean enabled) {
                this.enabled = enabled;
            }

            /**
             * {@code mnemo.pipeline.schedule.interval}: the time between two scheduled runs; the first runs
             * one interval after startup.
             *
             * @return the bound value, or the default when the property is not set
             */
            public Duration getInterval() {
                return interval;
            }

            /**
             * Sets {@code mnemo.pipeline.schedule.interval}; see {@link #getInterval()}.
             *
             * @param interval the value to bind
             */
            public void setInterval(Duration interval) {
                this.interval = interval;
            }

            void check() {
                requirePositive("pipeline.schedule.interval", interval);
            }
        }
    }

    private static void requirePositive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new InvalidConfigurationPropertyValueException(PREFIX + "." + name, value,
                    "it must be a positive duration, e.g. 30m");
        }
    }
}
