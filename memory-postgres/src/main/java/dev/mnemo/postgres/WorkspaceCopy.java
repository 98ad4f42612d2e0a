package dev.mnemo.postgres;

import dev.mnemo.MemoryStoreException;
import dev.mnemo.MemoryWorkspaceException;
import dev.mnemo.spi.WorkspaceDiff;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This server's copy of one tenant's memory files, for {@link PostgresMemoryWorkspace}: the
 * baseline its local folder was materialised from and that baseline's version, kept in step with
 * the database (prepare, refresh, the ad-hoc notes the tools add or remove) and the guard every
 * change of the files passes ({@link #change}: the workspace row locked, the copy still current,
 * the Phase 2 lock ours or nobody's). Not thread-safe on its own: every call comes from a
 * {@code synchronized} method of the workspace. Logs under the workspace's name.
 */
final class WorkspaceCopy {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresMemoryWorkspace.class);
    private static final List<String> FORGET_TABLES = List.of("tenant_workspace_files", "tenant_consolidation_files",
            "tenant_consolidations", "tenant_pending_notes");

    /** Changes made in one transaction that holds the workspace row. */
    @FunctionalInterface
    interface Mutation {
        void apply(Tx tx) throws SQLException;
    }

    /** The two counters of the workspace row: the memory files' version and the pending notes' version. */
    private record Versions(long files, long notes) {
    }

    /**
     * A database version with the files it stands for, and the pending notes as of
     * {@code notesVersion} ({@code null}: not read).
     */
    record Snapshot(long version, SortedMap<String, byte[]> files, long notesVersion,
            SortedMap<String, byte[]> pending) {
    }

    private final TenantDatabase database;
    private final String tenant;
    private final LocalFiles local;
    private final Phase2Lock phase2Lock;
    private final SharedNotes notes;
    /** The baseline this server's local files were materialised from, and its version (-1: none yet). */
    private SortedMap<String, byte[]> baseline = new TreeMap<>();
    private long localVersion = -1;

    WorkspaceCopy(TenantDatabase database, String tenant, LocalFiles local, Phase2Lock phase2Lock,
            SharedNotes notes) {
        this.database = database;
        this.tenant = tenant;
        this.local = local;
        this.phase2Lock = phase2Lock;
        this.notes = notes;
    }

    LocalFiles local() {
        return local;
    }

    SharedNotes notes() {
        return notes;
    }

    String tenant() {
        return tenant;
    }

    /** Whether this server's own consolidation holds no Phase 2 lock, so newly added notes may be taken in. */
    boolean withNotes() {
        return phase2Lock.held().isEmpty();
    }

    /** Creates the root and the workspace row (the first server's files become the baseline), then catches up. */
    void prepare(boolean withNotes) {
        try {
            local.createRoot();
            SortedMap<String, byte[]> here = local.scan();
            boolean created = write("prepare the memory workspace", tx -> {
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

    /** See {@link PostgresMemoryWorkspace#refresh()}. */
    void refresh() {
        try {
            boolean withNotes = withNotes();
            if (localVersion < 0) {
                local.createRoot(); // the tools may add a note before anything was materialised here
            } else if (!behind(database.readFirst(tenant, PostgresMemoryWorkspace.SQL, "workspace.versions",
                    "check the memory files version", row -> new Versions(row.getLong(1), row.getLong(2))),
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
        return read("check the memory files for changes", tx -> {
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

    /** See {@link PostgresMemoryWorkspace#noteAdded(Path)}. */
    boolean noteAdded(Path note) {
        Objects.requireNonNull(note, "note");
        try {
            String path = notePath(note);
            byte[] content = Files.readAllBytes(note);
            if (Arrays.equals(baseline.get(path), content)) {
                return true; // a commit took it while the tool was writing it
            }
            return notes.added(path, content);
        } catch (IOException e) {
            throw failure("store ad-hoc note " + note + " of tenant " + tenant + " from", e);
        }
    }

    /** See {@link PostgresMemoryWorkspace#noteRemoved(Path)}. */
    void noteRemoved(Path note) {
        Objects.requireNonNull(note, "note");
        try {
            notes.removed(notePath(note));
        } catch (IOException e) {
            throw failure("remove ad-hoc note " + note + " of tenant " + tenant + " from", e);
        }
    }

    /** The path of {@code note} under the root, which must be an ad-hoc note's. */
    private String notePath(Path note) throws IOException {
        String path = local.relativePath(note);
        if (!LocalFiles.isNote(path)) {
            throw new IllegalArgumentException("an ad-hoc note must be under " + local.root().resolve(
                    LocalFiles.NOTES) + ", was " + note);
        }
        return path;
    }

    /** The local files against the baseline, after catching up. */
    WorkspaceDiff diff() {
        prepare(true);
        try {
            return UnifiedDiff.compare(baseline, local.scan());
        } catch (IOException e) {
            throw failure("diff", e);
        }
    }

    /**
     * Runs {@code work} in one transaction: the workspace row locked (created if missing), the
     * local copy still current, the Phase 2 lock ours or nobody's; then the version moves on.
     *
     * @return the new version
     */
    long change(String what, Mutation work) {
        return write(what, tx -> {
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

    /** Rewrites the local files from {@code snapshot}; the notes too when it holds them. */
    void adopt(Snapshot snapshot) throws IOException {
        if (snapshot.version() != localVersion) {
            local.materialize(snapshot.files());
        }
        baseline = snapshot.files();
        localVersion = snapshot.version();
        if (snapshot.pending() != null) {
            notes.sync(snapshot.pending(), snapshot.files(), snapshot.notesVersion());
        }
    }

    /** After a commit or squash wrote {@code files} as version {@code version}: they are the baseline now. */
    void committed(SortedMap<String, byte[]> files, long version) throws IOException {
        baseline = files;
        localVersion = version;
        notes.committed(files);
    }

    /** After a clear moved the version to {@code version}: no files, no notes. */
    void cleared(long version) {
        baseline = new TreeMap<>();
        localVersion = version;
        notes.cleared();
    }

    /** Vacuums the workspace tables in the background when a forget deleted rows. */
    void vacuumIfDeleted(int deletedRows, String what) {
        if (deletedRows > 0) {
            database.vacuumLater(FORGET_TABLES, what + " of tenant " + tenant);
        }
    }

    /** One read-committed transaction of this tenant over {@code workspace.sql}, committing on success. */
    private <T> T write(String what, TenantDatabase.Work<T> work) {
        return database.write(tenant, PostgresMemoryWorkspace.SQL, what, work);
    }

    /** A read-committed read (not a snapshot): the version checks are single statements on a hot path. */
    private <T> T read(String what, TenantDatabase.Work<T> work) {
        return database.read(tenant, PostgresMemoryWorkspace.SQL, what, work);
    }

    MemoryWorkspaceException failure(String action, IOException cause) {
        return new MemoryWorkspaceException("cannot " + action + " " + local.root() + ": " + cause.getMessage(), cause);
    }
}
