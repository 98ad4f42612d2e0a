package dev.mnemo.store.sqlite;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Owner-only modes for the SQLite files of a home: a database file is created at 0600 before
 * SQLite first opens it (SQLite gives its {@code -wal} and {@code -shm} the database file's mode),
 * a folder it creates at 0700, and an existing file is set to 0600 again when it differs. On a
 * file system without POSIX modes nothing is done.
 */
final class OwnerOnly {

    private static final Logger LOG = LoggerFactory.getLogger(OwnerOnly.class);
    static final Set<PosixFilePermission> FILE = EnumSet.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE);
    static final Set<PosixFilePermission> FOLDER = EnumSet.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

    private OwnerOnly() {}

    static boolean posix(Path path) {
        return path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    /** Creates the missing folders of {@code folder}, each at 0700 (those that exist are left as they are). */
    static void createFolders(Path folder) throws IOException {
        if (Files.isDirectory(folder) || !posix(folder)) {
            Files.createDirectories(folder);
            return;
        }
        Path parent = folder.getParent();
        if (parent != null) {
            createFolders(parent);
        }
        try {
            Files.createDirectory(folder, PosixFilePermissions.asFileAttribute(FOLDER));
        } catch (FileAlreadyExistsException raced) {
            // made by someone else in between
        }
    }

    /** Creates {@code file} empty at 0600 when it does not exist; sets 0600 on it when it does. */
    static void createFile(Path file) throws IOException {
        if (!posix(file)) {
            if (!Files.exists(file)) {
                try {
                    Files.createFile(file);
                } catch (FileAlreadyExistsException raced) {
                    // made by someone else in between
                }
            }
            return;
        }
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(FILE));
        } catch (FileAlreadyExistsException exists) {
            restrict(file);
        }
    }

    /** Sets 0600 on {@code file} when it exists with another mode; a failure is logged. */
    static void restrict(Path file) {
        if (!posix(file) || !Files.isRegularFile(file)) {
            return;
        }
        try {
            if (!Files.getPosixFilePermissions(file).equals(FILE)) {
                Files.setPosixFilePermissions(file, FILE);
            }
        } catch (IOException | UnsupportedOperationException e) {
            LOG.warn("cannot set mode 0600 on {}: {}", file, e.getMessage());
        }
    }
}
