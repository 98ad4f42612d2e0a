package dev.mnemo.internal.read;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ad-hoc notes no consolidation has folded in yet ({@link AdHocNoteFiles}), per scope: what the
 * instructions show at once, framed as unverified requests. An unchanged notes folder and folded list cost
 * two {@code stat}s per turn; a
 * memory folder without notes, none while its own stamp is unchanged.
 */
final class PendingNotes {

    private static final Logger LOG = LoggerFactory.getLogger(PendingNotes.class);

    private final StampedPath<List<AdHocNoteFiles.NoteFile>> notes;
    private final StampedPath<Set<String>> folded;
    /** The last answer and the two values it came from (compared by identity: they are cached). */
    private volatile Pending last;

    PendingNotes(Path memoryRoot, Clock wallClock) {
        this.notes = new StampedPath<>(AdHocNoteFiles.notesDir(memoryRoot), wallClock, AdHocNoteFiles::readAll,
                memoryRoot);
        this.folded = new StampedPath<>(memoryRoot.resolve(AdHocNoteFiles.FOLDED_FILE), wallClock,
                AdHocNoteFiles::readFolded, memoryRoot);
    }

    private record Pending(List<AdHocNoteFiles.NoteFile> all, Set<String> folded, List<AdHocNoteFiles.NoteFile> pending) {}

    /**
     * The pending notes a session in {@code projectSlug} (or in none) sees, newest first: the
     * global ones and its project's, never another project's. The same list instance while nothing
     * changed.
     *
     * @param root the memory folder's stamp ({@link StampedPath.Folder#stamp()}), or null
     */
    List<AdHocNoteFiles.NoteFile> forScope(Optional<String> projectSlug, StampedPath.FolderStamp root) {
        List<AdHocNoteFiles.NoteFile> pending = pending(root);
        if (pending.isEmpty()) {
            return pending;
        }
        boolean anyOtherScope = false;
        for (AdHocNoteFiles.NoteFile note : pending) {
            if (note.note().project().isPresent() && !note.note().project().equals(projectSlug)) {
                anyOtherScope = true;
                break;
            }
        }
        if (!anyOtherScope) {
            return pending;
        }
        List<AdHocNoteFiles.NoteFile> visible = new ArrayList<>();
        for (AdHocNoteFiles.NoteFile note : pending) {
            if (note.note().project().isEmpty() || note.note().project().equals(projectSlug)) {
                visible.add(note);
            }
        }
        return List.copyOf(visible);
    }

    private List<AdHocNoteFiles.NoteFile> pending(StampedPath.FolderStamp root) {
        List<AdHocNoteFiles.NoteFile> all;
        Set<String> foldedNames;
        try {
            all = notes.getOrElse(List.of(), root);
            foldedNames = folded.getOrElse(Set.of(), root);
        } catch (IOException e) {
            LOG.warn("Cannot read the ad-hoc notes ({}); instructions show none", e.toString());
            return List.of();
        }
        Pending cached = last;
        if (cached != null && cached.all() == all && cached.folded() == foldedNames) {
            return cached.pending();
        }
        List<AdHocNoteFiles.NoteFile> pending = new ArrayList<>();
        for (AdHocNoteFiles.NoteFile note : all) {
            if (!foldedNames.contains(note.note().name()) && !note.note().text().isEmpty()) {
                pending.add(note);
            }
        }
        List<AdHocNoteFiles.NoteFile> result = List.copyOf(pending);
        last = new Pending(all, foldedNames, result);
        return result;
    }
}
