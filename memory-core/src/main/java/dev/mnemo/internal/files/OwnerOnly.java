package dev.mnemo.internal.files;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The modes of a Mnemo home, as Codex keeps its history file: the home and every folder the engine
 * creates in it at 0700, every file at 0600, so other users of the machine read none of it. Each
 * method does nothing on a file system without POSIX modes (Windows), and a mode that cannot be set
 * is logged, never fatal.
 */
public final class OwnerOnly {

    private static final Logger LOG = LoggerFactory.getLogger(OwnerOnly.class);

    /** {@code rw-------}. */
    public static final Set<PosixFilePermission> FILE = EnumSet.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE);
    /** {@code rwx------}. */
    public static final Set<PosixFilePermission> FOLDER = EnumSet.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

    private OwnerOnly() {}

    /** Whether {@code path}'s file system has POSIX modes. */
    public static boolean posix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /** Creates {@code folder} and its missing parents, each one created here at 0700; existing ones are left as they are. */
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

    /** The attribute that creates a file at 0600; none on a file system without POSIX modes. */
    public static FileAttribute<?>[] fileAttributes(Path file) {
        return posix(file) ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)}
                : new FileAttribute<?>[0];
    }

    /** Sets 0600 on an existing regular file when its mode differs. */
    public static void restrictFile(Path file) {
        set(file, FILE);
    }

    /** Sets 0700 on an existing folder when its mode differs. */
    public static void restrictFolder(Path folder) {
        set(folder, FOLDER);
    }

    private static void set(Path path, Set<PosixFilePermission> mode) {
        if (!posix(path) || !Files.exists(path)) {
            return;
        }
        try {
            if (!Files.getPosixFilePermissions(path).equals(mode)) {
                Files.setPosixFilePermissions(path, mode);
            }
        } catch (IOException | UnsupportedOperationException e) {
            LOG.warn("cannot set mode {} on {}: {}", PosixFilePermissions.toString(mode), path, e.getMessage());
        }
    }
}
