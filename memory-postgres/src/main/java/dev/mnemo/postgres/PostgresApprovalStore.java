package dev.mnemo.postgres;

import dev.mnemo.spi.ApprovalStore;
import dev.mnemo.spi.PendingNote;
import dev.mnemo.spi.Stage1Output;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What waits for a person in one tenant ({@link ApprovalStore}, {@code approval = "ask"}), a role
 * of {@link PostgresMemoryStore}: memories awaiting approval ({@link OutputRows}; approving one
 * queues Phase 2 in the same transaction, as a Phase 1 success does), notes awaiting approval and
 * rejected notes ({@link PendingNoteRows}). Taking a note deletes it, so the notes' table is
 * vacuumed in the background after a take.
 */
final class PostgresApprovalStore implements ApprovalStore {

    private final StateTransactions state;

    PostgresApprovalStore(StateTransactions state) {
        this.state = state;
    }

    @Override
    public List<Stage1Output> stage1OutputsAwaitingApproval() {
        return state.read("list memories awaiting approval", OutputRows::awaitingApproval);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Phase 2 is queued as a Phase 1 success queues it, with the memory's version as the input
     * watermark.
     */
    @Override
    public boolean approveStage1Output(String threadId, Instant sourceUpdatedAt, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(sourceUpdatedAt, "sourceUpdatedAt");
        Objects.requireNonNull(now, "now");
        return state.write("approve memory of thread " + threadId, tx -> {
            if (!OutputRows.approve(tx, threadId, sourceUpdatedAt)) {
                return false;
            }
            JobRows.enqueuePhase2(tx, sourceUpdatedAt.getEpochSecond());
            return true;
        });
    }

    /**
     * {@inheritDoc}
     *
     * <p>{@code createdAt} is kept in whole seconds.
     *
     * @throws IllegalArgumentException when a note with that id is already kept (it is left as it was)
     */
    @Override
    public void addPendingNote(PendingNote note) {
        Objects.requireNonNull(note, "note");
        if (!state.write("keep note " + note.id() + " for approval", tx -> PendingNoteRows.add(tx, note))) {
            throw new IllegalArgumentException("a note awaiting approval already has id '" + note.id() + "'");
        }
    }

    /** {@inheritDoc} Notes made in the same second come in id order. */
    @Override
    public List<PendingNote> pendingNotes() {
        return state.read("list notes awaiting approval", PendingNoteRows::all);
    }

    @Override
    public Optional<PendingNote> takePendingNote(String id) {
        Objects.requireNonNull(id, "id");
        Optional<PendingNote> taken = state.write("take note " + id + " awaiting approval",
                tx -> PendingNoteRows.take(tx, id));
        if (taken.isPresent()) {
            state.vacuumNotes("taking a note awaiting approval");
        }
        return taken;
    }

    @Override
    public List<PendingNote> takePendingNotesOf(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        List<PendingNote> taken = state.write("take the notes of thread " + threadId + " awaiting approval",
                tx -> PendingNoteRows.takeOf(tx, threadId));
        if (!taken.isEmpty()) {
            state.vacuumNotes("forgetting the notes of a conversation");
        }
        return taken;
    }

    @Override
    public void addNoteRejection(String threadId, String textHash, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(textHash, "textHash");
        Objects.requireNonNull(now, "now");
        state.write("record a rejected note of thread '" + threadId + "'", tx -> {
            PendingNoteRows.addRejection(tx, threadId, textHash, now);
            return null;
        });
    }

    @Override
    public boolean isNoteRejected(String threadId, String textHash) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(textHash, "textHash");
        return state.read("look up a rejected note", tx -> PendingNoteRows.isRejected(tx, threadId, textHash));
    }
}
