package dev.mnemo.internal.read;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A file or folder of the memory folder ({@code memory_summary.md}, {@code projects/}, the notes
 * folder) and what was last derived from it, reused while it provably has not changed — the way
 * git trusts its index. (A folder's times change when an entry is added, removed or renamed in it,
 * which is all that is derived from a folder here.)
 *
 * <p>A derived value is reused only when the file's stamp — device, inode, size, modification time
 * and status-change time ({@code ctime}, which no program can set back), all read by one
 * {@code stat} — equals the stamp taken around the read it came from, <em>and</em> that read was
 * not racy: both times were at least {@link #RACY_WINDOW} older than the wall clock when the read
 * began. Inside that window a rewrite could keep every field (timestamps are coarse; a same-size
 * rewrite in the same clock tick looks identical), so a racy entry is never trusted and the file is
 * read again on each call until it ages out — git's "racily clean" rule. A file replaced by
 * rename has a new inode; one rewritten in place, even with its size and modification time put
 * back, has a new {@code ctime}. A clock stepped back makes file times look newer than the clock,
 * which again counts as racy; nothing is trusted for longer because the clock moved.
 *
 * <p>Where the file system offers no {@code unix} attribute view (no inode or {@code ctime}),
 * nothing is cached: every call reads the file.
 *
 * <p>A path found missing is checked with {@link java.io.File#exists()} on the next call, which
 * answers without throwing: most folders have no notes and most projects no summary yet, and an
 * exception per turn would cost more than the whole read. Better still, a path whose entry in the
 * memory folder (the path itself, or the first folder on its way) was found missing stays missing
 * while the memory folder's own stamp is unchanged ({@link Folder}): adding, removing or renaming
 * an entry changes a folder's modification time, so one {@code stat} of the memory folder a turn
 * answers for every such path. The racy-clean rule holds for that stamp too: only a stamp taken
 * when its time was older than {@link #RACY_WINDOW} vouches for anything.
 *
 * @param <T> what is derived from the path
 */
final class StampedPath<T> {

    /** Derives a value from the path: reads a file's text, lists a folder. */
    @FunctionalInterface
    interface Loader<T> {
        T load(Path path) throws IOException;
    }

    /** How much older than the wall clock a file's times must be for its stamp to be trusted. */
    static final Duration RACY_WINDOW = Duration.ofSeconds(2);

    private static final String STAMP_ATTRIBUTES = "unix:dev,ino,size,lastModifiedTime,ctime";

    private final Path file;
    private final Clock wallClock;
    private final Loader<T> loader;
    /**
     * The path's entry in the memory folder: the path itself or the first folder on its way, whose
     * absence {@link Folder} stamps vouch for; null when the path is not under the memory folder.
     */
    private final Path entry;
    /** The last trusted entry, or null. Entries are immutable, so readers need no lock. */
    private volatile Entry<T> cached;
    private volatile boolean stampsSupported = true;
    /**
     * Non-null when the last call found the path missing: the next one trusts that while the memory
     * folder's stamp is the one that vouched for it, else asks {@link java.io.File#exists()} first.
     */
    private volatile Absence absence;

    /**
     * @param file the file or folder
     * @param wallClock the clock file times are compared with (the system clock in production:
     *     file systems stamp files with it)
     * @param loader what to derive from the path; called again only after a change
     */
    StampedPath(Path file, Clock wallClock, Loader<T> loader) {
        this(file, wallClock, loader, null);
    }

    /**
     * A path under the memory folder {@code root}, whose absence that folder's stamp can vouch for
     * ({@link #getOrElse(Object, Stamp)}).
     *
     * @param root the memory folder; {@code file} must lie under it
     */
    StampedPath(Path file, Clock wallClock, Loader<T> loader, Path root) {
        this.file = Objects.requireNonNull(file, "file");
        this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
        this.loader = Objects.requireNonNull(loader, "loader");
        this.entry = root == null ? null : entryIn(root, file);
    }

    /** The entry of {@code root} that {@code file} is or lies under. */
    private static Path entryIn(Path root, Path file) {
        Path relative = root.relativize(file);
        if (relative.getNameCount() == 0 || relative.getName(0).toString().equals("..")) {
            throw new IllegalArgumentException("path " + file + " is not under the memory folder " + root);
        }
        return root.resolve(relative.getName(0));
    }

    /**
     * The value derived from the path as it is now.
     *
     * @throws IOException as the loader throws it (a missing file, malformed UTF-8, no permission)
     */
    T get() throws IOException {
        Entry<T> entry = cached;
        if (entry != null && entry.stamp().equals(stamp())) {
            return entry.value();
        }
        return read();
    }

    /** {@link #get()}, or {@code absent} when the path does not exist. */
    T getOrElse(T absent) throws IOException {
        return getOrElse(absent, null);
    }

    /**
     * {@link #get()}, or {@code absent} when the path does not exist; without a system call when it
     * was missing from the memory folder last time and {@code root} shows that folder unchanged.
     *
     * @param root the memory folder's stamp, taken before this call ({@link Folder#stamp()}), or null
     */
    T getOrElse(T absent, FolderStamp root) throws IOException {
        Absence was = absence;
        if (was != null) {
            if (was.vouched() && root != null && root.equals(was.root())) {
                return absent;
            }
            if (!file.toFile().exists()) {
                absence = absence(root, was);
                return absent;
            }
        }
        try {
            T value = get();
            absence = null;
            return value;
        } catch (NoSuchFileException e) {
            absence = absence(root, null);
            return absent;
        }
    }

    /**
     * The path was just found missing, after {@code root} was taken: that stamp vouches for it when
     * the path's entry in the memory folder is missing too, not even a link (asked once per stamp of
     * the folder). A dangling link's target may appear without the folder changing, so a link
     * vouches for nothing.
     */
    private Absence absence(FolderStamp root, Absence was) {
        if (root == null || entry == null) {
            return Absence.UNVOUCHED;
        }
        if (was != null && root.equals(was.root())) {
            return was;
        }
        return new Absence(root, !Files.exists(entry, LinkOption.NOFOLLOW_LINKS));
    }

    /** A path found missing, and the memory folder's stamp under which it was; vouched when its entry was missing too. */
    private record Absence(FolderStamp root, boolean vouched) {
        static final Absence UNVOUCHED = new Absence(null, false);
    }

    private T read() throws IOException {
        long readStartMillis = wallClock.millis();
        Stamp before = stampOrNull();
        T value = loader.load(file);
        Stamp after = before == null ? null : stampOrNull();
        if (before != null && before.equals(after) && before.olderThan(readStartMillis - RACY_WINDOW.toMillis())) {
            cached = new Entry<>(before, value);
        } else {
            cached = null;
        }
        return value;
    }

    /** The stamp, or null when it cannot be taken (then nothing is cached). */
    private Stamp stampOrNull() {
        try {
            return stamp();
        } catch (IOException e) {
            return null;
        }
    }

    /** The file's stamp; null where the file system has no {@code unix} view (nothing is cached there). */
    private Stamp stamp() throws IOException {
        if (!stampsSupported) {
            return null;
        }
        Stamp stamp = stampOf(file);
        if (stamp == null) {
            stampsSupported = false;
        }
        return stamp;
    }

    /** {@code path}'s stamp, by one {@code stat}; null where the file system has no {@code unix} view. */
    private static Stamp stampOf(Path path) throws IOException {
        Map<String, Object> a;
        try {
            a = Files.readAttributes(path, STAMP_ATTRIBUTES);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return null;
        }
        return new Stamp(((Number) a.get("dev")).longValue(), ((Number) a.get("ino")).longValue(),
                ((Number) a.get("size")).longValue(), nanos((FileTime) a.get("lastModifiedTime")),
                nanos((FileTime) a.get("ctime")));
    }

    private static long nanos(FileTime time) {
        return time.to(TimeUnit.NANOSECONDS);
    }

    /**
     * What one {@code stat} says about the file; equal stamps mean the same, unchanged file.
     * {@code equals} is written out: a record's generated one is bootstrapped through method
     * handles on first use, tens of milliseconds of an engine's cold start.
     */
    record Stamp(long device, long inode, long size, long modifiedNanos, long changedNanos) {
        boolean olderThan(long millis) {
            long limit = TimeUnit.MILLISECONDS.toNanos(millis);
            return modifiedNanos < limit && changedNanos < limit;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Stamp o && device == o.device && inode == o.inode && size == o.size
                    && modifiedNanos == o.modifiedNanos && changedNanos == o.changedNanos;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(inode) * 31 + Long.hashCode(modifiedNanos ^ changedNanos ^ size ^ device);
        }
    }

    private record Entry<T>(Stamp stamp, T value) {}

    /**
     * What one {@code stat} of the memory folder says: its identity (device and inode, as the JDK's
     * file key), size and modification time. A folder's modification time moves whenever an entry is
     * added, removed or renamed in it, which is all a folder's stamp answers for here; unlike a
     * file's, it leaves out the change time, read only through the JDK's {@code unix:} attribute map
     * at about a third more per call. What that leaves unseen is an entry added and the folder's
     * time then put back by hand to the very nanosecond; a folder restored from a copy
     * ({@code rsync -a}, {@code cp -a}) gets the copy's time, which is the time of the entries it
     * holds. {@code equals} is written out, as {@link Stamp}'s is.
     */
    record FolderStamp(Object key, long size, long modifiedNanos) {
        @Override
        public boolean equals(Object other) {
            return other instanceof FolderStamp o && size == o.size && modifiedNanos == o.modifiedNanos
                    && key.equals(o.key);
        }

        @Override
        public int hashCode() {
            return key.hashCode() * 31 + Long.hashCode(modifiedNanos ^ size);
        }
    }

    /**
     * The memory folder, stamped once a turn so that the paths found missing in it need no system
     * call of their own while it is unchanged ({@link StampedPath#getOrElse(Object, FolderStamp)}).
     */
    static final class Folder {
        private final Path folder;
        private final Clock wallClock;
        private volatile boolean stampsSupported = true;

        Folder(Path folder, Clock wallClock) {
            this.folder = Objects.requireNonNull(folder, "folder");
            this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
        }

        /**
         * The folder's stamp now, or null when it vouches for nothing: missing, unreadable, on a file
         * system that gives no file key (no inode), or racy (changed within {@link #RACY_WINDOW}).
         */
        FolderStamp stamp() {
            if (!stampsSupported) {
                return null;
            }
            long nowMillis = wallClock.millis();
            BasicFileAttributes attributes;
            try {
                attributes = Files.readAttributes(folder, BasicFileAttributes.class);
            } catch (IOException e) {
                return null;
            }
            Object key = attributes.fileKey();
            if (key == null) {
                stampsSupported = false;
                return null;
            }
            long modified = nanos(attributes.lastModifiedTime());
            return modified < TimeUnit.MILLISECONDS.toNanos(nowMillis - RACY_WINDOW.toMillis())
                    ? new FolderStamp(key, attributes.size(), modified)
                    : null;
        }
    }
}
