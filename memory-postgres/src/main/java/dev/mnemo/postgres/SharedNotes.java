package dev.mnemo.postgres;

import dev.mnemo.MemoryStoreException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ad-hoc notes of one tenant as this server shares them with the others: a note the memory
 * tools add here is stored at once in {@code pending_notes} (never overwriting another note), and
 * the notes other servers added are written into the local folder, until a consolidation takes them
 * into the baseline and deletes them from {@code pending_notes}.
 *
 * <p>A local note is deleted only when the database once had it (pending or in the baseline) and
 * has it no more: another server consolidated it, or the memory was cleared. A local note the
 * database never had (written while it was unreachable, or by a tool call right now) is published
 * instead. What the database had is remembered in a hidden file of the local folder, so a server
 * restarting on an old cache neither revives a consolidated note nor loses an unpublished one.
 *
 * <p>Not thread-safe: {@link PostgresMemoryWorkspace} calls it under its own lock.
 */
final class SharedNotes {

    /** Under the memory root, hidden (never a memory file): the note paths the database has had. */
    static final String KNOWN_FILE = ".mnemo-shared-notes";

    private static final Logger LOG = LoggerFactory.getLogger(SharedNotes.class);

    /** What storing a note found. */
    enum Stored {
        /** Stored now. */
        ADDED,
        /** The database already had this note, byte for byte. */
        ALREADY_THERE,
        /** Another server stored a different note with the same path first. */
        TAKEN
    }

    private record Publication(Stored outcome, byte[] stored, long notesVersion) {
    }

    private final TenantDatabase database;
    private final String tenant;
    private final LocalFiles local;
    private final Clock clock;
    /** The notes version the local notes reflect (-1: never read). */
    private long seenVersion = -1;
    /** The pending notes this server knows the database has (materialised or published here). */
    private final Set<String> pending = new TreeSet<>();
    /** Every note path the database has had as far as this server knows; loaded from {@link #KNOWN_FILE}. */
    private Set<String> known;
    /** A publication failed: the next refresh looks for local notes to publish. */
    private boolean unpublished;

    SharedNotes(TenantDatabase database, String tenant, LocalFiles local, Clock clock) {
        this.database = database;
        this.tenant = tenant;
        this.local = local;
        this.clock = clock;
    }

    /** Whether a refresh must sync the notes: another server added some, or a publication is owed. */
    boolean stale(long notesVersion) {
        return notesVersion != seenVersion || unpublished;
    }

    /** The notes version the local notes reflect (-1: never read). */
    long seenVersion() {
        return seenVersion;
    }

    /** Whether a note of this server failed to be stored and waits for a refresh. */
    boolean owed() {
        return unpublished;
    }

    static SortedMap<String, byte[]> pendingNotes(Tx tx) throws SQLException {
        SortedMap<String, byte[]> notes = new TreeMap<>();
        tx.query("notes.all", row -> notes.put(row.getString(1), row.getBytes(2)));
        return notes;
    }

    /**
     * Brings the local notes in line with the database as of {@code notesVersion}: pending notes
     * written here, notes the database had and lost deleted, notes it never had published.
     *
     * @param files the baseline the local files were just materialised from
     */
    void sync(SortedMap<String, byte[]> pendingNow, SortedMap<String, byte[]> files, long notesVersion)
            throws IOException {
        Set<String> knownBefore = known();
        SortedMap<String, byte[]> here = local.scanNotes();
        for (Map.Entry<String, byte[]> note : pendingNow.entrySet()) {
            byte[] mine = here.get(note.getKey());
            if (mine != null && !Arrays.equals(mine, note.getValue())) {
                LOG.warn("ad-hoc note {} of tenant {} was added with other content on another server first;"
                        + " keeping that one", note.getKey(), tenant);
            }
            if (mine == null || !Arrays.equals(mine, note.getValue())) {
                local.write(note.getKey(), note.getValue());
                here.put(note.getKey(), note.getValue());
            }
        }
        List<String> toPublish = new ArrayList<>();
        for (String path : here.keySet()) {
            if (pendingNow.containsKey(path) || files.containsKey(path)) {
                continue;
            }
            if (knownBefore.contains(path)) {
                local.delete(path);
                LOG.info("removed ad-hoc note {} of tenant {} locally: consolidated or cleared on another server",
                        path, tenant);
            } else {
                toPublish.add(path);
            }
        }
        pending.clear();
        pending.addAll(pendingNow.keySet());
        Set<String> knownNow = new TreeSet<>(pendingNow.keySet());
        files.keySet().stream().filter(LocalFiles::isNote).forEach(knownNow::add);
        known = knownNow;
        seenVersion = notesVersion;
        unpublished = false;
        for (String path : toPublish) {
            LOG.info("publishing ad-hoc note {} of tenant {}, which the database did not have yet", path, tenant);
            tryPublish(path, here.get(path));
        }
        saveKnown(knownBefore);
    }

    /**
     * Stores a note the tools just wrote. The database being unreachable is logged and the note kept
     * locally for a later sync.
     *
     * @return {@code false} when another server stored a different note with that path first (the
     *     local file now holds that one)
     */
    boolean added(String path, byte[] content) throws IOException {
        Set<String> before = Set.copyOf(known());
        Stored outcome = tryPublish(path, content);
        saveKnown(before);
        return outcome != Stored.TAKEN;
    }

    /** Stores one local note; {@code null} when the database could not be reached. */
    private Stored tryPublish(String path, byte[] content) throws IOException {
        Publication publication;
        try {
            publication = publish(path, content);
        } catch (MemoryStoreException e) {
            unpublished = true;
            LOG.warn("could not store ad-hoc note {} of tenant {} in the database; kept locally, stored on a later"
                    + " refresh: {}", path, tenant, e.getMessage());
            return null;
        }
        pending.add(path);
        known().add(path);
        if (publication.outcome() == Stored.ADDED && publication.notesVersion() == seenVersion + 1) {
            seenVersion = publication.notesVersion(); // no other server added a note since this one last looked
        }
        if (publication.outcome() == Stored.TAKEN) {
            LOG.warn("ad-hoc note {} of tenant {} was added with other content on another server first; keeping"
                    + " that one", path, tenant);
            local.write(path, publication.stored());
        } else {
            LOG.debug("stored ad-hoc note {} of tenant {} ({})", path, tenant, publication.outcome());
        }
        return publication.outcome();
    }

    private Publication publish(String path, byte[] content) {
        return database.write(tenant, PostgresMemoryWorkspace.SQL, "store ad-hoc note " + path, tx -> {
            tx.update("workspace.create"); // the notes version lives on the workspace row
            if (tx.update("notes.insert", path, content, clock.millis()) > 0) {
                return new Publication(Stored.ADDED, content,
                        tx.first("workspace.bumpNotes", row -> row.getLong(1)).orElseThrow());
            }
            byte[] stored = tx.first("notes.content", row -> row.getBytes(1), path).orElse(content);
            return new Publication(Arrays.equals(stored, content) ? Stored.ALREADY_THERE : Stored.TAKEN, stored,
                    seenVersion);
        });
    }

    /**
     * Drops a note the engine deleted locally (its conversation was forgotten) from the pending
     * notes, so every other server's next refresh deletes its copy too (it knew the note, and the
     * database has it no more). A note already in the baseline leaves it with the next commit.
     */
    void removed(String path) {
        long version = database.write(tenant, PostgresMemoryWorkspace.SQL, "remove ad-hoc note " + path, tx -> {
            if (tx.update("notes.delete", tx.textArray(List.of(path))) == 0) {
                return -1L;
            }
            return tx.first("workspace.bumpNotes", row -> row.getLong(1)).orElseThrow();
        });
        pending.remove(path);
        if (version >= 0 && version == seenVersion + 1) {
            seenVersion = version; // no other server changed the notes since this one last looked
        }
        LOG.info("removed ad-hoc note {} of tenant {}: its conversation was forgotten", path, tenant);
    }

    /** The pending notes a commit of {@code files} takes: the ones this server had, and every local note. */
    List<String> takenBy(SortedMap<String, byte[]> files) {
        Set<String> taken = new TreeSet<>(pending);
        files.keySet().stream().filter(LocalFiles::isNote).forEach(taken::add);
        return List.copyOf(taken);
    }

    /** After a commit (or squash) of {@code files}: the notes it took are pending no more. */
    void committed(SortedMap<String, byte[]> files) throws IOException {
        Set<String> before = Set.copyOf(known());
        pending.clear();
        known().clear();
        files.keySet().stream().filter(LocalFiles::isNote).forEach(known::add);
        unpublished = false;
        saveKnown(before);
    }

    /** After a clear: no note anywhere (the local folder, the known file included, is already empty). */
    void cleared() {
        pending.clear();
        known = new TreeSet<>();
        unpublished = false;
    }

    private Set<String> known() throws IOException {
        if (known == null) {
            Path file = local.root().resolve(KNOWN_FILE);
            known = new TreeSet<>();
            if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(line -> !line.isBlank())
                        .forEach(known::add);
            }
        }
        return known;
    }

    /** Rewrites the known file when the set changed; failing to is logged (the file is a cache too). */
    private void saveKnown(Set<String> before) {
        if (known.equals(before)) {
            return;
        }
        try {
            local.createRoot();
            Path temp = Files.createTempFile(local.root(), ".mnemo-", ".tmp");
            Files.write(temp, known, StandardCharsets.UTF_8);
            Files.move(temp, local.root().resolve(KNOWN_FILE), StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            LOG.warn("could not record the shared ad-hoc notes of tenant {} in {}: {}", tenant, local.root(),
                    e.getMessage());
        }
    }
}
