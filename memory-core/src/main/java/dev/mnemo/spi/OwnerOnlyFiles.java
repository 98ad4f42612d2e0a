package dev.mnemo.spi;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one rule for the modes of everything in a Mnemo home, for the engine and for the stores and
 * workspaces plugged into it: folders at {@code 0700}, files at {@code 0600} (as Codex keeps its
 * message history), so other users of the machine read none of it. A file its owner may run keeps
 * the execute bit ({@code 0700}), since a memory folder tracks that bit as git does.
 *
 * <p>Each method does nothing on a file system without POSIX modes (Windows), never follows a
 * link, and logs a mode it cannot set rather than failing: a mode is a safeguard, not a reason to
 * lose a write.
 */
public final class OwnerOnlyFiles {

    private static final Logger LOG = LoggerFactory.getLogger(OwnerOnlyFiles.class);

    /** {@code rw-------}. */
    public static final Set<PosixFilePermission> FILE = Set.copyOf(EnumSet.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE));
    /** {@code rwx------}: folders, and files their owner may run. */
    public static final Set<PosixFilePermission> FOLDER = Set.copyOf(EnumSet.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE));

    private OwnerOnlyFiles() {}

    /**
     * Whether {@code path}'s file system has POSIX modes (if not, every other method does nothing).
     *
     * @param path any path on the file system to ask about
     * @return true when the file system supports POSIX modes
     */
    public static boolean posix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /**
     * Creates {@code folder} and its missing parents, each one created here at {@code 0700};
     * folders that exist are left as they are.
     *
     * @param folder the folder to create; relative to the working folder when not absolute
     * @throws IOException when a folder cannot be created
     */
    public static void createFolders(Path folder) throws IOException {
        Path absolute = folder.toAbsolutePath();
        if (Files.isDirectory(absolute) || !posix(absolute)) {
            Files.createDirectories(absolute);
            return;
        }
        Path parent = absolute.getParent();
        if (parent != null) {
            createFolders(parent);
        }
        try {
            Files.createDirectory(absolute, PosixFilePermissions.asFileAttribute(FOLDER));
        } catch (FileAlreadyExistsException raced) {
            // made by someone else in between
        }
    }

    /**
     * Creates {@code file} empty at {@code 0600} when it does not exist (before a database opens
     * it, so the files it adds beside it take that mode), and sets {@code 0600} on it when it does.
     *
     * @param file the file; its parent folder must exist
     * @throws IOException when the file cannot be created
     */
    public static void createFile(Path file) throws IOException {
        try {
            Files.createFile(file, fileAttributes(file));
        } catch (FileAlreadyExistsException exists) {
            restrictFile(file);
        }
    }

    /**
     * The attributes that create a file at {@code 0600}: none on a file system without POSIX modes.
     *
     * @param file the file to be created, whose file system decides
     * @return the {@code 0600} attribute, or an empty array without POSIX modes
     */
    public static FileAttribute<?>[] fileAttributes(Path file) {
        return posix(file) ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)}
                : new FileAttribute<?>[0];
    }

    /**
     * Sets {@code 0600} on an existing regular file when its mode differs; a missing file is left alone.
     *
     * @param file the file
     */
    public static void restrictFile(Path file) {
        if (posix(file) && Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            setLogged(file, FILE);
        }
    }

    /**
     * Sets {@code 0700} on an existing folder when its mode differs; a missing folder is left alone.
     *
     * @param folder the folder
     */
    public static void restrictFolder(Path folder) {
        if (posix(folder) && Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
            setLogged(folder, FOLDER);
        }
    }

    /**
     * Sets {@code 0700} on {@code root} and every folder under it and {@code 0600} on every file
     * ({@code 0700} on a file its owner may run); for a tree that other code (a library, an agent,
     * a restore) wrote with the process's default mode. Best effort: what cannot be set is logged.
     *
     * @param root the top folder; a missing one is left alone
     */
    public static void restrictTree(Path root) {
        if (!posix(root) || !Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                    set(dir, FOLDER);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    if (attrs.isRegularFile()) {
                        set(file, Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS)
                                .contains(PosixFilePermission.OWNER_EXECUTE) ? FOLDER : FILE);
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE; // removed in between
                }
            });
        } catch (IOException | RuntimeException e) {
            LOG.warn("cannot make {} owner-only: {}", root, e.toString());
        }
    }

    private static void setLogged(Path path, Set<PosixFilePermission> mode) {
        try {
            set(path, mode);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.warn("cannot set mode {} on {}: {}", PosixFilePermissions.toString(mode), path, e.getMessage());
        }
    }

    private static void set(Path path, Set<PosixFilePermission> mode) throws IOException {
        if (!Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS).equals(mode)) {
            Files.setPosixFilePermissions(path, mode);
        }
    }
}
