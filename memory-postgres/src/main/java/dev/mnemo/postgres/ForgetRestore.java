package dev.mnemo.postgres;

import dev.mnemo.spi.ConsolidationRecord;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a forget does to one tenant's memory workspace, for {@link PostgresMemoryWorkspace}: drops a
 * kept consolidation and every newer one, restoring the files to the entry before it (see
 * {@link PostgresMemoryWorkspace#dropHistoryFrom}), through {@link WorkspaceCopy#change} like every
 * other change of the files. Not thread-safe on its own: every call comes from a
 * {@code synchronized} method of the workspace. Logs under the workspace's name.
 */
final class ForgetRestore {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresMemoryWorkspace.class);

    /** The pending notes and their version, as a transaction read them. */
    private record PendingNotes(SortedMap<String, byte[]> notes, long version) {
    }

    private final WorkspaceCopy copy;

    ForgetRestore(WorkspaceCopy copy) {
        this.copy = copy;
    }

    /** See {@link PostgresMemoryWorkspace#dropHistoryFrom}. */
    Optional<ConsolidationRecord> dropHistoryFrom(String id) {
        Objects.requireNonNull(id, "id");
        boolean withNotes = copy.withNotes(); // as refresh(): our consolidation's notes stay as shown
        copy.prepare(withNotes);
        WorkspaceRows.Drop[] drop = new WorkspaceRows.Drop[1];
        PendingNotes[] notesRead = new PendingNotes[1];
        long version = copy.change("drop consolidation " + id + " and every newer one", tx -> {
            drop[0] = WorkspaceRows.dropFrom(tx, id)
                    .orElseThrow(() -> WorkspaceHistory.unknownEntry(id, copy.tenant()));
            notesRead[0] = new PendingNotes(SharedNotes.pendingNotes(tx),
                    tx.first("workspace.versions", row -> row.getLong(2)).orElseThrow());
        });
        try {
            copy.adopt(new WorkspaceCopy.Snapshot(version, drop[0].baseline(), notesRead[0].version(),
                    withNotes ? notesRead[0].notes() : null));
            copy.local().deleteDiffFile();
        } catch (IOException e) {
            throw copy.failure("drop consolidation " + id + " from the files of", e);
        }
        copy.vacuumIfDeleted(drop[0].deletedRows(), "dropping consolidation " + id + " and newer ones");
        LOG.info("dropped consolidation {} and every newer one of tenant {}; the memory files are {}", id,
                copy.tenant(), drop[0].restored().map(record -> "restored to consolidation " + record.id())
                        .orElse("removed (no consolidation remains)"));
        return drop[0].restored();
    }
}
