package dev.mnemo;

import java.time.Instant;
import java.util.Objects;

/**
 * One logged event.
 *
 * @param threadId the thread it concerns
 * @param ts when it happened
 * @param level {@code TRACE}, {@code DEBUG}, {@code INFO}, {@code WARN} or {@code ERROR}
 * @param target what logged it (e.g. {@code mnemo::phase1})
 * @param message what happened
 */
public record ThreadLogEntry(String threadId, Instant ts, String level, String target, String message) {
    /**
     * Checks the components.
     *
     * @param threadId the thread it concerns
     * @param ts when it happened
     * @param level {@code TRACE}, {@code DEBUG}, {@code INFO}, {@code WARN} or {@code ERROR}
     * @param target what logged it
     * @param message what happened
     * @throws NullPointerException when a component is null
     */
    public ThreadLogEntry {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(message, "message");
    }
}
