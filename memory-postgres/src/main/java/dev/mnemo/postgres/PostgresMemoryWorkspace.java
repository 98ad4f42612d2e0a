package dev.mnemo.postgres;

import dev.mnemo.Consolidation;
import dev.mnemo.MemoryStoreException;
import dev.mnemo.MemoryWorkspaceException;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationRecord;
import dev.mnemo.spi.MemoryWorkspace;
import dev.mnemo.spi.WorkspaceDiff;
import dev.mnemo.spi.WorkspaceDiff.Change;
import dev.mnemo.spi.WorkspaceDiff.Status;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The memory workspace of one tenant with its files and consolidation history in PostgreSQL,
 * materialised under a local folder for the consolidation agent, the memory tools and the read
 * path. The database holds the baseline (the files as the last consolidation left them), a version
 * that moves on every change, and every kept consolidation with its files (for rollback).
 *
 * <p>A commit, rollback, squash or clear is one transaction that locks the tenant's workspace row,
 * refuses to run when another server changed the files since this one last saw them, and — while a
 * consolidation holds the Phase 2 lock — runs only for the lock's owner (checked against the
 * {@code jobs} row in the same transaction). {@link #refresh()} reads two version numbers in one
 * row and rewrites the local files only when another server committed. Paths with a segment starting
 * with {@code .} and the top-level {@code phase2_workspace_diff.md} are never part of the files.
 *
 * <p>Ad-hoc notes the memory tools add are stored at once as pending notes ({@link SharedNotes}),
 * counted by a second version that a commit's conflict check ignores; every server writes them
 * into its local folder on its next refresh, and the commit of the consolidation that took them
 * deletes them. While this server's own consolidation holds the Phase 2 lock, a refresh leaves
 * newly added notes pending, so the commit takes only the notes its agent was shown.
 */
final class PostgresMemoryWorkspace implements MemoryWorkspace {

    static final SqlStatements SQL = SqlStatements.load("sql/workspace.sql");

    private static final Logger LOG = LoggerFactory.getLogger(PostgresMemoryWorkspace.class);
    private static final List<String> FORGET_TABLES = List.of("tenant_workspace_files", "tenant_consolidation_files",
            "tenant_consolidations", "tenant_pending_notes");

    private final TenantDatabase database;
    private final String tenant;
    private final LocalFiles local;
    private final Phase2Lock phase2Lock;
    private final Clock clock;
    private final SharedNotes notes;
    /** The baseline this server's local files were materialised from, and its version (-1: none yet). */
    private SortedMap<String, byte[]> baseline = new TreeMap<>();
    private long localVersion = -1;

    PostgresMemoryWorkspace(TenantDatabase database, String tenant, Path root, Phase2Lock phase2Lock, Clock clock) {
        this.database = database;
        this.tenant = tenant;
        this.local = new LocalFiles(root.toAbsolutePath().normalize());
        this.phase2Lock = phase2Lock;
        this.clock = clock;
        this.notes = new SharedNotes(database, tenant, local, clock);
    }

    @Override
    public Path root() {
        return local.root();
    }

    /** The two counters of the workspace row: the memory files' version and the pending notes' version. */
    private record Versions(long files, long notes) {
    }

    /**
     * A database version with the files it stands for, and the pending notes as of
     * {@code notesVersion} ({@code null}: not read).
     */
    private record Snapshot(long version, SortedMap<String, byte[]> files, long notesVersion,
            SortedMap<String, byte[]> pending) {
    }

    @Override
    public synchronized void prepare() {
        prepare(true);
    }

    /** Creates the root and the workspace row (the first server's files become the baseline), then catches up. */
    private void prepare(boolean withNotes) {
        try {
            local.createRoot();
            SortedMap<String, byte[]> here = local.scan();
            boolean created = database.write(tenant, SQL, "prepare the memory workspace", tx -> {
                if (tx.update("workspace.create") > 0) { // the first server takes its files as the baseline
                    WorkspaceRows.insertFiles(tx, "files.insert", null, here);
                    return true;
                }
                return false;
            });
            Optional<Snapshot> snapshot = created ? Optional.of(new Snapshot(1, here, 0, new TreeMap<>()))
                    : changes(withNotes);
            if (snapshot.isPresent()) {
                adopt(snapshot.get());
            }
        } catch (IOException e) {
            throw failure("prepare", e);
        }
    }

    /**
     * Brings the local files up to date with the database: one primary-key read of the two
     * versions, then the files and notes only when another server changed them (or a note still
     * waits to be stored). The first refresh, which always needs them, reads them at once. A
     * database failure leaves the local copy as it is (logged).
     */
    @Override
    public synchronized void refresh() {
        try {
            boolean withNotes = phase2Lock.held().isEmpty();
            if (localVersion < 0) {
                local.createRoot(); // the tools may add a note before anything was materialised here
            } else if (!behind(database.read(tenant, SQL, "check the memory files version",
                    tx -> tx.first("workspace.versions", row -> new Versions(row.getLong(1), row.getLong(2)))),
                    withNotes)) {
                return;
            }
            Optional<Snapshot> snapshot = changes(withNotes);
            if (snapshot.isPresent()) {
                adopt(snapshot.get());
                LOG.debug("memory files of tenant {} refreshed to version {}", tenant, localVersion);
            }
        } catch (MemoryStoreException e) {
            LOG.warn("could not check the memory files of tenant {} for changes; serving the local copy: {}", tenant,
                    e.getMessage());
        } catch (IOException e) {
            throw failure("refresh", e);
        }
    }

    /**
     * What changed since this server's copy, read in one statement (one snapshot): the files when
     * their version moved, the pending notes when {@code withNotes} and either version moved (or a
     * note waits to be stored); empty when the local copy is current.
     */
    private Optional<Snapshot> changes(boolean withNotes) {
        return database.read(tenant, SQL, "check the memory files for changes", tx -> {
            List<Versions> versions = new ArrayList<>(1);
            SortedMap<String, byte[]> files = new TreeMap<>();
            SortedMap<String, byte[]> pending = new TreeMap<>();
            tx.query("workspace.changes", row -> {
                switch (row.getInt(1)) {
                    case 0 -> versions.add(new Versions(row.getLong(4), row.getLong(5)));
                    case 1 -> files.put(row.getString(2), row.getBytes(3));
                    default -> pending.put(row.getString(2), row.getBytes(3));
                }
                return null;
            }, localVersion, withNotes, localVersion, notes.seenVersion(), notes.owed());
            Optional<Versions> now = versions.stream().findFirst();
            if (!behind(now, withNotes)) {
                return Optional.empty();
            }
            long version = now.map(Versions::files).orElse(localVersion);
            return Optional.of(new Snapshot(version, version != localVersion ? files : baseline,
                    now.map(Versions::notes).orElse(-1L), withNotes ? pending : null));
        });
    }

    /**
     * Whether the local copy is behind the database's versions {@code now}: another server changed
     * the files, or (with notes) added a note, or a note of this server still waits to be stored
     * (then even before the tenant's workspace row exists).
     */
    private boolean behind(Optional<Versions> now, boolean withNotes) {
        if (now.isEmpty()) {
            return withNotes && notes.owed();
        }
        return now.get().files() != localVersion || withNotes && notes.stale(now.get().notes());
    }

    /**
     * {@inheritDoc}
     *
     * <p>Stores the note as pending in the database at once, so every server's tools and whichever
     * server consolidates next see it. If the database cannot be reached, the note stays local and a
     * later {@link #refresh()} stores it (logged).
     */
    @Override
    public synchronized boolean noteAdded(Path note) {
        Objects.requireNonNull(note, "note");
        try {
            String path = local.relativePath(note);
            if (!LocalFiles.isNote(path)) {
                throw new IllegalArgumentException("an ad-hoc note must be under " + local.root().resolve(
                        LocalFiles.NOTES) + ", was " + note);
            }
            byte[] content = Files.readAllBytes(note);
            if (Arrays.equals(baseline.get(path), content)) {
                return true; // a commit took it while the tool was writing it
            }
            return notes.added(path, content);
        } catch (IOException e) {
            throw failure("store ad-hoc note " + note + " of tenant " + tenant + " from", e);
        }
    }

    /** {@inheritDoc} Drops it from the pending notes every server shares. */
    @Override
    public synchronized void noteRemoved(Path note) {
        Objects.requireNonNull(note, "note");
        try {
            String path = local.relativePath(note);
            if (!LocalFiles.isNote(path)) {
                throw new IllegalArgumentException("an ad-hoc note must be under " + local.root().resolve(
                        LocalFiles.NOTES) + ", was " + note);
            }
            notes.removed(path);
        } catch (IOException e) {
            throw failure("remove ad-hoc note " + note + " of tenant " + tenant + " from", e);
        }
    }

    @Override
    public synchronized WorkspaceDiff diff() {
        prepare();
        try {
            return compare(baseline, local.scan());
        } catch (IOException e) {
            throw failure("diff", e);
        }
    }

    /** The changes from {@code before} to {@code after}, sorted by path, with their patch. */
    private static WorkspaceDiff compare(SortedMap<String, byte[]> before, SortedMap<String, byte[]> after) {
        List<Change> changes = new ArrayList<>();
        UnifiedDiff patch = new UnifiedDiff();
        for (String path : union(before, after)) {
            byte[] old = before.get(path);
            byte[] now = after.get(path);
            Status status = old == null ? Status.A : now == null ? Status.D : Arrays.equals(old, now) ? null : Status.M;
            if (status != null) {
                changes.add(new Change(status, path));
                patch.append(status, path, old == null ? new byte[0] : old, now == null ? new byte[0] : now);
            }
        }
        return new WorkspaceDiff(changes, patch.text());
    }

    @Override
    public synchronized Consolidation commit(ConsolidationRecord record, int retention) {
        Objects.requireNonNull(record, "record");
        if (retention < 0) {
            throw new IllegalArgumentException("retention must not be negative, was " + retention);
        }
        prepare(false); // notes added since the diff stay pending for the next consolidation
        try {
            SortedMap<String, byte[]> files = local.scan();
            List<String> taken = notes.takenBy(files);
            long version = change("commit consolidation " + record.id(), tx -> {
                WorkspaceRows.replaceBaseline(tx, files);
                tx.update("notes.delete", tx.textArray(taken));
                if (retention == 0) {
                    tx.update("history.deleteAll");
                } else {
                    WorkspaceRows.insertEntry(tx, record, null, files);
                    tx.update("history.trim", retention);
                }
            });
            baseline = files;
            localVersion = version;
            notes.committed(files);
            LOG.info("committed consolidation {} ({} memories, {} ad-hoc notes taken) of tenant {}", record.id(),
                    record.selected().size(), taken.size(), tenant);
            return WorkspaceRows.summary(record);
        } catch (IOException e) {
            throw failure("commit consolidation " + record.id() + " to", e);
        }
    }

    @Override
    public synchronized List<Consolidation> history() {
        return database.readSnapshot(tenant, SQL, "read the consolidation history",
                tx -> tx.query("history.all", row -> WorkspaceRows.summary(WorkspaceRows.record(row))));
    }

    /**
     * {@inheritDoc}
     *
     * <p>The new entry has a fresh id, the restored selection and model, and zero token usage.
     */
    @Override
    public synchronized ConsolidationRecord rollback(String id) {
        Objects.requireNonNull(id, "id");
        prepare();
        SortedMap<String, byte[]> files = new TreeMap<>();
        Restored[] restored = new Restored[1];
        long version = change("roll back to consolidation " + id, tx -> {
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
            adopt(new Snapshot(version, files, restored[0].notesVersion(), restored[0].pending()));
        } catch (IOException e) {
            throw failure("restore the files of consolidation " + id + " in", e);
        }
        LOG.info("restored the memory files of consolidation {} for tenant {}", id, tenant);
        return restored[0].record();
    }

    /** What a rollback's transaction read: the restored record, and the pending notes with their version. */
    private record Restored(ConsolidationRecord record, SortedMap<String, byte[]> pending, long notesVersion) {
    }

    /**
     * {@inheritDoc}
     *
     * <p>One transaction: the entries go (their files with them), the baseline becomes the
     * remaining entry's files outside {@code extensions/} plus the current baseline's
     * {@code extensions/}, and the version moves on, so every server's next refresh rewrites its
     * local files. A leftover {@code phase2_workspace_diff.md} is deleted here (it may quote the
     * dropped files); the dead row versions are vacuumed in the background.
     */
    @Override
    public synchronized Optional<ConsolidationRecord> dropHistoryFrom(String id) {
        Objects.requireNonNull(id, "id");
        boolean withNotes = phase2Lock.held().isEmpty(); // as refresh(): our consolidation's notes stay as shown
        prepare(withNotes);
        WorkspaceRows.Drop[] drop = new WorkspaceRows.Drop[1];
        PendingNotes[] notesRead = new PendingNotes[1];
        long version = change("drop consolidation " + id + " and every newer one", tx -> {
            drop[0] = WorkspaceRows.dropFrom(tx, id).orElseThrow(() -> unknownEntry(id));
            notesRead[0] = new PendingNotes(SharedNotes.pendingNotes(tx),
                    tx.first("workspace.versions", row -> row.getLong(2)).orElseThrow());
        });
        try {
            adopt(new Snapshot(version, drop[0].baseline(), notesRead[0].version(),
                    withNotes ? notesRead[0].notes() : null));
            local.deleteDiffFile();
        } catch (IOException e) {
            throw failure("drop consolidation " + id + " from the files of", e);
        }
        vacuumIfDeleted(drop[0].deletedRows(), "dropping consolidation " + id + " and newer ones");
        LOG.info("dropped consolidation {} and every newer one of tenant {}; the memory files are {}", id, tenant,
                drop[0].restored().map(record -> "restored to consolidation " + record.id())
                        .orElse("removed (no consolidation remains)"));
        return drop[0].restored();
    }

    /** The pending notes and their version, as a transaction read them. */
    private record PendingNotes(SortedMap<String, byte[]> notes, long version) {
    }

    /**
     * {@inheritDoc}
     *
     * <p>Entry {@code id}'s files against the next older kept entry's, read in one snapshot; the
     * oldest kept entry against no files.
     */
    @Override
    public synchronized String consolidationDiff(String id) {
        Objects.requireNonNull(id, "id");
        return database.readSnapshot(tenant, SQL, "diff consolidation " + id, tx -> {
            List<WorkspaceRows.Entry> entries = WorkspaceRows.entries(tx);
            int index = indexOf(entries, id);
            SortedMap<String, byte[]> before = index + 1 < entries.size()
                    ? WorkspaceRows.entryFiles(tx, entries.get(index + 1).seq()) : new TreeMap<>();
            return compare(before, WorkspaceRows.entryFiles(tx, entries.get(index).seq())).unifiedDiff();
        });
    }

    @Override
    public synchronized void squashHistory() {
        try {
            local.createRoot();
            SortedMap<String, byte[]> files = local.scan();
            List<String> taken = notes.takenBy(files);
            int[] deleted = new int[1];
            long version = change("squash the consolidation history", tx -> {
                deleted[0] = tx.update("history.deleteAll") + WorkspaceRows.replaceBaseline(tx, files)
                        + tx.update("notes.delete", tx.textArray(taken));
            });
            baseline = files;
            localVersion = version;
            notes.committed(files);
            vacuumIfDeleted(deleted[0], "squashing the history");
            LOG.info("squashed the memory history of tenant {} to one baseline", tenant);
        } catch (IOException e) {
            throw failure("squash the history in", e);
        }
    }

    @Override
    public synchronized void clear() {
        int[] deleted = new int[1];
        long version = change("clear the memory files", tx -> {
            deleted[0] = tx.update("history.deleteAll") + tx.update("files.deleteAll") + tx.update("notes.deleteAll");
        });
        try {
            local.deleteEverything();
            local.createRoot();
        } catch (IOException e) {
            throw failure("clear", e);
        }
        baseline = new TreeMap<>();
        localVersion = version;
        notes.cleared();
        vacuumIfDeleted(deleted[0], "clearing the memory files");
        LOG.info("cleared every memory file, ad-hoc note and the history of tenant {}", tenant);
    }

    /** The database copy belongs to every server; this one keeps nothing open. */
    @Override
    public void close() {
        LOG.debug("closed the memory workspace of tenant {} at {}", tenant, local.root());
    }

    @Override
    public String toString() {
        return "PostgresMemoryWorkspace[schema " + database.schema() + ", tenant " + tenant + ", " + local.root() + "]";
    }

    // ---- helpers ----------------------------------------------------------------------------------

    /** Changes made in one transaction that holds the workspace row. */
    @FunctionalInterface
    private interface Mutation {
        void apply(Tx tx) throws SQLException;
    }

    /**
     * Runs {@code work} in one transaction: the workspace row locked (created if missing), the
     * local copy still current, the Phase 2 lock ours or nobody's; then the version moves on.
     *
     * @return the new version
     */
    private long change(String what, Mutation work) {
        return database.write(tenant, SQL, what, tx -> {
            tx.update("workspace.create");
            long version = tx.first("workspace.lock", row -> row.getLong(1)).orElseThrow();
            if (localVersion >= 0 && version != localVersion) {
                throw new MemoryWorkspaceException("cannot " + what + " for tenant " + tenant + ": another server"
                        + " changed the memory files (version " + version + ", this server has " + localVersion + ")");
            }
            requireLockOwner(tx, what);
            work.apply(tx);
            return tx.first("workspace.bump", row -> row.getLong(1)).orElseThrow();
        });
    }

    private void requireLockOwner(Tx tx, String what) throws SQLException {
        List<Optional<String>> running = tx.query("phase2.runningToken",
                row -> Optional.ofNullable(row.getString(1)));
        Optional<String> held = phase2Lock.held();
        if (held.isPresent() ? !running.contains(held) : !running.isEmpty()) {
            throw new MemoryWorkspaceException("cannot " + what + " for tenant " + tenant + ": "
                    + (held.isPresent() ? "this server no longer holds the Phase 2 lock"
                            : "a consolidation holds the Phase 2 lock"));
        }
    }

    /** Where in {@code entries} the kept consolidation {@code id} is. */
    private int indexOf(List<WorkspaceRows.Entry> entries, String id) {
        int index = WorkspaceRows.indexOf(entries, id);
        if (index < 0) {
            throw unknownEntry(id);
        }
        return index;
    }

    private IllegalArgumentException unknownEntry(String id) {
        return new IllegalArgumentException("no kept consolidation has id '" + id + "' for tenant " + tenant);
    }

    /** Vacuums the workspace tables in the background when a forget deleted rows. */
    private void vacuumIfDeleted(int deletedRows, String what) {
        if (deletedRows > 0) {
            database.vacuumLater(FORGET_TABLES, what + " of tenant " + tenant);
        }
    }

    /** Rewrites the local files from {@code snapshot}; the notes too when it holds them. */
    private void adopt(Snapshot snapshot) throws IOException {
        if (snapshot.version() != localVersion) {
            local.materialize(snapshot.files());
        }
        baseline = snapshot.files();
        localVersion = snapshot.version();
        if (snapshot.pending() != null) {
            notes.sync(snapshot.pending(), snapshot.files(), snapshot.notesVersion());
        }
    }

    private static Set<String> union(SortedMap<String, byte[]> a, SortedMap<String, byte[]> b) {
        Set<String> all = new TreeSet<>(a.keySet());
        all.addAll(b.keySet());
        return all;
    }

    private MemoryWorkspaceException failure(String action, IOException cause) {
        return new MemoryWorkspaceException("cannot " + action + " " + local.root() + ": " + cause.getMessage(), cause);
    }
}
