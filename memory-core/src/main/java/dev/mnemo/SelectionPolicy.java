package dev.mnemo;

import java.util.Locale;

/**
 * How Phase 2 chooses the stage-1 memories it consolidates ({@code [memories] selection_policy}).
 *
 * <ul>
 *   <li>{@link #CODEX} (the default, Codex's behaviour): by usage count, then by how recently each
 *       was used or generated. A memory cited early keeps its place; one that missed its first
 *       citations may never be selected again, so it can never be cited.
 *   <li>{@link #FAIR}: usage counts decay with a half-life ({@code selection_half_life_days}), and
 *       a share of the selection ({@code selection_new_share_percent}) is kept for the newest
 *       memories that were never selected, so each gets a chance to be cited.
 * </ul>
 */
public enum SelectionPolicy {
    /** Codex's order: usage count, then recency of use or generation (the default). */
    CODEX,
    /** Decayed usage counts, with a share of the selection kept for new memories. */
    FAIR;

    /**
     * The value in {@code config.toml}: {@code codex} or {@code fair}.
     *
     * @return the lower-case name
     */
    public String configValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The policy named by a {@code config.toml} value.
     *
     * @param value the configured value, exactly {@code codex} or {@code fair}
     * @return the policy it names
     * @throws IllegalArgumentException for anything but {@code codex} or {@code fair}
     */
    public static SelectionPolicy fromConfigValue(String value) {
        for (SelectionPolicy policy : values()) {
            if (policy.configValue().equals(value)) {
                return policy;
            }
        }
        throw new IllegalArgumentException("selection_policy must be \"codex\" or \"fair\", was \"" + value + "\"");
    }
}
