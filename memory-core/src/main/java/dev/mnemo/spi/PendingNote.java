package dev.mnemo.spi;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * An ad-hoc note waiting for approval ({@code approval = "ask"}), kept by the store (so every server
 * of a shared store sees it) until approved, when it is written to the memory folder, or rejected.
 *
 * @param id a unique id (the store keeps one row per id)
 * @param filename the note's file name as the model chose it ({@code YYYY-MM-DDTHH-MM-SS-<slug>.md}), validated
 * @param projectSlug the project folder the note is for; empty for a global note
 * @param text the note, redacted
 * @param threadId the conversation that asked for it, or empty when not known
 * @param createdAt when it was made (whole seconds are enough)
 */
public record PendingNote(String id, String filename, Optional<String> projectSlug, String text,
        Optional<String> threadId, Instant createdAt) {
    public PendingNote {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(filename, "filename");
        Objects.requireNonNull(projectSlug, "projectSlug");
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(createdAt, "createdAt");
        if (id.isBlank()) {
            throw new IllegalArgumentException("pending note id must not be blank");
        }
    }
}
