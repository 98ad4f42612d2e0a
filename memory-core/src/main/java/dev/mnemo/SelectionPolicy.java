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
    CODEX,
    FAIR;

    /** The value in {@code config.toml}: {@code codex} or {@code fair}. */
    public String configValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The policy named by a {@code config.toml} value.
     *
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
