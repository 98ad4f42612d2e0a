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
 * @param target only entries logged under this target (exact, e.g. {@code mnemo::receipt}), when given
 */
public record ThreadLogQuery(Optional<String> threadId, Optional<Instant> since, Set<String> levels, int limit,
        Optional<String> target) {

    /** The levels in order of severity. */
    public static final java.util.List<String> LEVELS = java.util.List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR");

    /**
     * Checks the query and copies {@code levels}.
     *
     * @param threadId one thread's entries, or every thread's when empty
     * @param since entries at or after this instant, when given
     * @param levels the levels wanted (upper case); every level when empty
     * @param limit the newest this many entries, at least 1
     * @param target only entries logged under this target, when given
     * @throws IllegalArgumentException when {@code limit} is less than 1
     */
    public ThreadLogQuery {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(since, "since");
        levels = Set.copyOf(Objects.requireNonNull(levels, "levels"));
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, was " + limit);
        }
        Objects.requireNonNull(target, "target");
    }

    /**
     * A query of every target.
     *
     * @param threadId one thread's entries, or every thread's when empty
     * @param since entries at or after this instant, when given
     * @param levels the levels wanted (upper case); every level when empty
     * @param limit the newest this many entries, at least 1
     */
    public ThreadLogQuery(Optional<String> threadId, Optional<Instant> since, Set<String> levels, int limit) {
        this(threadId, since, levels, limit, Optional.empty());
    }

    /**
     * This query, of the entries logged under {@code target} only.
     *
     * @param target the target's exact name, e.g. {@code mnemo::receipt}
     * @return a new query; this one is unchanged
     */
    public ThreadLogQuery withTarget(String target) {
        return new ThreadLogQuery(threadId, since, levels, limit, Optional.of(Objects.requireNonNull(target, "target")));
    }

    /**
     * This query's conditions in standard SQL over the columns {@code thread_id}, {@code ts} (Unix
     * seconds), {@code ts_nanos}, {@code level} and {@code target}, for a store to put after its {@code WHERE}:
     * every dialect filters alike, and each store adds only its table, order and limit.
     *
     * @param conditions the conditions joined by {@code AND} ({@code TRUE} when there are none)
     * @param arguments the values of its {@code ?} placeholders, in order
     */
    public record SqlFilter(String conditions, java.util.List<Object> arguments) {}

    /**
     * {@link SqlFilter}: thread, since (to the nanosecond), levels (case-insensitive) and target.
     *
     * @return the conditions and their arguments; {@code TRUE} with no arguments when the query filters nothing
     */
    public SqlFilter sqlFilter() {
        java.util.List<String> conditions = new java.util.ArrayList<>();
        java.util.List<Object> arguments = new java.util.ArrayList<>();
        threadId.ifPresent(id -> {
            conditions.add("thread_id = ?");
            arguments.add(id);
        });
        since.ifPresent(at -> {
            conditions.add("(ts > ? OR (ts = ? AND ts_nanos >= ?))");
            arguments.add(at.getEpochSecond());
            arguments.add(at.getEpochSecond());
            arguments.add(at.getNano());
        });
        if (!levels.isEmpty()) {
            conditions.add("UPPER(level) IN (" + String.join(", ", java.util.Collections.nCopies(levels.size(), "?"))
                    + ")");
            levels.stream().sorted().forEach(arguments::add);
        }
        target.ifPresent(name -> {
            conditions.add("target = ?");
            arguments.add(name);
        });
        return new SqlFilter(conditions.isEmpty() ? "TRUE" : String.join(" AND ", conditions),
                java.util.List.copyOf(arguments));
    }

    /**
     * The newest {@code limit} entries of one thread.
     *
     * @param threadId the thread's id
     * @param limit how many of the newest entries, at least 1
     * @return the query
     */
    public static ThreadLogQuery ofThread(String threadId, int limit) {
        return new ThreadLogQuery(Optional.of(Objects.requireNonNull(threadId, "threadId")), Optional.empty(), Set.of(),
                limit);
    }

    /**
     * {@code level} and every more severe level, as Codex's {@code --level} threshold.
     *
     * @param level a level name of {@link #LEVELS}, in any case
     * @return {@code level}, upper case, and every level more severe
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
