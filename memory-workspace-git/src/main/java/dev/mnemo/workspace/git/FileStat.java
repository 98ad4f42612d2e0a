package dev.mnemo.workspace.git;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.jgit.lib.FileMode;

/**
 * What one {@code lstat} says about a path: type and permission bits, size, modification and
 * status-change time ({@code ctime}) in nanoseconds, inode and device. On a file system with a
 * {@code unix} attribute view all of it comes from a single native call (the view reads the whole
 * stat structure at once); elsewhere {@code ctime} is unknown ({@code -1}) and such a stat is never
 * trusted to stand for unchanged content.
 */
record FileStat(int mode, long size, long modifiedNanos, long changedNanos, long inode, long device) {

    private static final int TYPE_MASK = 0170000;
    private static final int DIRECTORY = 0040000;
    private static final int REGULAR = 0100000;
    private static final int SYMLINK = 0120000;
    private static final int OWNER_EXECUTE = 0100;
    private static final String UNIX_ATTRIBUTES = "unix:mode,ino,dev,size,lastModifiedTime,ctime";

    /** Reads {@code path} without following a link; {@code unix} says whether its file system has the {@code unix} view. */
    static FileStat of(Path path, boolean unix) throws IOException {
        if (unix) {
            Map<String, Object> a = Files.readAttributes(path, UNIX_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
            return new FileStat((Integer) a.get("mode"), (Long) a.get("size"), nanos(a.get("lastModifiedTime")),
                    nanos(a.get("ctime")), (Long) a.get("ino"), (Long) a.get("dev"));
        }
        Class<? extends BasicFileAttributes> type = path.getFileSystem().supportedFileAttributeViews().contains("posix")
                ? PosixFileAttributes.class : BasicFileAttributes.class;
        BasicFileAttributes a = Files.readAttributes(path, type, LinkOption.NOFOLLOW_LINKS);
        int kind = a.isDirectory() ? DIRECTORY : a.isSymbolicLink() ? SYMLINK : a.isRegularFile() ? REGULAR : 0;
        int execute = kind == REGULAR && a instanceof PosixFileAttributes posix
                && posix.permissions().contains(PosixFilePermission.OWNER_EXECUTE) ? OWNER_EXECUTE : 0;
        return new FileStat(kind | execute, a.size(), nanos(a.lastModifiedTime()), -1, 0, 0);
    }

    /** True when {@code path}'s file system reads stats through the {@code unix} view. */
    static boolean hasUnixView(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("unix");
    }

    boolean isDirectory() {
        return (mode & TYPE_MASK) == DIRECTORY;
    }

    /** True for what git tracks: a regular file or a symlink. */
    boolean isTracked() {
        int type = mode & TYPE_MASK;
        return type == REGULAR || type == SYMLINK;
    }

    /** The git mode of a tracked path: a link, an executable or a plain file. */
    FileMode fileMode() {
        if ((mode & TYPE_MASK) == SYMLINK) {
            return FileMode.SYMLINK;
        }
        return (mode & OWNER_EXECUTE) != 0 ? FileMode.EXECUTABLE_FILE : FileMode.REGULAR_FILE;
    }

    /**
     * True when both times are known and older than {@code windowNanos} before {@code wallNanos}:
     * only then can an equal stat later stand for equal content (git's racy-clean rule).
     */
    boolean isSettled(long wallNanos, long windowNanos) {
        return changedNanos >= 0 && wallNanos - modifiedNanos > windowNanos && wallNanos - changedNanos > windowNanos;
    }

    /** Field by field (written out: a record's generated {@code equals} is bootstrapped on first use). */
    boolean sameAs(FileStat other) {
        return mode == other.mode && size == other.size && modifiedNanos == other.modifiedNanos
                && changedNanos == other.changedNanos && inode == other.inode && device == other.device;
    }

    private static long nanos(Object time) {
        return ((FileTime) time).to(TimeUnit.NANOSECONDS);
    }
}
