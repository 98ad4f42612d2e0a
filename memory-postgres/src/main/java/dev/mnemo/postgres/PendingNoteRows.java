package dev.mnemo.postgres;

import dev.mnemo.spi.PendingNote;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The {@code notes_awaiting_approval} view of one tenant: ad-hoc notes kept as {@link PendingNote}s
 * until a person decides on them ({@code created_at} in epoch seconds). Not the workspace's
 * {@code pending_notes}, which hold notes already taken and not yet consolidated ({@link SharedNotes}).
 */
final class PendingNoteRows {

    private PendingNoteRows() {
    }

    /** @return false, adding nothing, when a note with that id is already kept */
    static boolean add(Tx tx, PendingNote note) throws SQLException {
        return tx.update("note.add", note.id(), note.filename(), note.projectSlug().orElse(null), note.text(),
                note.threadId().orElse(null), note.createdAt().getEpochSecond(), note.externalContext() ? 1 : 0) > 0;
    }

    static List<PendingNote> all(Tx tx) throws SQLException {
        return tx.query("note.all", PendingNoteRows::map);
    }

    /** Deletes the note and returns it, in one statement. */
    static Optional<PendingNote> take(Tx tx, String id) throws SQLException {
        return tx.first("note.take", PendingNoteRows::map, id);
    }

    /** Deletes the notes a conversation asked for and returns them, in one statement. */
    static List<PendingNote> takeOf(Tx tx, String threadId) throws SQLException {
        return tx.query("note.takeOfThread", PendingNoteRows::map, threadId);
    }

    static void addRejection(Tx tx, String threadId, String textHash, Instant now) throws SQLException {
        tx.update("note.reject", threadId, textHash, now.getEpochSecond());
    }

    static boolean isRejected(Tx tx, String threadId, String textHash) throws SQLException {
        return tx.first("note.isRejected", row -> true, threadId, textHash).isPresent();
    }

    static int deleteAll(Tx tx) throws SQLException {
        return tx.update("note.deleteAll");
    }

    private static PendingNote map(ResultSet row) throws SQLException {
        return new PendingNote(row.getString("id"), row.getString("filename"),
                Optional.ofNullable(row.getString("project_slug")), row.getString("content"),
                Optional.ofNullable(row.getString("thread_id")), Instant.ofEpochSecond(row.getLong("created_at")),
                row.getInt("external_context") != 0);
    }
}
