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
    /** New memories take effect at once, without anyone approving them (the default). */
    AUTO,
    /** New memories wait as {@link PendingMemory} until someone approves them. */
    ASK;

    /**
     * The value in {@code config.toml}: {@code auto} or {@code ask}.
     *
     * @return this constant's name in lower case
     */
    public String configValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The approval named by a {@code config.toml} value.
     *
     * @param value the value as written in {@code config.toml}, case-sensitive
     * @return the approval it names
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
