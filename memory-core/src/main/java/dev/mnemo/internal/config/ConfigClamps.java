package dev.mnemo.internal.config;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The numeric {@code [memories]} keys with their defaults and Codex's (or Mnemo's) clamp ranges. */
public enum ConfigClamps {
    MAX_RAW_MEMORIES_FOR_CONSOLIDATION("max_raw_memories_for_consolidation", 256, 1, 4096),
    MAX_UNUSED_DAYS("max_unused_days", 30, 0, 365),
    MAX_ROLLOUT_AGE_DAYS("max_rollout_age_days", 10, 0, 90),
    MAX_ROLLOUTS_PER_STARTUP("max_rollouts_per_startup", 2, 1, 128),
    MIN_ROLLOUT_IDLE_HOURS("min_rollout_idle_hours", 6, 1, 48),
    MIN_RATE_LIMIT_REMAINING_PERCENT("min_rate_limit_remaining_percent", 25, 0, 100),
    PHASE1_CONCURRENCY("phase1_concurrency", 8, 1, 64),
    HISTORY_RETENTION("history_retention", 10, 0, 1000),
    CONSOLIDATION_TIMEOUT_MINUTES("consolidation_timeout_minutes", 30, 1, 240),
    SUMMARY_TOKEN_LIMIT("summary_token_limit", 2500, 500, 20000),
    /** Mnemo: input tokens one rollout's extraction may spend over all its requests (about 1 MB at the default). */
    MAX_EXTRACTION_TOKENS_PER_ROLLOUT("max_extraction_tokens_per_rollout", 250_000, 1_000, 100_000_000),
    /** Mnemo: tokens Phase 1 may spend per UTC day in one home (one tenant in fleet mode); 0 = unlimited. */
    MAX_EXTRACTION_TOKENS_PER_DAY("max_extraction_tokens_per_day", 0, 0, Integer.MAX_VALUE),
    /** Mnemo, {@code selection_policy = "fair"}: days after which a usage count weighs half. */
    SELECTION_HALF_LIFE_DAYS("selection_half_life_days", 30, 1, 3650),
    /** Mnemo, {@code selection_policy = "fair"}: share of Phase 2's selection kept for never-selected memories. */
    SELECTION_NEW_SHARE_PERCENT("selection_new_share_percent", 10, 0, 50);

    private static final Logger LOG = LoggerFactory.getLogger(ConfigClamps.class);

    private final String key;
    private final int defaultValue;
    private final int min;
    private final int max;

    ConfigClamps(String key, int defaultValue, int min, int max) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.min = min;
        this.max = max;
    }

    /** The TOML key. */
    public String key() {
        return key;
    }

    public int defaultValue() {
        return defaultValue;
    }

    public int min() {
        return min;
    }

    public int max() {
        return max;
    }

    /** {@code value} moved into {@code [min, max]}, with a warning naming the key when it moved. */
    public int clamp(long value) {
        if (value < min || value > max) {
            int clamped = (int) Math.max(min, Math.min(max, value));
            LOG.warn("memories.{} = {} is outside {}..{}; using {}", key, value, min, max, clamped);
            return clamped;
        }
        return (int) value;
    }

    /** Rejects an out-of-range value given to the record constructor directly. */
    public static void requireInRange(ConfigClamps clamp, int value) {
        if (value < clamp.min || value > clamp.max) {
            throw new IllegalArgumentException(clamp.key + " must be within " + clamp.min + ".." + clamp.max
                    + ", was " + value + " (MemoriesConfig.builder() clamps instead)");
        }
    }
}
