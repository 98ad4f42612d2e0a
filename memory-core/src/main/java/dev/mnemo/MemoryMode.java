package dev.mnemo;

import java.util.Locale;

/** Whether a thread's rollout may become memory. Stored as Codex's lower-case strings. */
public enum MemoryMode {
    /** Eligible for Phase 1, and its memory for Phase 2. */
    ENABLED,
    /** Never extracted: created while {@code generate_memories} was off, or turned off by the user. */
    DISABLED,
    /** Saw external context (web, MCP, fetched pages); its memory is forgotten and never extracted again. */
    POLLUTED;

    /**
     * The value stored in {@code threads.memory_mode}.
     *
     * @return the lower-case name: {@code enabled}, {@code disabled} or {@code polluted}
     */
    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a stored value ({@code enabled}, {@code disabled}, {@code polluted}), case-insensitively.
     *
     * @param value the stored value
     * @return the mode it names
     * @throws IllegalArgumentException when it names no mode (null included)
     */
    public static MemoryMode fromDbValue(String value) {
        for (MemoryMode mode : values()) {
            if (mode.dbValue().equalsIgnoreCase(value)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown memory mode '" + value + "'");
    }
}
