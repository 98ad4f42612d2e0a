package dev.mnemo.internal.history;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mode 0600 for the history file, as Codex keeps it: set when the file is created and set again
 * before every append when something changed it. On a file system without POSIX modes nothing is done.
 */
final class HistoryPermissions {

    private static final Logger LOG = LoggerFactory.getLogger(HistoryPermissions.class);
    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    private HistoryPermissions() {}

    /** Opens {@code file} to read and write, creating it (and its folder) at mode 0600 when missing. */
    static FileChannel openOwnerOnly(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Set<StandardOpenOption> options =
                EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE);
        if (posix(file)) {
            return FileChannel.open(file, options, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        }
        return FileChannel.open(file, options);
    }

    /** Sets mode 0600 again when it differs; a failure is logged, the append goes on (as in Codex). */
    static void ownerOnly(Path file) {
        if (!posix(file)) {
            return;
        }
        try {
            if (!Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
                Files.setPosixFilePermissions(file, OWNER_ONLY);
            }
        } catch (IOException | UnsupportedOperationException e) {
            LOG.warn("cannot set mode 0600 on the message history {}: {}", file, e.getMessage());
        }
    }

    private static boolean posix(Path file) {
        return file.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
