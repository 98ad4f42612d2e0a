package dev.mnemo.postgres;

import dev.mnemo.Consolidation;
import dev.mnemo.MemoryStoreException;
import dev.mnemo.MemoryWorkspaceException;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationRecord;
import dev.mnemo.spi.MemoryWorkspace;
import dev.mnemo.spi.SelectedInput;
import dev.mnemo.spi.WorkspaceDiff;
import dev.mnemo.spi.WorkspaceDiff.Change;
import dev.mnemo.spi.WorkspaceDiff.Status;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
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
 * {@code jobs} row in the same transaction). {@link #refresh()} compares one version number and
 * rewrites the local files only when another server committed. Paths with a segment starting with
 * {@code .} and the top-level {@code phase2_workspace_diff.md} are never part of the files.
 */
final class PostgresMemoryWorkspace implements MemoryWorkspace {

    static final SqlStatements SQL = SqlStatements.load("sql/workspace.sql");

    private static final Logger LOG = LoggerFactory.getLogger(PostgresMemoryWorkspace.class);
    private static final List<String> FORGET_TABLES = List.of("tenant_workspace_files", "tenant_consolidation_files",
            "tenant_consolidations");

    private final TenantDatabase database;
    private final String tenant;
    private final LocalFiles local;
    private final Phase2Lock phase2Lock;
    private final Clock clock;
    /** The baseline this server's local files were materialised from, and its version (-1: none yet). */
    private SortedMap<String, byte[]> baseline = new TreeMap<>();
    private long localVersion = -1;

    PostgresMemoryWorkspace(TenantDatabase database, String tenant, Path root, Phase2Lock phase2Lock, Clock clock) {
        this.database = database;
        this.tenant = tenant;
        this.local = new LocalFiles(root.toAbsolutePath().normalize());
        this.phase2Lock = phase2Lock;
        this.clock = clock;
    }

    @Override
    public Path root() {
        return local.root();
    }

    /** A database version with the files it stands for. */
    private record Snapshot(long version, SortedMap<String, byte[]> files) {
    }

    @Override
    public synchronized void prepare() {
        try {
            local.createRoot();
            SortedMap<String, byte[]> here = local.scan();
            Snapshot snapshot = database.write(tenant, SQL, "prepare the memory workspace", tx -> {
                if (tx.update("workspace.create") > 0) { // the first server takes its files as the baseline
                    insertFiles(tx, "files.insert", null, here);
                    return new Snapshot(1, here);
                }
                long version = tx.queryLong("workspace.version");
                return version == localVersion ? new Snapshot(version, baseline) : new Snapshot(version, files(tx));
            });
            if (snapshot.version() != localVersion) {
                adopt(snapshot, false);
            }
        } catch (IOException e) {
            throw failure("prepare", e);
        }
    }

    /**
     * Brings the local files up to date with the database: one version read, and the files only when
     * another server changed them. A database failure leaves the local copy as it is (logged).
     */
    @Override
    public synchronized void refresh() {
        try {
            // Read committed: the version and, when it moved, the files (a newer commit between the two
            // reads only means the next refresh fetches again).
            Optional<Snapshot> snapshot = database.read(tenant, SQL, "check the memory files version", tx -> {
                Optional<Long> version = tx.first("workspace.version", row -> row.getLong(1));
                if (version.isEmpty() || version.get() == localVersion) {
                    return Optional.empty();
                }
                return Optional.of(new Snapshot(version.get(), files(tx)));
            });
            if (snapshot.isPresent()) {
                adopt(snapshot.get(), true);
                LOG.debug("memory files of tenant {} refreshed to version {}", tenant, localVersion);
            }
        } catch (MemoryStoreException e) {
            LOG.warn("could not check the memory files of tenant {} for changes; serving the local copy: {}", tenant,
                    e.getMessage());
        } catch (IOException e) {
            throw failure("refresh", e);
        }
    }

    @Override
    public synchronized WorkspaceDiff diff() {
        prepare();
        try {
            SortedMap<String, byte[]> now = local.scan();
            List<Change> changes = new ArrayList<>();
            UnifiedDiff patch = new UnifiedDiff();
            for (String path : union(baseline, now)) {
                byte[] before = baseline.get(path);
                byte[] after = now.get(path);
                Status status = before == null ? Status.A : after == null ? Status.D
                        : Arrays.equals(before, after) ? null : Status.M;
                if (status != null) {
                    changes.add(new Change(status, path));
                    patch.append(status, path, before == null ? new byte[0] : before, after == null ? new byte[0] : after);
                }
            }
            return new WorkspaceDiff(changes, patch.text());
        } catch (IOException e) {
            throw failure("diff", e);
        }
    }

    @Override
    public synchronized Consolidation commit(ConsolidationRecord record, int retention) {
        Objects.requireNonNull(record, "record");
        if (retention < 0) {
            throw new IllegalArgumentException("retention must not be negative, was " + retention);
        }
        prepare();
        try {
            SortedMap<String, byte[]> files = local.scan();
            long version = change("commit consolidation " + record.id(), tx -> {
                replaceBaseline(tx, files);
                if (retention == 0) {
                    tx.update("history.deleteAll");
                } else {
                    insertEntry(tx, record, null, files);
                    tx.update("history.trim", retention);
                }
            });
            baseline = files;
            localVersion = version;
            LOG.info("committed consolidation {} ({} memories) of tenant {}", record.id(), record.selected().size(),
                    tenant);
            return summary(record);
        } catch (IOException e) {
            throw failure("commit consolidation " + record.id() + " to", e);
        }
    }

    @Override
    public synchronized List<Consolidation> history() {
        return database.readSnapshot(tenant, SQL, "read the consolidation history",
                tx -> tx.query("history.all", row -> summary(record(row))));
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
        ConsolidationRecord[] restored = new ConsolidationRecord[1];
        SortedMap<String, byte[]> files = new TreeMap<>();
        long version = change("roll back to consolidation " + id, tx -> {
            long seq = tx.query("history.all", row -> row.getString("id").equals(id) ? row.getLong("seq") : null)
                    .stream().filter(Objects::nonNull).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no kept consolidation has id '" + id
                            + "' for tenant " + tenant));
            restored[0] = tx.query("history.all", row -> row.getLong("seq") == seq ? record(row) : null).stream()
                    .filter(Objects::nonNull).findFirst().orElseThrow();
            tx.query("history.files", row -> files.put(row.getString(1), row.getBytes(2)), seq);
            replaceBaseline(tx, files);
            insertEntry(tx, new ConsolidationRecord(UUID.randomUUID().toString(), clock.instant(),
                    restored[0].selected(), restored[0].model(), TokenUsage.ZERO), id, files);
        });
        try {
            adopt(new Snapshot(version, files), false);
        } catch (IOException e) {
            throw failure("restore the files of consolidation " + id + " in", e);
        }
        LOG.info("restored the memory files of consolidation {} for tenant {}", id, tenant);
        return restored[0];
    }

    @Override
    public synchronized void squashHistory() {
        try {
            local.createRoot();
            SortedMap<String, byte[]> files = local.scan();
            long version = change("squash the consolidation history", tx -> {
                tx.update("history.deleteAll");
                replaceBaseline(tx, files);
            });
            baseline = files;
            localVersion = version;
            database.vacuum(FORGET_TABLES);
            LOG.info("squashed the memory history of tenant {} to one baseline", tenant);
        } catch (IOException e) {
            throw failure("squash the history in", e);
        }
    }

    @Override
    public synchronized void clear() {
        long version = change("clear the memory files", tx -> {
            tx.update("history.deleteAll");
            tx.update("files.deleteAll");
        });
        try {
            local.deleteEverything();
            local.createRoot();
        } catch (IOException e) {
            throw failure("clear", e);
        }
        baseline = new TreeMap<>();
        localVersion = version;
        database.vacuum(FORGET_TABLES);
        LOG.info("cleared every memory file and the history of tenant {}", tenant);
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

    private void adopt(Snapshot snapshot, boolean keepLocalNotes) throws IOException {
        local.materialize(snapshot.files(), keepLocalNotes);
        baseline = snapshot.files();
        localVersion = snapshot.version();
    }

    private static SortedMap<String, byte[]> files(Tx tx) throws SQLException {
        SortedMap<String, byte[]> files = new TreeMap<>();
        tx.query("files.all", row -> files.put(row.getString(1), row.getBytes(2)));
        return files;
    }

    private static void replaceBaseline(Tx tx, SortedMap<String, byte[]> files) throws SQLException {
        tx.update("files.deleteAll");
        insertFiles(tx, "files.insert", null, files);
    }

    private static void insertFiles(Tx tx, String key, Long seq, SortedMap<String, byte[]> files) throws SQLException {
        for (var file : files.entrySet()) {
            if (seq == null) {
                tx.update(key, file.getKey(), file.getValue());
            } else {
                tx.update(key, seq, file.getKey(), file.getValue());
            }
        }
    }

    private static void insertEntry(Tx tx, ConsolidationRecord record, String restores, SortedMap<String, byte[]> files)
            throws SQLException {
        TokenUsage usage = record.usage();
        long seq = tx.first("history.insert", row -> row.getLong(1), record.id(), record.at().getEpochSecond(),
                record.at().getNano(), record.model(), usage.inputTokens(), usage.cachedInputTokens(),
                usage.outputTokens(), usage.reasoningTokens(),
                tx.textArray(record.selected().stream().map(SelectedInput::threadId).toList()),
                tx.connection().createArrayOf("bigint", record.selected().stream()
                        .map(s -> s.sourceUpdatedAt().getEpochSecond()).toArray()),
                restores).orElseThrow();
        insertFiles(tx, "history.insertFile", seq, files);
    }

    private static ConsolidationRecord record(ResultSet row) throws SQLException {
        String[] threads = (String[]) row.getArray("thread_ids").getArray();
        Long[] versions = (Long[]) row.getArray("source_updated_at").getArray();
        List<SelectedInput> selected = new ArrayList<>();
        for (int i = 0; i < threads.length; i++) {
            selected.add(new SelectedInput(threads[i], Instant.ofEpochSecond(versions[i])));
        }
        return new ConsolidationRecord(row.getString("id"),
                Instant.ofEpochSecond(row.getLong("at_seconds"), row.getInt("at_nanos")), selected, row.getString("model"),
                new TokenUsage(row.getLong("input_tokens"), row.getLong("cached_input_tokens"),
                        row.getLong("output_tokens"), row.getLong("reasoning_tokens")));
    }

    private static Consolidation summary(ConsolidationRecord record) {
        return new Consolidation(record.id(), record.at(), record.selected().size(),
                record.selected().stream().map(SelectedInput::threadId).toList(), record.model());
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
