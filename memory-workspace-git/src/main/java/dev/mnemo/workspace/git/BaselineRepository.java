package dev.mnemo.workspace.git;

import dev.mnemo.workspace.git.WorkingFiles.FileState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.internal.storage.file.FileRepository;
import org.eclipse.jgit.internal.storage.file.GC;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.TreeWalk;

/**
 * The private repository at {@code <root>/.git}, driven through JGit's object and ref plumbing
 * only: no porcelain, no index file, no hooks, no signing, no attributes or ignore rules, so
 * nothing in the user's git configuration changes what is stored. The environment
 * ({@code GIT_DIR} and friends) is not read either.
 */
final class BaselineRepository implements AutoCloseable {

    static final String BRANCH = "main";
    static final String AUTHOR_NAME = "Mnemo";
    static final String AUTHOR_EMAIL = "mnemo@localhost";

    /** One commit on the first-parent chain from HEAD. */
    record HistoryCommit(ObjectId id, ObjectId tree, String message, Instant when) {}

    private final Path gitDir;
    private final Repository repository;
    private Clock wallClock = Clock.systemUTC();
    /** The HEAD last found usable, and the object folder's stamp when it was checked. */
    private ObjectId verifiedHead;
    private ObjectFolderStamp verifiedObjects;

    private BaselineRepository(Path gitDir, Repository repository) {
        this.gitDir = gitDir;
        this.repository = repository;
    }

    /** Opens an existing repository; it may still be unborn or broken (see {@link #isUsable()}). */
    static BaselineRepository open(Path gitDir) throws IOException {
        Repository repository = new FileRepositoryBuilder()
                .setGitDir(gitDir.toFile())
                .setMustExist(true)
                .build();
        BaselineRepository opened = new BaselineRepository(gitDir, repository);
        try {
            opened.pinConfig();
        } catch (IOException | RuntimeException e) {
            opened.close();
            throw e;
        }
        return opened;
    }

    /** Creates a new, empty repository whose HEAD is the unborn branch {@value #BRANCH}. */
    static BaselineRepository create(Path gitDir) throws IOException {
        Repository repository;
        try {
            repository = new FileRepositoryBuilder()
                    .setGitDir(gitDir.toFile())
                    .setInitialBranch(BRANCH)
                    .build();
        } catch (GitAPIException e) {
            throw new IOException("invalid initial branch " + BRANCH, e);
        }
        repository.create(false);
        BaselineRepository created = new BaselineRepository(gitDir, repository);
        created.pinConfig();
        return created;
    }

    /**
     * True when HEAD is a commit whose whole tree and every blob in it can be read.
     *
     * <p>Checking every blob is thousands of lookups, and every diff asks. So the answer for a HEAD
     * is kept with the stamp of the object folder taken just before the check
     * ({@link ObjectFolderStamp}); while HEAD and that stamp are unchanged no object can have
     * vanished, and the check is not repeated. A changed stamp (or none: a folder changed too
     * recently to trust) means a full check, the tree listed afresh and every blob looked up through
     * a fresh JGit handle (the long-lived one caches which loose objects exist).
     */
    boolean isUsable() {
        try {
            Optional<ObjectId> head = head();
            if (head.isEmpty()) {
                return false;
            }
            ObjectFolderStamp objects = ObjectFolderStamp.take(gitDir.resolve("objects"), wallClock.millis());
            if (objects != null && objects.sameAs(verifiedObjects) && head.get().equals(verifiedHead)) {
                return true;
            }
            verifiedHead = null;
            verifiedObjects = null;
            listedCommit = null; // an object may have gone: list the tree from the object store again
            // A fresh handle: JGit remembers loose objects it has seen and would still report a deleted one.
            try (Repository fresh = new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build()) {
                FileListing files = files(head.get());
                for (int i = 0; i < files.size(); i++) {
                    if (!fresh.getObjectDatabase().has(files.state(i).id())) {
                        return false;
                    }
                }
            }
            verifiedHead = head.get().copy();
            verifiedObjects = objects;
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** For tests: folder times are compared with {@code clock} instead of the system clock. */
    void useWallClock(Clock clock) {
        this.wallClock = clock;
    }

    /** The commit HEAD points at, empty while unborn. */
    Optional<ObjectId> head() throws IOException {
        return Optional.ofNullable(repository.resolve(Constants.HEAD + "^{commit}"));
    }

    /** The files of a commit's tree, in path order. */
    FileListing files(ObjectId commit) throws IOException {
        // A commit never changes: the last one listed is kept (diffs list the same baseline each time).
        if (commit.equals(listedCommit)) {
            return listedFiles;
        }
        FileListing files = listFiles(commit);
        listedCommit = commit.copy();
        listedFiles = files;
        return files;
    }

    private ObjectId listedCommit;
    private FileListing listedFiles;

    /** The files of a commit's tree, listed afresh: for a commit other than HEAD, which {@link #files} keeps. */
    FileListing listFiles(ObjectId commit) throws IOException {
        FileListing.Builder files = new FileListing.Builder();
        try (RevWalk walk = new RevWalk(repository); TreeWalk tree = new TreeWalk(repository)) {
            tree.addTree(walk.parseCommit(commit).getTree());
            tree.setRecursive(true);
            while (tree.next()) {
                files.add(tree.getPathString(), new FileState(tree.getFileMode(0), tree.getObjectId(0)));
            }
        }
        return files.build(); // git's order differs from String order for a few names: sorted here once
    }

    /** The bytes of a blob. */
    byte[] blob(ObjectId id) throws IOException {
        return repository.open(id, Constants.OBJ_BLOB).getCachedBytes(Integer.MAX_VALUE);
    }

    /** Writes the blobs and trees of the working files; returns the tree id. */
    ObjectId writeTree(WorkingFiles working, FileListing files) throws IOException {
        try (ObjectInserter inserter = repository.newObjectInserter()) {
            ObjectId tree = working.writeTree(files, inserter);
            inserter.flush();
            return tree;
        }
    }

    /** Writes a commit, authored and committed by Mnemo at {@code when}, never signed. */
    ObjectId commit(ObjectId tree, List<ObjectId> parents, String message, Instant when) throws IOException {
        PersonIdent ident = new PersonIdent(AUTHOR_NAME, AUTHOR_EMAIL, when, ZoneOffset.UTC);
        CommitBuilder commit = new CommitBuilder();
        commit.setTreeId(tree);
        commit.setParentIds(parents);
        commit.setAuthor(ident);
        commit.setCommitter(ident);
        commit.setEncoding(StandardCharsets.UTF_8);
        commit.setMessage(message);
        try (ObjectInserter inserter = repository.newObjectInserter()) {
            ObjectId id = inserter.insert(commit);
            inserter.flush();
            return id;
        }
    }

    /** Points HEAD's branch at {@code commit}; {@code expected} guards a normal move, null forces it. */
    void moveHead(ObjectId commit, ObjectId expected) throws IOException {
        RefUpdate update = repository.updateRef(Constants.HEAD);
        update.disableRefLog();
        update.setNewObjectId(commit);
        RefUpdate.Result result;
        if (expected == null) {
            result = update.forceUpdate();
        } else {
            update.setExpectedOldObjectId(expected);
            result = update.update();
        }
        switch (result) {
            case NEW, FAST_FORWARD, FORCED, NO_CHANGE -> { }
            default -> throw new IOException("cannot move HEAD of " + gitDir + " to " + commit.name() + ": " + result);
        }
    }

    /** The first-parent chain from HEAD, newest first. */
    List<HistoryCommit> chain() throws IOException {
        List<HistoryCommit> chain = new ArrayList<>();
        Optional<ObjectId> head = head();
        if (head.isEmpty()) {
            return chain;
        }
        try (RevWalk walk = new RevWalk(repository)) {
            RevCommit commit = walk.parseCommit(head.get());
            while (true) {
                chain.add(new HistoryCommit(commit.copy(), commit.getTree().copy(), commit.getFullMessage(),
                        commit.getCommitterIdent().getWhenAsInstant()));
                if (commit.getParentCount() == 0) {
                    return chain;
                }
                commit = walk.parseCommit(commit.getParent(0));
            }
        }
    }

    /**
     * Deletes the reflogs and every object no ref reaches, loose or packed: JGit's collector runs
     * with expiry dates in the future, so nothing unreachable is kept for being recent.
     */
    void pruneUnreachable() throws IOException {
        WorkingFiles.deleteRecursively(gitDir.resolve("logs"));
        GC gc = new GC((FileRepository) repository);
        Instant everything = Instant.now().plusSeconds(86_400);
        gc.setExpire(everything);
        gc.setPackExpire(everything);
        try {
            gc.gc().join();
        } catch (ParseException | GitAPIException e) {
            throw new IOException("cannot prune unreachable objects in " + gitDir + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        repository.close();
    }

    /**
     * Writes the settings this workspace relies on into the repository's own config, where they
     * take precedence over the user's and the system's: no reflogs, no automatic or preserving
     * garbage collection, no signing.
     */
    private void pinConfig() throws IOException {
        StoredConfig config = repository.getConfig();
        boolean changed = false;
        changed |= pin(config, "core", "logAllRefUpdates", "false");
        changed |= pin(config, "core", "autocrlf", "false");
        changed |= pin(config, "commit", "gpgSign", "false");
        changed |= pin(config, "gc", "auto", "0");
        changed |= pin(config, "gc", "autoPackLimit", "0");
        changed |= pin(config, "pack", "preserveOldPacks", "false");
        if (changed) {
            config.save();
        }
        if (!Files.isDirectory(gitDir.resolve("objects"))) {
            throw new IOException("no objects folder in " + gitDir);
        }
    }

    private static boolean pin(StoredConfig config, String section, String name, String value) {
        if (value.equalsIgnoreCase(config.getString(section, null, name))) {
            return false;
        }
        config.setString(section, null, name, value);
        return true;
    }
}
