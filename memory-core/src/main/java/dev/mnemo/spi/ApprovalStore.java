package dev.mnemo.spi;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What waits for a person ({@code approval = "ask"}): stage-1 memories awaiting approval, pending
 * notes, and the notes a person rejected. The defaults keep nothing, for stores without approval.
 *
 * <p>One role of a {@link MemoryStore}: a store implements it as part of the composite, and a
 * component that needs only this role asks for only this interface. The rules of the composite
 * apply (safe for several threads and processes; {@code now} is the engine's clock; failures are
 * {@link dev.mnemo.MemoryStoreException}s).
 */
public interface ApprovalStore {

    /**
     * Stored memories awaiting approval, oldest {@code generatedAt} first.
     *
     * @return the memories awaiting approval; empty when none (the default)
     */
    default List<Stage1Output> stage1OutputsAwaitingApproval() {
        return List.of();
    }

    /**
     * Approves the stored memory of a thread if it is still version {@code sourceUpdatedAt} and
     * awaiting approval, and enqueues Phase 2.
     *
     * @param threadId the conversation's thread id
     * @param sourceUpdatedAt the memory's rollout version that was shown to the person
     * @param now the current time on the engine's clock
     * @return false when there was no such row (already decided, replaced, or forgotten)
     * @throws UnsupportedOperationException when the store cannot keep memories for approval (the default)
     */
    default boolean approveStage1Output(String threadId, Instant sourceUpdatedAt, Instant now) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot keep memories for approval");
    }

    /**
     * Keeps a note for approval. Ids are unique; adding an id twice fails.
     *
     * @param note the note to keep
     * @throws UnsupportedOperationException when the store cannot keep notes for approval (the default)
     */
    default void addPendingNote(PendingNote note) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot keep notes for approval, so "
                + "approval = \"ask\" is not available with it");
    }

    /**
     * Notes awaiting approval, oldest first.
     *
     * @return the notes awaiting approval; empty when none (the default)
     */
    default List<PendingNote> pendingNotes() {
        return List.of();
    }

    /**
     * Removes a pending note and returns it, atomically: of two servers deciding on one note, only
     * one gets it.
     *
     * @param id the pending note's id
     * @return the note, or empty when no such note waits (always, by default)
     */
    default Optional<PendingNote> takePendingNote(String id) {
        return Optional.empty();
    }

    /**
     * Removes every pending note whose {@link PendingNote#threadId()} is {@code threadId} and
     * returns them, oldest first as {@link #pendingNotes()} lists them, when that conversation is
     * forgotten (deleted, polluted or disabled).
     *
     * @param threadId the conversation's thread id
     * @return the notes removed, oldest first; empty when there were none
     * @throws UnsupportedOperationException when the store cannot (the default)
     */
    default List<PendingNote> takePendingNotesOf(String threadId) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot remove the notes of a conversation");
    }

    /**
     * Records that a person rejected a note, so the same note from the same conversation is refused
     * from now on: {@code threadId} is the conversation ({@code ""} for a note asked for outside
     * any) and {@code textHash} the note's fingerprint (the engine's hash of its normalised text; the
     * store keeps no text). Recording a rejection twice keeps one.
     *
     * @param threadId the conversation's thread id, or {@code ""} for a note asked for outside any
     * @param textHash the note's fingerprint
     * @param now the current time on the engine's clock
     * @throws UnsupportedOperationException when the store cannot record rejections (the default)
     */
    default void addNoteRejection(String threadId, String textHash, Instant now) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot record rejected notes");
    }

    /**
     * Whether {@link #addNoteRejection} recorded this conversation and fingerprint.
     *
     * @param threadId the conversation's thread id, or {@code ""} for a note asked for outside any
     * @param textHash the note's fingerprint
     * @return true when that note was rejected in that conversation
     * @throws UnsupportedOperationException when the store cannot record rejections (the default)
     */
    default boolean isNoteRejected(String threadId, String textHash) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot record rejected notes");
    }
}
