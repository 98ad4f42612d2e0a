package dev.mnemo.workspace.git;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What {@code .git/objects} looks like from the outside: the {@code lstat} of the folder itself
 * and of every folder in it (the 256 loose-object fan-outs, {@code pack}, {@code info}) — inode,
 * modification and status-change time ({@code ctime}) among them. Adding, deleting or renaming an
 * object, a pack or an alternates file changes the times of the folder holding it, and
 * {@code ctime} cannot be set back, so equal stamps mean no object appeared or vanished in
 * between — unless a folder changed within {@link #RACY_WINDOW_NANOS} of the moment it was stamped
 * (timestamps are coarse), which is why such a stamp is never taken (git's racy-clean rule; a clock
 * stepped back makes every folder look recent, so nothing is trusted then either).
 *
 * <p>Folders are kept in the order the file system lists them: the same folders listed in another
 * order make an unequal stamp, which only costs a full check.
 */
final class ObjectFolderStamp {

    /** How much older than the wall clock every folder time must be for a stamp to be taken. */
    static final long RACY_WINDOW_NANOS = 2_000_000_000L;

    private final List<String> names;
    private final List<FileStat> stats;

    private ObjectFolderStamp(List<String> names, List<FileStat> stats) {
        this.names = names;
        this.stats = stats;
    }

    /**
     * The stamp of {@code objects} now, or null when it cannot be trusted: a folder changed within
     * the racy window before {@code wallMillis}, or the file system has no {@code unix} view.
     */
    static ObjectFolderStamp take(Path objects, long wallMillis) throws IOException {
        if (!FileStat.hasUnixView(objects)) {
            return null;
        }
        long wallNanos = TimeUnit.MILLISECONDS.toNanos(wallMillis);
        List<String> names = new ArrayList<>(260);
        List<FileStat> stats = new ArrayList<>(260);
        FileStat self = FileStat.of(objects, true);
        if (!self.isSettled(wallNanos, RACY_WINDOW_NANOS)) {
            return null;
        }
        names.add(".");
        stats.add(self);
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(objects)) {
            for (Path child : entries) {
                FileStat stat = FileStat.of(child, true);
                if (!stat.isDirectory()) {
                    continue;
                }
                if (!stat.isSettled(wallNanos, RACY_WINDOW_NANOS)) {
                    return null;
                }
                names.add(child.getFileName().toString());
                stats.add(stat);
            }
        }
        return new ObjectFolderStamp(names, stats);
    }

    /** True when {@code other} lists the same folders, in the same order, with the same stats. */
    boolean sameAs(ObjectFolderStamp other) {
        if (other == null || !names.equals(other.names)) {
            return false;
        }
        for (int i = 0; i < stats.size(); i++) {
            if (!stats.get(i).sameAs(other.stats.get(i))) {
                return false;
            }
        }
        return true;
    }
}
