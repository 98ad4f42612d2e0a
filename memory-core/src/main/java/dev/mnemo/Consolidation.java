package dev.mnemo;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One successful consolidation kept in the workspace history.
 *
 * @param id its id (pass it to {@link MemoryAdmin#rollback})
 * @param at when it was committed
 * @param inputs how many stage-1 memories it was built from
 * @param threadIds the threads whose memories it used
 * @param model the consolidation model, or empty when unknown
 */
public record Consolidation(String id, Instant at, int inputs, List<String> threadIds, String model) {
    /**
     * Checks the components and copies {@code threadIds}.
     *
     * @param id its id (pass it to {@link MemoryAdmin#rollback})
     * @param at when it was committed
     * @param inputs how many stage-1 memories it was built from
     * @param threadIds the threads whose memories it used
     * @param model the consolidation model, or empty when unknown
     * @throws NullPointerException when a component is null
     */
    public Consolidation {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(at, "at");
        threadIds = List.copyOf(Objects.requireNonNull(threadIds, "threadIds"));
        Objects.requireNonNull(model, "model");
    }
}
