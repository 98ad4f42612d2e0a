package dev.mnemo;

import java.util.Locale;

/**
 * Whether new memories need a person's approval ({@code [memories] approval}).
 *
 * <ul>
 *   <li>{@link #AUTO} (the default, Codex's behaviour): a Phase 1 output and an ad-hoc note take
 *       effect as soon as they are made.
 *   <li>{@link #ASK}: each waits as a {@link PendingMemory} until someone approves it
 *       ({@link MemoryAdmin#approve}, {@code mnemo approve}, the console); Phase 2 consolidates
 *       approved outputs only, and a note reaches the memory folder only once approved.
 * </ul>
 */
public enum Approval {
    AUTO,
    ASK;

    /** The value in {@code config.toml}: {@code auto} or {@code ask}. */
    public String configValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The approval named by a {@code config.toml} value.
     *
     * @throws IllegalArgumentException for anything but {@code auto} or {@code ask}
     */
    public static Approval fromConfigValue(String value) {
        for (Approval approval : values()) {
            if (approval.configValue().equals(value)) {
                return approval;
            }
        }
        throw new IllegalArgumentException("approval must be \"auto\" or \"ask\", was \"" + value + "\"");
    }
}
