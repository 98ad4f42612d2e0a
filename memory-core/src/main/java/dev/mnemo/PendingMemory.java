package dev.mnemo;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A memory waiting for a person's decision ({@code approval = "ask"}).
 *
 * @param id what to pass to {@link MemoryAdmin#approve} or {@link MemoryAdmin#reject}:
 *     {@code stage1:<threadId>} or {@code note:<noteId>}
 * @param kind {@value #STAGE1} for a Phase 1 output, {@value #NOTE} for an ad-hoc note
 * @param threadId the conversation it came from; for a note, empty when not known
 * @param text what would be remembered: the raw memory, or the note (redacted)
 * @param createdAt when it was made
 * @param projectSlug the scope it is for: the project folder ({@code projects/<slug>}, see
 *     {@link ProjectKeys#slug}); empty for global memory
 */
public record PendingMemory(String id, String kind, String threadId, String text, Instant createdAt,
        Optional<String> projectSlug) {

    /** The kind of a Phase 1 output. */
    public static final String STAGE1 = "stage1";
    /** The kind of an ad-hoc note. */
    public static final String NOTE = "note";

    /**
     * Checks the components.
     *
     * @param id what to pass to {@link MemoryAdmin#approve} or {@link MemoryAdmin#reject}
     * @param kind {@value #STAGE1} or {@value #NOTE}
     * @param threadId the conversation it came from; for a note, empty when not known
     * @param text what would be remembered (redacted)
     * @param createdAt when it was made
     * @param projectSlug the project folder it is for; empty for global memory
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when {@code kind} is neither {@value #STAGE1} nor {@value #NOTE}
     */
    public PendingMemory {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(projectSlug, "projectSlug");
        if (!kind.equals(STAGE1) && !kind.equals(NOTE)) {
            throw new IllegalArgumentException("kind must be stage1 or note, was " + kind);
        }
    }

    /**
     * A pending memory of global scope (the form of earlier releases).
     *
     * @param id what to pass to {@link MemoryAdmin#approve} or {@link MemoryAdmin#reject}
     * @param kind {@value #STAGE1} or {@value #NOTE}
     * @param threadId the conversation it came from; for a note, empty when not known
     * @param text what would be remembered (redacted)
     * @param createdAt when it was made
     */
    public PendingMemory(String id, String kind, String threadId, String text, Instant createdAt) {
        this(id, kind, threadId, text, createdAt, Optional.empty());
    }
}
