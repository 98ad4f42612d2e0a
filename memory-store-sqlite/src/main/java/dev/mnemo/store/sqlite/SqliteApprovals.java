package dev.mnemo.store.sqlite;

import static dev.mnemo.store.sqlite.JobKinds.seconds;

import dev.mnemo.spi.ApprovalStore;
import dev.mnemo.spi.PendingNote;
import dev.mnemo.spi.Stage1Output;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link ApprovalStore} role of {@link SqliteMemoryStore} ({@code approval = "ask"}): the flag on
 * a {@code stage1_outputs} row awaiting approval, the {@code notes_awaiting_approval} table and the
 * rejected notes ({@link PendingNoteQueries}). Approving a memory queues Phase 2 in the same write
 * transaction; taking a note checkpoints the WAL so its text does not linger there.
 */
final class SqliteApprovals implements ApprovalStore {

    private final SqliteDatabase database;

    SqliteApprovals(SqliteDatabase database) {
        this.database = database;
    }

    @Override
    public List<Stage1Output> stage1OutputsAwaitingApproval() {
        return database.read("list memories awaiting approval", Stage1OutputQueries::awaitingApproval);
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
        return database.write("approve memory of thread " + threadId, connection -> {
            if (!Stage1OutputQueries.approve(connection, threadId, sourceUpdatedAt)) {
                return false;
            }
            Phase2JobQueries.enqueue(connection, seconds(sourceUpdatedAt));
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
        if (!database.write("keep note " + note.id() + " for approval",
                connection -> PendingNoteQueries.add(connection, note))) {
            throw new IllegalArgumentException("a note awaiting approval already has id '" + note.id() + "'");
        }
    }

    /** {@inheritDoc} Notes made in the same second come in id order. */
    @Override
    public List<PendingNote> pendingNotes() {
        return database.read("list notes awaiting approval", PendingNoteQueries::all);
    }

    @Override
    public Optional<PendingNote> takePendingNote(String id) {
        Objects.requireNonNull(id, "id");
        Optional<PendingNote> taken = database.write("take note " + id + " awaiting approval",
                connection -> PendingNoteQueries.take(connection, id));
        if (taken.isPresent()) {
            database.checkpointBestEffort(); // a rejected note's text should not linger in the WAL
        }
        return taken;
    }

    @Override
    public List<PendingNote> takePendingNotesOf(String threadId) {
        Objects.requireNonNull(threadId, "threadId");
        List<PendingNote> taken = database.write("take the notes of thread " + threadId + " awaiting approval",
                connection -> PendingNoteQueries.takeOf(connection, threadId));
        if (!taken.isEmpty()) {
            database.checkpointBestEffort(); // a forgotten conversation's notes should not linger in the WAL
        }
        return taken;
    }

    @Override
    public void addNoteRejection(String threadId, String textHash, Instant now) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(textHash, "textHash");
        Objects.requireNonNull(now, "now");
        database.write("record a rejected note of thread '" + threadId + "'", connection -> {
            PendingNoteQueries.addRejection(connection, threadId, textHash, now);
            return null;
        });
    }

    @Override
    public boolean isNoteRejected(String threadId, String textHash) {
        Objects.requireNonNull(threadId, "threadId");
        Objects.requireNonNull(textHash, "textHash");
        return database.read("look up a rejected note", connection -> PendingNoteQueries.isRejected(connection,
                threadId, textHash));
    }
}
