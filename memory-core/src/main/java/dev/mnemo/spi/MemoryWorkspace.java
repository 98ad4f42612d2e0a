package dev.mnemo.spi;

import dev.mnemo.Consolidation;
import dev.mnemo.MemoryWorkspaceException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The memory folder and its private history: a baseline to diff Phase 2's synced inputs against,
 * and one history entry per successful consolidation.
 *
 * <p>Failures are {@link MemoryWorkspaceException}s naming the path.
 */
public interface MemoryWorkspace extends AutoCloseable {

    /**
     * The memory root this workspace manages.
     *
     * @return the memory folder
     */
    Path root();

    /** Creates the root and its history if missing; recovers an unborn or broken history. */
    void prepare();

    /**
     * Brings the files under {@link #root()} up to date with a copy shared by other servers, if the
     * workspace has one, before the read path and the memory tools read them. Called on every
     * instruction build and tool call, so it must be cheap when nothing changed (a version check);
     * a failure to reach the shared copy is logged and the local files are served. The default does
     * nothing: the local files are the only copy.
     */
    default void refresh() {
    }

    /**
     * Called after the memory tools wrote a new ad-hoc note under {@link #root()} (its file is
     * complete and in place), so the next consolidation sees it whichever server runs it. A
     * workspace shared by several servers stores it where the others see it; a failure to reach the
     * shared copy is logged and the note kept locally, to be stored by a later {@link #refresh()}.
     * The default does nothing: the local files are the only copy.
     *
     * @param note the note's file, under {@link #root()}
     * @return {@code false} when the note cannot be kept under its name because the shared copy
     *     already holds a different note with that path (added on another server meanwhile); the
     *     local file then holds that other note, and the caller reports the name as taken.
     *     {@code true} otherwise
     */
    default boolean noteAdded(Path note) {
        return true;
    }

    /**
     * Called after the engine deleted an ad-hoc note under {@link #root()} because the conversation
     * that asked for it was forgotten. A workspace shared by several servers drops the note from its
     * shared copy, so no server brings it back. The default does nothing: the local files are the
     * only copy.
     *
     * @param note the deleted note's file, under {@link #root()}
     */
    default void noteRemoved(Path note) {
    }

    /**
     * What changed in the working files since the baseline (never the history folder or the diff file).
     *
     * @return the added, changed and deleted files; empty when nothing changed
     */
    WorkspaceDiff diff();

    /**
     * Records the current files as the new baseline and a history entry for this consolidation;
     * keeps at most {@code retention} entries (0: baseline only).
     *
     * @param record what to record about this consolidation in its history entry
     * @param retention how many history entries to keep, at least 0
     * @return the new history entry
     */
    Consolidation commit(ConsolidationRecord record, int retention);

    /**
     * Kept consolidations, newest first.
     *
     * @return the kept history entries; empty when none is kept
     */
    List<Consolidation> history();

    /**
     * Restores the files as consolidation {@code id} left them, as a new history entry.
     *
     * @param id the id of a kept consolidation, as {@link #history()} lists it
     * @return the record of the restored consolidation, so the caller can re-mark its selection
     * @throws IllegalArgumentException when no kept consolidation has that id
     */
    ConsolidationRecord rollback(String id);

    /**
     * Forgets consolidation {@code id} and every newer one: each is dropped from the history, the
     * generated files (everything but {@code extensions/}, which holds the user's own notes) are
     * restored as the newest remaining entry left them, or removed when none remains, and every
     * object no longer reachable is deleted, so the dropped entries' text is in no file, no
     * history entry and no copy a later {@link #rollback} could restore. A workspace shared by
     * several servers makes the change visible to every server's next {@link #refresh()}.
     *
     * <p>Called by the engine, holding the Phase 2 lock, when a thread that a kept consolidation
     * used is deleted, polluted or disabled: {@code id} is the oldest entry that used it.
     *
     * @param id the id of a kept consolidation, the oldest to drop
     * @return the record of the entry the files were restored to, or empty when none remains
     * @throws IllegalArgumentException when no kept consolidation has that id
     * @throws UnsupportedOperationException for workspaces that cannot drop history entries (the default)
     */
    default Optional<ConsolidationRecord> dropHistoryFrom(String id) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot drop history entries, so a "
                + "forgotten thread's text stays in its history until the next consolidation squashes it");
    }

    /**
     * Forgets every consolidation, kept or trimmed: the generated files (everything but
     * {@code extensions/}, which holds the user's own notes, and the history's own hidden folder)
     * are removed and the history restarts as one baseline of what is left, with no object of the
     * old history reachable or kept. Called by the engine, holding the Phase 2 lock, when a
     * forgotten thread was used by a consolidation older than the kept history (with
     * {@code history_retention = 0}, by any consolidation): no kept state is known to be free of
     * its text.
     *
     * <p>The default removes the generated files under {@link #root()} and then
     * {@link #squashHistory() squashes} the history to what is left, which is exactly that for any
     * workspace whose squash keeps the current files and nothing else.
     */
    default void dropWholeHistory() {
        Path root = root();
        try (Stream<Path> top = Files.list(root)) {
            for (Path entry : (Iterable<Path>) top::iterator) {
                String name = entry.getFileName().toString();
                if (name.equals("extensions") || name.startsWith(".")) {
                    continue;
                }
                deleteTree(entry);
            }
        } catch (NoSuchFileException e) {
            // no folder yet: nothing generated to remove
        } catch (IOException e) {
            throw new MemoryWorkspaceException("cannot remove the generated memory files under " + root
                    + ": " + e.getMessage(), e);
        }
        squashHistory();
    }

    private static void deleteTree(Path path) throws IOException {
        if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
            try (Stream<Path> children = Files.list(path)) {
                for (Path child : (Iterable<Path>) children::iterator) {
                    deleteTree(child);
                }
            }
        }
        Files.deleteIfExists(path);
    }

    /**
     * What kept consolidation {@code id} changed: a unified diff (git's format, {@code a/} and
     * {@code b/} prefixes, paths relative to the root) from the entry before it, or from an empty
     * folder for the oldest kept one.
     *
     * @param id the id of a kept consolidation
     * @return the diff; empty when the consolidation changed no file
     * @throws IllegalArgumentException when no kept consolidation has that id
     * @throws UnsupportedOperationException for workspaces that keep no diffable history (the default)
     */
    default String consolidationDiff(String id) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot show what a consolidation changed");
    }

    /**
     * Rewrites the history as one baseline of the current files and removes every unreachable
     * object, so text deleted from the files is gone from the history too.
     */
    void squashHistory();

    /** Deletes every file and the history. */
    void clear();

    @Override
    void close();
}
