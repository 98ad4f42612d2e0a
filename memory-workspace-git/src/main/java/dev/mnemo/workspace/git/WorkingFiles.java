package dev.mnemo.workspace.git;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.function.Predicate;
import java.util.Set;
import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheBuilder;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;

/**
 * The files under the memory root as git sees them: regular files (mode 100644 or 100755) and
 * symlinks (mode 120000, the link target as content). Directories are walked without following
 * links; empty ones contribute nothing. Every {@code .git} entry and the top-level
 * {@code phase2_workspace_diff.md} are left out (see {@link WorkingTreeWalk}).
 */
final class WorkingFiles {

    /** The transient diff file Phase 2 writes for the agent; never part of a baseline. */
    static final String DIFF_FILE = "phase2_workspace_diff.md";
    static final String GIT_DIR = ".git";

    private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;

    /** One tracked path: its git mode and blob id. */
    record FileState(FileMode mode, ObjectId id) {

        /** Written out: a diff compares thousands of states, and a record's generated equals goes through method handles. */
        @Override
        public boolean equals(Object other) {
            return other instanceof FileState state && mode.equals(state.mode) && id.equals(state.id);
        }

        @Override
        public int hashCode() {
            return 31 * mode.hashCode() + id.hashCode();
        }
    }

    /**
     * Files whose modification or status-change time is this close to the moment they were hashed
     * are hashed again on every scan (git's "racily clean" rule): a write in the same clock tick
     * could keep the size and times and still change the content.
     */
    private static final long RACY_WINDOW_NANOS = 2_000_000_000L;

    /**
     * A regular file as it was when hashed, so an unchanged one is not read again. Besides size,
     * modification time and inode the stat holds the status-change time ({@code ctime}): a program
     * can put a rewritten file's modification time back, never its {@code ctime}.
     */
    private record Hashed(String path, FileStat stat, ObjectId id) {}

    private final Path root;
    private final WorkingTreeWalk walk;
    /** The settled files of the last scan, in path order: the next scan follows them in step. */
    private List<Hashed> hashed = List.of();
    private Clock wallClock = Clock.systemUTC();

    WorkingFiles(Path root) {
        this.root = root;
        this.walk = new WorkingTreeWalk(root);
    }

    /** For tests: file times are compared with {@code clock} instead of the system clock. */
    void useWallClock(Clock clock) {
        this.wallClock = clock;
    }

    /** Every tracked file, by {@code /}-separated relative path, with blob ids computed but not written. */
    FileListing scan() throws IOException {
        if (!Files.isDirectory(root, NOFOLLOW)) {
            hashed = List.of();
            return FileListing.EMPTY;
        }
        Scan scan = new Scan(hashed, wallClock.millis() * 1_000_000L);
        walk.walk(scan);
        hashed = scan.settled;
        return scan.files.build();
    }

    /**
     * One scan: hashes each visited file unless the last scan saw the same path with the same stat,
     * and keeps the settled ones for the next scan. Paths arrive in order, so the last scan's list
     * is followed with a cursor instead of looked up.
     */
    private static final class Scan implements WorkingTreeWalk.Visitor {

        private final ObjectInserter.Formatter hasher = new ObjectInserter.Formatter();
        private final FileListing.Builder files = new FileListing.Builder();
        private final List<Hashed> previous;
        private final List<Hashed> settled;
        private final long startedNanos;
        private int next;

        Scan(List<Hashed> previous, long startedNanos) {
            this.previous = previous;
            this.settled = new ArrayList<>(previous.size());
            this.startedNanos = startedNanos;
        }

        @Override
        public void visit(String path, Path file, FileStat stat) throws IOException {
            FileMode mode = stat.fileMode();
            Hashed before = previous(path);
            boolean unchanged = before != null && mode != FileMode.SYMLINK && before.stat().sameAs(stat);
            ObjectId id = unchanged ? before.id() : hasher.idFor(Constants.OBJ_BLOB, read(file, mode));
            files.add(path, new FileState(mode, id));
            if (mode != FileMode.SYMLINK && stat.isSettled(startedNanos, RACY_WINDOW_NANOS)) {
                settled.add(unchanged ? before : new Hashed(path, stat, id));
            }
        }

        /** The last scan's entry for {@code path}, or null; moves the cursor past every smaller path. */
        private Hashed previous(String path) {
            while (next < previous.size()) {
                Hashed candidate = previous.get(next);
                // An unchanged folder hands out the very strings of the last walk: no comparison needed.
                int order = candidate.path() == path ? 0 : candidate.path().compareTo(path);
                if (order > 0) {
                    return null;
                }
                next++;
                if (order == 0) {
                    return candidate;
                }
            }
            return null;
        }
    }

    /** The bytes git stores for {@code path}: the file content, or the target of a link. */
    byte[] content(String path, FileState state) throws IOException {
        return read(resolve(path), state.mode());
    }

    /** Writes the blobs of {@code files} and the trees holding them; returns the root tree id. */
    ObjectId writeTree(FileListing files, ObjectInserter inserter) throws IOException {
        DirCache index = DirCache.newInCore();
        DirCacheBuilder builder = index.builder();
        for (int i = 0; i < files.size(); i++) {
            byte[] bytes = content(files.path(i), files.state(i));
            ObjectId id = inserter.insert(Constants.OBJ_BLOB, bytes);
            DirCacheEntry entry = new DirCacheEntry(files.path(i));
            entry.setFileMode(files.state(i).mode());
            entry.setObjectId(id);
            entry.setLength(bytes.length);
            builder.add(entry);
        }
        builder.finish();
        return index.writeTree(inserter);
    }

    /**
     * Makes the working files equal {@code target}: paths not in it are deleted (the history
     * folder and the diff file are never touched), changed ones rewritten through a temporary
     * file in the same folder. {@code blobs} gives the bytes of a target entry.
     */
    void restore(FileListing target, BlobSource blobs) throws IOException {
        restore(target, blobs, path -> false);
    }

    /**
     * Like {@link #restore(FileListing, BlobSource)}, but the paths {@code keep} accepts are left as
     * they are: neither deleted nor overwritten.
     */
    void restore(FileListing target, BlobSource blobs, Predicate<String> keep) throws IOException {
        FileListing current = scan();
        for (int i = 0; i < current.size(); i++) {
            String path = current.path(i);
            if (target.get(path) == null && !keep.test(path)) {
                Files.deleteIfExists(resolve(path));
                removeEmptyParents(resolve(path).getParent());
            }
        }
        for (int i = 0; i < target.size(); i++) {
            FileState state = target.state(i);
            if (!keep.test(target.path(i)) && !state.equals(current.get(target.path(i)))) {
                write(target.path(i), state, blobs.bytes(state.id()));
            }
        }
    }

    /** Deletes every file and folder under the root, history included, leaving the root empty. */
    void deleteAllUnderRoot() throws IOException {
        if (!Files.isDirectory(root, NOFOLLOW)) {
            return;
        }
        try (DirectoryStream<Path> children = Files.newDirectoryStream(root)) {
            for (Path child : children) {
                deleteRecursively(child);
            }
        }
    }

    /** Deletes {@code path} and everything below it; a symlink is removed, never followed. */
    static void deleteRecursively(Path path) throws IOException {
        if (!Files.exists(path, NOFOLLOW)) {
            return;
        }
        if (!Files.isDirectory(path, NOFOLLOW)) {
            Files.delete(path);
            return;
        }
        Files.walkFileTree(path, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException failure) throws IOException {
                if (failure != null) {
                    throw failure;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Reads a blob by id. */
    @FunctionalInterface
    interface BlobSource {
        byte[] bytes(ObjectId id) throws IOException;
    }

    private void write(String path, FileState state, byte[] bytes) throws IOException {
        Path file = resolve(path);
        makeParentDirectories(file.getParent());
        if (Files.isDirectory(file, NOFOLLOW)) {
            deleteRecursively(file);
        }
        if (state.mode() == FileMode.SYMLINK) {
            Files.deleteIfExists(file);
            Files.createSymbolicLink(file, Path.of(new String(bytes, StandardCharsets.UTF_8)));
            return;
        }
        Path temp = Files.createTempFile(file.getParent(), ".mnemo-restore-", ".tmp");
        try {
            Files.write(temp, bytes);
            setExecutable(temp, state.mode() == FileMode.EXECUTABLE_FILE);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /** Creates the folders down to {@code dir}, replacing any file or link that stands in the way. */
    private void makeParentDirectories(Path dir) throws IOException {
        List<Path> chain = new ArrayList<>();
        for (Path p = dir; p != null && !p.equals(root); p = p.getParent()) {
            chain.add(0, p);
        }
        for (Path p : chain) {
            if (Files.exists(p, NOFOLLOW) && !Files.isDirectory(p, NOFOLLOW)) {
                Files.delete(p);
            }
            if (!Files.exists(p, NOFOLLOW)) {
                Files.createDirectory(p);
            }
        }
    }

    private void removeEmptyParents(Path dir) throws IOException {
        for (Path p = dir; p != null && !p.equals(root) && p.startsWith(root); p = p.getParent()) {
            try (DirectoryStream<Path> children = Files.newDirectoryStream(p)) {
                if (children.iterator().hasNext()) {
                    return;
                }
            }
            Files.delete(p);
        }
    }

    private Path resolve(String path) {
        return root.resolve(path.replace('/', root.getFileSystem().getSeparator().charAt(0)));
    }

    private static byte[] read(Path file, FileMode mode) throws IOException {
        if (mode == FileMode.SYMLINK) {
            String target = Files.readSymbolicLink(file).toString().replace('\\', '/');
            return target.getBytes(StandardCharsets.UTF_8);
        }
        return Files.readAllBytes(file);
    }

    private static void setExecutable(Path file, boolean executable) throws IOException {
        if (!supportsPosix(file)) {
            return;
        }
        Set<PosixFilePermission> permissions = EnumSet.of(
                PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
                PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ);
        if (executable) {
            permissions.add(PosixFilePermission.OWNER_EXECUTE);
            permissions.add(PosixFilePermission.GROUP_EXECUTE);
            permissions.add(PosixFilePermission.OTHERS_EXECUTE);
        }
        Files.setPosixFilePermissions(file, permissions);
    }

    private static boolean supportsPosix(Path file) {
        return file.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
