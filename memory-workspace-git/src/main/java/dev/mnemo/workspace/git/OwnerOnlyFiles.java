package dev.mnemo.workspace.git;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the memory folder owner-only: every folder under it (the git folder included) at 0700 and
 * every file at 0600 (0700 for a file its owner may run: the workspace tracks that bit, as git
 * does), as the message history is kept. Files the memory tools, the consolidation
 * agent, a restore or JGit wrote with the process's default mode are set again after each change
 * the workspace makes; links are never followed. On a file system without POSIX modes nothing is
 * done.
 */
final class OwnerOnlyFiles {

    private static final Logger LOG = LoggerFactory.getLogger(OwnerOnlyFiles.class);
    static final Set<PosixFilePermission> FILE = EnumSet.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE);
    static final Set<PosixFilePermission> FOLDER = EnumSet.of(PosixFilePermission.OWNER_READ,
            PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

    private OwnerOnlyFiles() {}

    /** Sets 0700 on {@code root} and every folder under it, 0600 on every file; best effort, logged. */
    static void apply(Path root) {
        if (!Files.isDirectory(root) || !root.getFileSystem().supportedFileAttributeViews().contains("posix")) {
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
                        set(file, Files.getPosixFilePermissions(file, java.nio.file.LinkOption.NOFOLLOW_LINKS)
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
            LOG.warn("cannot make the memory folder {} owner-only: {}", root, e.toString());
        }
    }

    private static void set(Path path, Set<PosixFilePermission> mode) throws IOException {
        if (!Files.getPosixFilePermissions(path, java.nio.file.LinkOption.NOFOLLOW_LINKS).equals(mode)) {
            Files.setPosixFilePermissions(path, mode);
        }
    }
}
