package dev.mnemo.postgres;

import dev.mnemo.Consolidation;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationRecord;
import java.io.IOException;
import java.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consolidation history of one tenant's memory workspace, for {@link PostgresMemoryWorkspace}:
 * the commits that write a new baseline (a consolidation, a squash, a clear), the kept entries read
 * back (list, per-entry diff) and the rollback to one of them. Every write goes through
 * {@link WorkspaceCopy#change}, so it runs only on a current copy and for the Phase 2 lock's owner.
 * Not thread-safe on its own: every call comes from a {@code synchronized} method of the workspace.
 * Logs under the workspace's name.
 */
final class WorkspaceHistory {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresMemoryWorkspace.class);

    /** What a rollback's transaction read: the restored record, and the pending notes with their version. */
    private record Restored(ConsolidationRecord record, SortedMap<String, byte[]> pending, long notesVersion) {
    }

    private final TenantDatabase database;
    private final WorkspaceCopy copy;
    private final Clock clock;

    WorkspaceHistory(TenantDatabase database, WorkspaceCopy copy, Clock clock) {
        this.database = database;
        this.copy = copy;
        this.clock = clock;
    }

    /** See {@link PostgresMemoryWorkspace#commit}. */
    Consolidation commit(ConsolidationRecord record, int retention) {
        Objects.requireNonNull(record, "record");
        if (retention < 0) {
            throw new IllegalArgumentException("retention must not be negative, was " + retention);
        }
        copy.prepare(false); // notes added since the diff stay pending for the next consolidation
        try {
            SortedMap<String, byte[]> files = copy.local().scan();
            List<String> taken = copy.notes().takenBy(files);
            long version = copy.change("commit consolidation " + record.id(), tx -> {
                WorkspaceRows.replaceBaseline(tx, files);
                tx.update("notes.delete", tx.textArray(taken));
                if (retention == 0) {
                    tx.update("history.deleteAll");
                } else {
                    WorkspaceRows.insertEntry(tx, record, null, files);
                    tx.update("history.trim", retention);
                }
            });
            copy.committed(files, version);
            LOG.info("committed consolidation {} ({} memories, {} ad-hoc notes taken) of tenant {}", record.id(),
                    record.selected().size(), taken.size(), copy.tenant());
            return WorkspaceRows.summary(record);
        } catch (IOException e) {
            throw copy.failure("commit consolidation " + record.id() + " to", e);
        }
    }

    List<Consolidation> history() {
        return database.readSnapshot(copy.tenant(), PostgresMemoryWorkspace.SQL, "read the consolidation history",
                tx -> tx.query("history.all", row -> WorkspaceRows.summary(WorkspaceRows.record(row))));
    }

    /** See {@link PostgresMemoryWorkspace#rollback}. */
    ConsolidationRecord rollback(String id) {
        Objects.requireNonNull(id, "id");
        copy.prepare(true);
        SortedMap<String, byte[]> files = new TreeMap<>();
        Restored[] restored = new Restored[1];
        long version = copy.change("roll back to consolidation " + id, tx -> {
            List<WorkspaceRows.Entry> entries = WorkspaceRows.entries(tx);
            WorkspaceRows.Entry target = entries.get(indexOf(entries, id));
            ConsolidationRecord record = target.record();
            files.putAll(WorkspaceRows.entryFiles(tx, target.seq()));
            WorkspaceRows.replaceBaseline(tx, files);
            WorkspaceRows.insertEntry(tx, new ConsolidationRecord(UUID.randomUUID().toString(), clock.instant(),
                    record.selected(), record.model(), TokenUsage.ZERO), id, files);
            restored[0] = new Restored(record, SharedNotes.pendingNotes(tx),
                    tx.first("workspace.versions", row -> row.getLong(2)).orElseThrow());
        });
        try {
            copy.adopt(new WorkspaceCopy.Snapshot(version, files, restored[0].notesVersion(), restored[0].pending()));
        } catch (IOException e) {
            throw copy.failure("restore the files of consolidation " + id + " in", e);
        }
        LOG.info("restored the memory files of consolidation {} for tenant {}", id, copy.tenant());
        return restored[0].record();
    }

    /** See {@link PostgresMemoryWorkspace#consolidationDiff}. */
    String consolidationDiff(String id) {
        Objects.requireNonNull(id, "id");
        return database.readSnapshot(copy.tenant(), PostgresMemoryWorkspace.SQL, "diff consolidation " + id, tx -> {
            List<WorkspaceRows.Entry> entries = WorkspaceRows.entries(tx);
            int index = indexOf(entries, id);
            SortedMap<String, byte[]> before = index + 1 < entries.size()
                    ? WorkspaceRows.entryFiles(tx, entries.get(index + 1).seq()) : new TreeMap<>();
            return UnifiedDiff.compare(before, WorkspaceRows.entryFiles(tx, entries.get(index).seq())).unifiedDiff();
        });
    }

    /** See {@link PostgresMemoryWorkspace#squashHistory}. */
    void squashHistory() {
        try {
            copy.local().createRoot();
            SortedMap<String, byte[]> files = copy.local().scan();
            List<String> taken = copy.notes().takenBy(files);
            int[] deleted = new int[1];
            long version = copy.change("squash the consolidation history", tx -> {
                deleted[0] = tx.update("history.deleteAll") + WorkspaceRows.replaceBaseline(tx, files)
                        + tx.update("notes.delete", tx.textArray(taken));
            });
            copy.committed(files, version);
            copy.vacuumIfDeleted(deleted[0], "squashing the history");
            LOG.info("squashed the memory history of tenant {} to one baseline", copy.tenant());
        } catch (IOException e) {
            throw copy.failure("squash the history in", e);
        }
    }

    /** See {@link PostgresMemoryWorkspace#clear}. */
    void clear() {
        int[] deleted = new int[1];
        long version = copy.change("clear the memory files", tx -> {
            deleted[0] = tx.update("history.deleteAll") + tx.update("files.deleteAll") + tx.update("notes.deleteAll");
        });
        try {
            copy.local().deleteEverything();
            copy.local().createRoot();
        } catch (IOException e) {
            throw copy.failure("clear", e);
        }
        copy.cleared(version);
        copy.vacuumIfDeleted(deleted[0], "clearing the memory files");
        LOG.info("cleared every memory file, ad-hoc note and the history of tenant {}", copy.tenant());
    }

    /** Where in {@code entries} the kept consolidation {@code id} is. */
    private int indexOf(List<WorkspaceRows.Entry> entries, String id) {
        int index = WorkspaceRows.indexOf(entries, id);
        if (index < 0) {
            throw unknownEntry(id, copy.tenant());
        }
        return index;
    }

    /** The failure for an {@code id} that names no kept consolidation of {@code tenant}. */
    static IllegalArgumentException unknownEntry(String id, String tenant) {
        return new IllegalArgumentException("no kept consolidation has id '" + id + "' for tenant " + tenant);
    }
}
