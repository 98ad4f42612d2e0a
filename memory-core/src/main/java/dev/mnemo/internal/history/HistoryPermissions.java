package dev.mnemo.internal.history;

import dev.mnemo.spi.OwnerOnlyFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Set;

/**
 * Mode 0600 for the history file, as Codex keeps it: set when the file is created and set again
 * before every append when something changed it ({@link OwnerOnlyFiles}: nothing is done on a file
 * system without POSIX modes, and a mode that cannot be set is logged while the append goes on).
 */
final class HistoryPermissions {

    private HistoryPermissions() {}

    /** Opens {@code file} to read and write, creating it (and its folders, 0700) at mode 0600 when missing. */
    static FileChannel openOwnerOnly(Path file) throws IOException {
        OwnerOnlyFiles.createFolders(file.getParent());
        Set<StandardOpenOption> options =
                EnumSet.of(StandardOpenOption.READ, StandardOpenOption.WRITE, StandardOpenOption.CREATE);
        return FileChannel.open(file, options, OwnerOnlyFiles.fileAttributes(file));
    }

    /** Sets mode 0600 again when it differs. */
    static void ownerOnly(Path file) {
        OwnerOnlyFiles.restrictFile(file);
    }
}
