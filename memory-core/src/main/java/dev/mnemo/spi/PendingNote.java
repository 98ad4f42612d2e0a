package dev.mnemo.spi;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * An ad-hoc note waiting for approval, kept by the store (so every server of a shared store sees it)
 * until approved, when it is written to the memory folder, or rejected. A note waits when
 * {@code approval = "ask"}, and, whatever {@code approval} says, when the conversation that asked
 * for it had seen external context ({@code externalContext}): text from a web page or a tool's
 * output may have prompted it.
 *
 * @param id a unique id (the store keeps one row per id)
 * @param filename the note's file name as the model chose it ({@code YYYY-MM-DDTHH-MM-SS-<slug>.md}), validated
 * @param projectSlug the project folder the note is for; empty for a global note
 * @param text the note, redacted
 * @param threadId the recorded conversation whose model asked for it; empty when it was asked for
 *     outside any (by a person through the CLI or an application's own call)
 * @param createdAt when it was made (whole seconds are enough)
 * @param externalContext the conversation had seen external context when the note was asked for,
 *     so it waits for a person even with {@code approval = "auto"}
 */
public record PendingNote(String id, String filename, Optional<String> projectSlug, String text,
        Optional<String> threadId, Instant createdAt, boolean externalContext) {

    /**
     * A note held for approval alone, not for external context.
     *
     * @param id a unique id (the store keeps one row per id)
     * @param filename the note's file name as the model chose it, validated
     * @param projectSlug the project folder the note is for; empty for a global note
     * @param text the note, redacted
     * @param threadId the recorded conversation whose model asked for it; empty when asked for outside any
     * @param createdAt when it was made
     */
    public PendingNote(String id, String filename, Optional<String> projectSlug, String text,
            Optional<String> threadId, Instant createdAt) {
        this(id, filename, projectSlug, text, threadId, createdAt, false);
    }

    /**
     * Checks the note.
     *
     * @param id a unique id (the store keeps one row per id)
     * @param filename the note's file name as the model chose it, validated
     * @param projectSlug the project folder the note is for; empty for a global note
     * @param text the note, redacted
     * @param threadId the recorded conversation whose model asked for it; empty when asked for outside any
     * @param createdAt when it was made
     * @param externalContext whether the conversation had seen external context when the note was asked for
     * @throws IllegalArgumentException when {@code id} is blank
     */
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
