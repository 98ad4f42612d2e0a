package dev.mnemo.workspace.git;

import java.io.File;
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
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
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
 * {@code phase2_workspace_diff.md} are left out.
 */
final class WorkingFiles {

    /** The transient diff file Phase 2 writes for the agent; never part of a baseline. */
    static final String DIFF_FILE = "phase2_workspace_diff.md";
    static final String GIT_DIR = ".git";

    private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;

    /** One tracked path: its git mode and blob id. */
    record FileState(FileMode mode, ObjectId id) {}

    /**
     * Files whose modification or status-change time is this close to the moment they were hashed
     * are hashed again on every scan (git's "racily clean" rule): a write in the same clock tick
     * could keep the size and times and still change the content.
     */
    private static final long RACY_WINDOW_NANOS = 2_000_000_000L;

    /**
     * What a regular file looked like when it was hashed, so an unchanged file is not read again.
     * Besides size, modification time and inode, the status-change time ({@code ctime}): a program
     * can put a rewritten file's modification time back, never its {@code ctime}.
     */
    private record Stat(FileMode mode, long size, FileTime modified, Object fileKey, long changedNanos, ObjectId id) {}

    private final Path root;
    private final Map<String, Stat> hashed = new HashMap<>();
    private Clock wallClock = Clock.systemUTC();

    WorkingFiles(Path root) {
        this.root = root;
    }

    /** For tests: file times are compared with {@code clock} instead of the system clock. */
    void useWallClock(Clock clock) {
        this.wallClock = clock;
    }

    /** Every tracked file, by {@code /}-separated relative path, with blob ids computed but not written. */
    SortedMap<String, FileState> scan() throws IOException {
        SortedMap<String, FileState> files = new TreeMap<>();
        if (!Files.isDirectory(root, NOFOLLOW)) {
            return files;
        }
        ObjectInserter.Formatter hasher = new ObjectInserter.Formatter();
        long scanStarted = wallClock.millis() * 1_000_000L;
        Map<String, Stat> seen = new HashMap<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return dir.equals(root) || !isExcluded(dir) ? FileVisitResult.CONTINUE : FileVisitResult.SKIP_SUBTREE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (isExcluded(file) || !(attrs.isRegularFile() || attrs.isSymbolicLink())) {
                    return FileVisitResult.CONTINUE;
                }
                FileMode mode = modeOf(file, attrs);
                String path = relative(file);
                Stat before = hashed.get(path);
                long changed = mode == FileMode.SYMLINK ? -1 : changedNanos(file);
                ObjectId id;
                if (changed >= 0 && before != null && before.mode().equals(mode)
                        && before.size() == attrs.size() && before.modified().equals(attrs.lastModifiedTime())
                        && Objects.equals(before.fileKey(), attrs.fileKey()) && before.changedNanos() == changed) {
                    id = before.id();
                } else {
                    id = hasher.idFor(Constants.OBJ_BLOB, read(file, mode));
                }
                files.put(path, new FileState(mode, id));
                long modified = attrs.lastModifiedTime().to(TimeUnit.NANOSECONDS);
                if (changed >= 0 && scanStarted - modified > RACY_WINDOW_NANOS && scanStarted - changed > RACY_WINDOW_NANOS) {
                    seen.put(path, new Stat(mode, attrs.size(), attrs.lastModifiedTime(), attrs.fileKey(), changed, id));
                }
                return FileVisitResult.CONTINUE;
            }
        });
        hashed.clear();
        hashed.putAll(seen);
        return files;
    }

    /** The bytes git stores for {@code path}: the file content, or the target of a link. */
    byte[] content(String path, FileState state) throws IOException {
        return read(resolve(path), state.mode());
    }

    /** Writes the blobs of {@code files} and the trees holding them; returns the root tree id. */
    ObjectId writeTree(Map<String, FileState> files, ObjectInserter inserter) throws IOException {
        DirCache index = DirCache.newInCore();
        DirCacheBuilder builder = index.builder();
        for (Map.Entry<String, FileState> file : files.entrySet()) {
            byte[] bytes = content(file.getKey(), file.getValue());
            ObjectId id = inserter.insert(Constants.OBJ_BLOB, bytes);
            DirCacheEntry entry = new DirCacheEntry(file.getKey());
            entry.setFileMode(file.getValue().mode());
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
    void restore(SortedMap<String, FileState> target, BlobSource blobs) throws IOException {
        SortedMap<String, FileState> current = scan();
        for (String path : current.keySet()) {
            if (!target.containsKey(path)) {
                Files.deleteIfExists(resolve(path));
                removeEmptyParents(resolve(path).getParent());
            }
        }
        for (Map.Entry<String, FileState> entry : target.entrySet()) {
            if (!entry.getValue().equals(current.get(entry.getKey()))) {
                write(entry.getKey(), entry.getValue(), blobs.bytes(entry.getValue().id()));
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

    private boolean isExcluded(Path path) {
        String name = path.getFileName().toString();
        return name.equals(GIT_DIR) || path.equals(root.resolve(DIFF_FILE));
    }

    private String relative(Path file) {
        if (File.separatorChar == '/' && file.startsWith(root)) {
            return file.toString().substring(root.toString().length() + 1); // already /-separated
        }
        StringBuilder path = new StringBuilder();
        for (Path part : root.relativize(file)) {
            if (path.length() > 0) {
                path.append('/');
            }
            path.append(part);
        }
        return path.toString();
    }

    private Path resolve(String path) {
        return root.resolve(path.replace('/', root.getFileSystem().getSeparator().charAt(0)));
    }

    private static FileMode modeOf(Path file, BasicFileAttributes attrs) throws IOException {
        if (attrs.isSymbolicLink()) {
            return FileMode.SYMLINK;
        }
        // On POSIX systems the walk's attributes already hold the permissions: no second stat call.
        if (attrs instanceof PosixFileAttributes posix) {
            return posix.permissions().contains(PosixFilePermission.OWNER_EXECUTE) ? FileMode.EXECUTABLE_FILE
                    : FileMode.REGULAR_FILE;
        }
        return isExecutable(file) ? FileMode.EXECUTABLE_FILE : FileMode.REGULAR_FILE;
    }

    /** The file's {@code ctime} in nanoseconds, or -1 where there is no {@code unix} view (nothing is reused there). */
    private static long changedNanos(Path file) throws IOException {
        try {
            return ((FileTime) Files.getAttribute(file, "unix:ctime", NOFOLLOW)).to(TimeUnit.NANOSECONDS);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return -1;
        }
    }

    private static byte[] read(Path file, FileMode mode) throws IOException {
        if (mode == FileMode.SYMLINK) {
            String target = Files.readSymbolicLink(file).toString().replace('\\', '/');
            return target.getBytes(StandardCharsets.UTF_8);
        }
        return Files.readAllBytes(file);
    }

    private static boolean isExecutable(Path file) throws IOException {
        if (supportsPosix(file)) {
            return Files.getPosixFilePermissions(file, NOFOLLOW).contains(PosixFilePermission.OWNER_EXECUTE);
        }
        return false;
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
