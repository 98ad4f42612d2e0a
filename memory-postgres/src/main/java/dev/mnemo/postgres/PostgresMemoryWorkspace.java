package dev.mnemo.postgres;

import dev.mnemo.Consolidation;
import dev.mnemo.spi.ConsolidationRecord;
import dev.mnemo.spi.MemoryWorkspace;
import dev.mnemo.spi.WorkspaceDiff;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
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
 *
 * <p>This class keeps the public surface and the one monitor every method holds; the work is done by
 * {@link WorkspaceCopy} (this server's copy and the guard of every change), {@link WorkspaceHistory}
 * (commits, kept consolidations, rollback) and {@link ForgetRestore} (dropping history for a forget).
 */
final class PostgresMemoryWorkspace implements MemoryWorkspace {

    static final SqlStatements SQL = SqlStatements.load("sql/workspace.sql");

    private static final Logger LOG = LoggerFactory.getLogger(PostgresMemoryWorkspace.class);

    private final TenantDatabase database;
    private final String tenant;
    private final WorkspaceCopy copy;
    private final WorkspaceHistory consolidations;
    private final ForgetRestore forgetRestore;

    PostgresMemoryWorkspace(TenantDatabase database, String tenant, Path root, Phase2Lock phase2Lock, Clock clock) {
        this.database = database;
        this.tenant = tenant;
        LocalFiles local = new LocalFiles(root.toAbsolutePath().normalize());
        SharedNotes notes = new SharedNotes(database, tenant, local, clock);
        this.copy = new WorkspaceCopy(database, tenant, local, phase2Lock, notes);
        this.consolidations = new WorkspaceHistory(database, copy, clock);
        this.forgetRestore = new ForgetRestore(copy);
    }

    @Override
    public Path root() {
        return copy.local().root();
    }

    @Override
    public synchronized void prepare() {
        copy.prepare(true);
    }

    /**
     * Brings the local files up to date with the database: one primary-key read of the two
     * versions, then the files and notes only when another server changed them (or a note still
     * waits to be stored). The first refresh, which always needs them, reads them at once. A
     * database failure leaves the local copy as it is (logged).
     */
    @Override
    public synchronized void refresh() {
        copy.refresh();
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
        return copy.noteAdded(note);
    }

    /** {@inheritDoc} Drops it from the pending notes every server shares. */
    @Override
    public synchronized void noteRemoved(Path note) {
        copy.noteRemoved(note);
    }

    @Override
    public synchronized WorkspaceDiff diff() {
        return copy.diff();
    }

    @Override
    public synchronized Consolidation commit(ConsolidationRecord record, int retention) {
        return consolidations.commit(record, retention);
    }

    @Override
    public synchronized List<Consolidation> history() {
        return consolidations.history();
    }

    /**
     * {@inheritDoc}
     *
     * <p>The new entry has a fresh id, the restored selection and model, and zero token usage.
     */
    @Override
    public synchronized ConsolidationRecord rollback(String id) {
        return consolidations.rollback(id);
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
        return forgetRestore.dropHistoryFrom(id);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Entry {@code id}'s files against the next older kept entry's, read in one snapshot; the
     * oldest kept entry against no files.
     */
    @Override
    public synchronized String consolidationDiff(String id) {
        return consolidations.consolidationDiff(id);
    }

    @Override
    public synchronized void squashHistory() {
        consolidations.squashHistory();
    }

    @Override
    public synchronized void clear() {
        consolidations.clear();
    }

    /** The database copy belongs to every server; this one keeps nothing open. */
    @Override
    public void close() {
        LOG.debug("closed the memory workspace of tenant {} at {}", tenant, root());
    }

    @Override
    public String toString() {
        return "PostgresMemoryWorkspace[schema " + database.schema() + ", tenant " + tenant + ", " + root() + "]";
    }
}
