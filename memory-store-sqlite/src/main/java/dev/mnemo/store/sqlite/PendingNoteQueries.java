package dev.mnemo.store.sqlite;

import static dev.mnemo.store.sqlite.JobKinds.fromSeconds;
import static dev.mnemo.store.sqlite.JobKinds.seconds;

import dev.mnemo.spi.PendingNote;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The {@code notes_awaiting_approval} table: ad-hoc notes kept as {@link PendingNote}s until a
 * person decides on them ({@code created_at} in epoch seconds).
 */
final class PendingNoteQueries {

    /** The columns {@link #map} reads, in this order. */
    private static final String SELECT = "SELECT id, filename, project_slug, content, thread_id, created_at, external_context"
            + " FROM notes_awaiting_approval";

    private PendingNoteQueries() {
    }

    /** @return false, adding nothing, when a note with that id is already kept */
    static boolean add(PooledConnection connection, PendingNote note) throws SQLException {
        return Jdbc.update(connection, "INSERT INTO notes_awaiting_approval"
                + " (id, filename, project_slug, content, thread_id, created_at, external_context)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING", note.id(), note.filename(),
                note.projectSlug().orElse(null), note.text(), note.threadId().orElse(null), seconds(note.createdAt()),
                note.externalContext() ? 1 : 0) > 0;
    }

    /** Oldest first; notes made in the same second by id. */
    static List<PendingNote> all(PooledConnection connection) throws SQLException {
        return Jdbc.query(connection, SELECT + " ORDER BY created_at ASC, id ASC", PendingNoteQueries::map);
    }

    /** Deletes the note and returns it; the caller's write transaction makes the read and the delete one step. */
    static Optional<PendingNote> take(PooledConnection connection, String id) throws SQLException {
        Optional<PendingNote> note = Jdbc.queryFirst(connection, SELECT + " WHERE id = ?", PendingNoteQueries::map, id);
        if (note.isPresent()) {
            Jdbc.update(connection, "DELETE FROM notes_awaiting_approval WHERE id = ?", id);
        }
        return note;
    }

    /** Deletes the notes a conversation asked for and returns them, oldest first. */
    static List<PendingNote> takeOf(PooledConnection connection, String threadId) throws SQLException {
        List<PendingNote> notes = Jdbc.query(connection, SELECT + " WHERE thread_id = ? ORDER BY created_at ASC, id ASC",
                PendingNoteQueries::map, threadId);
        if (!notes.isEmpty()) {
            Jdbc.update(connection, "DELETE FROM notes_awaiting_approval WHERE thread_id = ?", threadId);
        }
        return notes;
    }

    static void addRejection(PooledConnection connection, String threadId, String textHash, Instant now)
            throws SQLException {
        Jdbc.update(connection, "INSERT INTO rejected_notes (thread_id, text_hash, rejected_at) VALUES (?, ?, ?)"
                + " ON CONFLICT(thread_id, text_hash) DO NOTHING", threadId, textHash, seconds(now));
    }

    static boolean isRejected(PooledConnection connection, String threadId, String textHash) throws SQLException {
        return Jdbc.queryFirst(connection, "SELECT 1 FROM rejected_notes WHERE thread_id = ? AND text_hash = ?",
                row -> true, threadId, textHash).isPresent();
    }

    static void deleteAll(PooledConnection connection) throws SQLException {
        Jdbc.update(connection, "DELETE FROM notes_awaiting_approval");
    }

    private static PendingNote map(ResultSet row) throws SQLException {
        return new PendingNote(row.getString(1), row.getString(2), Optional.ofNullable(row.getString(3)),
                row.getString(4), Optional.ofNullable(row.getString(5)), fromSeconds(row.getLong(6)), row.getInt(7) != 0);
    }
}
