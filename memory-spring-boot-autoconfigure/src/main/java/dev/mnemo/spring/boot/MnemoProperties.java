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

    public Tenancy getTenancy() {
        return tenancy;
    }

    public void setTenancy(Tenancy tenancy) {
        this.tenancy = tenancy;
    }

    public Path getHome() {
        return home;
    }

    public void setHome(Path home) {
        this.home = home;
    }

    public Memories getMemories() {
        return memories;
    }

    public ChatClient getChatClient() {
        return chatClient;
    }

    public Model getModel() {
        return model;
    }

    public Conversations getConversations() {
        return conversations;
    }

    public Tenants getTenants() {
        return tenants;
    }

    public Endpoint getEndpoint() {
        return endpoint;
    }

    public ChatMemory getChatMemory() {
        return chatMemory;
    }

    public Telemetry getTelemetry() {
        return telemetry;
    }

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

        public boolean isGenerateMemories() {
            return generateMemories;
        }

        public void setGenerateMemories(boolean generateMemories) {
            this.generateMemories = generateMemories;
        }

        public boolean isUseMemories() {
            return useMemories;
        }

        public void setUseMemories(boolean useMemories) {
            this.useMemories = useMemories;
        }

        public boolean isDedicatedTools() {
            return dedicatedTools;
        }

        public void setDedicatedTools(boolean dedicatedTools) {
            this.dedicatedTools = dedicatedTools;
        }

        public boolean isDisableOnExternalContext() {
            return disableOnExternalContext;
        }

        public void setDisableOnExternalContext(boolean disableOnExternalContext) {
            this.disableOnExternalContext = disableOnExternalContext;
        }

        public int getMaxRawMemoriesForConsolidation() {
            return maxRawMemoriesForConsolidation;
        }

        public void setMaxRawMemoriesForConsolidation(int maxRawMemoriesForConsolidation) {
            this.maxRawMemoriesForConsolidation = maxRawMemoriesForConsolidation;
        }

        public int getMaxUnusedDays() {
            return maxUnusedDays;
        }

        public void setMaxUnusedDays(int maxUnusedDays) {
            this.maxUnusedDays = maxUnusedDays;
        }

        public int getMaxRolloutAgeDays() {
            return maxRolloutAgeDays;
        }

        public void setMaxRolloutAgeDays(int maxRolloutAgeDays) {
            this.maxRolloutAgeDays = maxRolloutAgeDays;
        }

        public int getMaxRolloutsPerStartup() {
            return maxRolloutsPerStartup;
        }

        public void setMaxRolloutsPerStartup(int maxRolloutsPerStartup) {
            this.maxRolloutsPerStartup = maxRolloutsPerStartup;
        }

        public int getMinRolloutIdleHours() {
            return minRolloutIdleHours;
        }

        public void setMinRolloutIdleHours(int minRolloutIdleHours) {
            this.minRolloutIdleHours = minRolloutIdleHours;
        }

        public int getMinRateLimitRemainingPercent() {
            return minRateLimitRemainingPercent;
        }

        public void setMinRateLimitRemainingPercent(int minRateLimitRemainingPercent) {
            this.minRateLimitRemainingPercent = minRateLimitRemainingPercent;
        }

        public String getExtractModel() {
            return extractModel;
        }

        public void setExtractModel(String extractModel) {
            this.extractModel = extractModel;
        }

        public String getConsolidationModel() {
            return consolidationModel;
        }

        public void setConsolidationModel(String consolidationModel) {
            this.consolidationModel = consolidationModel;
        }

        public List<String> getMemorySources() {
            return memorySources;
        }

        public void setMemorySources(List<String> memorySources) {
            this.memorySources = memorySources;
        }

        public int getPhase1Concurrency() {
            return phase1Concurrency;
        }

        public void setPhase1Concurrency(int phase1Concurrency) {
            this.phase1Concurrency = phase1Concurrency;
        }

        public int getHistoryRetention() {
            return historyRetention;
        }

        public void setHistoryRetention(int historyRetention) {
            this.historyRetention = historyRetention;
        }

        public int getConsolidationTimeoutMinutes() {
            return consolidationTimeoutMinutes;
        }

        public void setConsolidationTimeoutMinutes(int consolidationTimeoutMinutes) {
            this.consolidationTimeoutMinutes = consolidationTimeoutMinutes;
        }

        public int getSummaryTokenLimit() {
            return summaryTokenLimit;
        }

        public void setSummaryTokenLimit(int summaryTokenLimit) {
            this.summaryTokenLimit = summaryTokenLimit;
        }

        public Approval getApproval() {
            return approval;
        }

        public void setApproval(Approval approval) {
            this.approval = approval;
        }

        public int getMaxExtractionTokensPerRollout() {
            return maxExtractionTokensPerRollout;
        }

        public void setMaxExtractionTokensPerRollout(int maxExtractionTokensPerRollout) {
            this.maxExtractionTokensPerRollout = maxExtractionTokensPerRollout;
        }

        public int getMaxExtractionTokensPerDay() {
            return maxExtractionTokensPerDay;
        }

        public void setMaxExtractionTokensPerDay(int maxExtractionTokensPerDay) {
            this.maxExtractionTokensPerDay = maxExtractionTokensPerDay;
        }

        public SelectionPolicy getSelectionPolicy() {
            return selectionPolicy;
        }

        public void setSelectionPolicy(SelectionPolicy selectionPolicy) {
            this.selectionPolicy = selectionPolicy;
        }

        public int getSelectionHalfLifeDays() {
            return selectionHalfLifeDays;
        }

        public void setSelectionHalfLifeDays(int selectionHalfLifeDays) {
            this.selectionHalfLifeDays = selectionHalfLifeDays;
        }

        public int getSelectionNewSharePercent() {
            return selectionNewSharePercent;
        }

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

        public boolean isCaptureContent() {
            return captureContent;
        }

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

        public String getChatModel() {
            return chatModel;
        }

        public void setChatModel(String chatModel) {
            this.chatModel = chatModel;
        }
    }

    /** How Mnemo joins the application's {@code ChatClient}s. */
    public static class ChatClient {

        private final Advisor advisor = new Advisor();

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

            public boolean isEnabled() {
                return enabled;
            }

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

        public Duration getIdleTimeout() {
            return idleTimeout;
        }

        public void setIdleTimeout(Duration idleTimeout) {
            this.idleTimeout = idleTimeout;
        }

        public int getMaxOpen() {
            return maxOpen;
        }

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

        public int getMaxOpen() {
            return maxOpen;
        }

        public void setMaxOpen(int maxOpen) {
            this.maxOpen = maxOpen;
        }

        public Duration getIdleTimeout() {
            return idleTimeout;
        }

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

        public String getAdminRole() {
            return adminRole;
        }

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

        public boolean isTenantScoped() {
            return tenantScoped;
        }

        public void setTenantScoped(boolean tenantScoped) {
            this.tenantScoped = tenantScoped;
        }
    }

    /** The background pipeline (extraction and consolidation). */
    public static class Pipeline {

        private final Schedule schedule = new Schedule();

        public Schedule getSchedule() {
            return schedule;
        }

        /** The pipeline run on a schedule, for the shared engine and every open user's engine. */
        public static class Schedule {

            /** Whether the pipeline runs on a schedule (besides when a new conversation opens). */
            private boolean enabled = true;

            /** The time between two scheduled runs; the first runs one interval after startup. */
            private Duration interval = Duration.ofMinutes(15);

            public boolean isEnabled() {
                return enabled;
            }

            public void setEnabled(boolean enabled) {
                this.enabled = enabled;
            }

            public Duration getInterval() {
                return interval;
            }

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
