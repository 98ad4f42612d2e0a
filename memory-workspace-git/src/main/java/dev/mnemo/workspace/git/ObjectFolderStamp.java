package dev.mnemo.workspace.git;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What {@code .git/objects} looks like from the outside: inode, modification and status-change
 * time ({@code ctime}) of the folder itself and of every folder in it (the 256 loose-object
 * fan-outs, {@code pack}, {@code info}). Adding, deleting or renaming an object, a pack or an
 * alternates file changes the times of the folder holding it, and {@code ctime} cannot be set
 * back, so equal stamps mean no object appeared or vanished in between — unless a folder changed
 * within {@link #RACY_WINDOW_NANOS} of the moment it was stamped (timestamps are coarse), which is
 * why such a stamp is never taken (git's racy-clean rule; a clock stepped back makes every folder
 * look recent, so nothing is trusted then either).
 *
 * @param folders one entry per folder: name, inode, mtime and ctime in nanoseconds
 */
record ObjectFolderStamp(List<String> folders) {

    /** How much older than the wall clock every folder time must be for a stamp to be taken. */
    static final long RACY_WINDOW_NANOS = 2_000_000_000L;

    private static final String ATTRIBUTES = "unix:ino,lastModifiedTime,ctime";

    /**
     * The stamp of {@code objects} now, or null when it cannot be trusted: a folder changed within
     * the racy window before {@code wallMillis}, or the file system has no {@code unix} view.
     */
    static ObjectFolderStamp take(Path objects, long wallMillis) throws IOException {
        long limit = TimeUnit.MILLISECONDS.toNanos(wallMillis) - RACY_WINDOW_NANOS;
        List<String> folders = new ArrayList<>(260);
        if (!add(folders, objects, ".", limit)) {
            return null;
        }
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(objects)) {
            entries.forEach(children::add);
        }
        children.sort(null);
        for (Path child : children) {
            if (Files.isDirectory(child, LinkOption.NOFOLLOW_LINKS)
                    && !add(folders, child, child.getFileName().toString(), limit)) {
                return null;
            }
        }
        return new ObjectFolderStamp(List.copyOf(folders));
    }

    private static boolean add(List<String> folders, Path folder, String name, long limitNanos) throws IOException {
        Map<String, Object> a;
        try {
            a = Files.readAttributes(folder, ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return false;
        }
        long modified = ((FileTime) a.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS);
        long changed = ((FileTime) a.get("ctime")).to(TimeUnit.NANOSECONDS);
        if (modified >= limitNanos || changed >= limitNanos) {
            return false;
        }
        folders.add(name + ":" + a.get("ino") + ":" + modified + ":" + changed);
        return true;
    }
}
