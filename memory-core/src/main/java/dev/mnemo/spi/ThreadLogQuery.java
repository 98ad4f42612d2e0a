package dev.mnemo.spi;

import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Which thread log entries to read.
 *
 * @param threadId one thread's entries, or every thread's when empty
 * @param since entries at or after this instant, when given
 * @param levels the levels wanted (upper case); every level when empty
 * @param limit the newest this many entries, at least 1
 */
public record ThreadLogQuery(Optional<String> threadId, Optional<Instant> since, Set<String> levels, int limit) {

    /** The levels in order of severity. */
    public static final java.util.List<String> LEVELS = java.util.List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR");

    public ThreadLogQuery {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(since, "since");
        levels = Set.copyOf(Objects.requireNonNull(levels, "levels"));
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
    }

    /** The newest {@code limit} entries of one thread. */
    public static ThreadLogQuery ofThread(String threadId, int limit) {
        return new ThreadLogQuery(Optional.of(Objects.requireNonNull(threadId, "threadId")), Optional.empty(), Set.of(),
                limit);
    }

    /**
     * {@code level} and every more severe level, as Codex's {@code --level} threshold.
     *
     * @throws IllegalArgumentException when {@code level} is not one of {@link #LEVELS}
     */
    public static Set<String> atLeast(String level) {
        int index = LEVELS.indexOf(Objects.requireNonNull(level, "level").toUpperCase(Locale.ROOT));
        if (index < 0) {
            throw new IllegalArgumentException("level must be one of " + LEVELS + ", was " + level);
        }
        return Set.copyOf(LEVELS.subList(index, LEVELS.size()));
    }
}
