package dev.mnemo;

import dev.mnemo.internal.config.TomlConfigLoader;
import java.nio.file.Path;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The {@code [history]} table of {@code config.toml}: whether user messages are kept in
 * {@code <home>/history.jsonl} ({@link MessageHistory}) and how large that file may grow.
 *
 * <pre>{@code
 * [history]
 * persistence = "save-all"   # or "none": write nothing
 * max_bytes = 1048576        # absent or 0: never trimmed
 * }</pre>
 *
 * @param persistence whether messages are written at all
 * @param maxBytes the size past which the oldest whole lines are dropped, down to 80 % of it;
 *     empty (Codex's default) to never trim
 */
public record HistoryConfig(Persistence persistence, OptionalLong maxBytes) {

    /** What {@code [history] persistence} says. */
    public enum Persistence {
        /** Every user message of a recorded session is written (the default, as in Codex). */
        SAVE_ALL("save-all"),
        /** Nothing is written; reading finds what earlier runs wrote. */
        NONE("none");

        private final String tomlValue;

        Persistence(String tomlValue) {
            this.tomlValue = tomlValue;
        }

        /**
         * The value as {@code config.toml} spells it.
         *
         * @return {@code "save-all"} or {@code "none"}
         */
        public String tomlValue() {
            return tomlValue;
        }

        /**
         * The constant {@code config.toml} spells {@code value}, e.g. {@code "save-all"}.
         *
         * @param value the value of {@code [history] persistence}, case-sensitive
         * @return the constant it names
         * @throws IllegalArgumentException for anything but {@code "save-all"} or {@code "none"}
         */
        public static Persistence fromToml(String value) {
            for (Persistence p : values()) {
                if (p.tomlValue.equals(value)) {
                    return p;
                }
            }
            throw new IllegalArgumentException("history persistence must be \"save-all\" or \"none\", was \"" + value
                    + "\"");
        }
    }

    /**
     * Checks the components.
     *
     * @param persistence whether messages are written at all
     * @param maxBytes the size past which the oldest whole lines are dropped, down to 80 % of it;
     *     empty (Codex's default) to never trim
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when {@code maxBytes} is negative
     */
    public HistoryConfig {
        Objects.requireNonNull(persistence, "persistence");
        Objects.requireNonNull(maxBytes, "maxBytes");
        if (maxBytes.isPresent() && maxBytes.getAsLong() < 0) {
            throw new IllegalArgumentException("history max_bytes must not be negative, was " + maxBytes.getAsLong());
        }
    }

    /**
     * Codex's defaults: save everything, never trim.
     *
     * @return {@link Persistence#SAVE_ALL} with no size limit
     */
    public static HistoryConfig defaults() {
        return new HistoryConfig(Persistence.SAVE_ALL, OptionalLong.empty());
    }

    /**
     * This configuration trimmed at {@code maxBytes} (0 never trims, as in Codex).
     *
     * @param maxBytes the size of {@code history.jsonl} in bytes past which the oldest lines are
     *     dropped; 0 never trims
     * @return a copy with that limit and the same persistence
     * @throws IllegalArgumentException when {@code maxBytes} is negative
     */
    public HistoryConfig withMaxBytes(long maxBytes) {
        return new HistoryConfig(persistence, OptionalLong.of(maxBytes));
    }

    /**
     * This configuration with another persistence.
     *
     * @param persistence whether messages are written at all; not null
     * @return a copy with that persistence and the same size limit
     */
    public HistoryConfig withPersistence(Persistence persistence) {
        return new HistoryConfig(persistence, maxBytes);
    }

    /**
     * The {@code [history]} table of {@code configToml}; the defaults when the file or the table is
     * missing. An unknown key or a value of the wrong type fails with a
     * {@link MemoryConfigurationException} naming it and the file.
     *
     * @param configToml the path of {@code config.toml}; the file need not exist
     * @return the configured history settings, or {@link #defaults()}
     * @throws MemoryConfigurationException when the table has an unknown key or a bad value, or the
     *     file cannot be parsed
     */
    public static HistoryConfig load(Path configToml) {
        return TomlConfigLoader.loadHistory(configToml);
    }
}
