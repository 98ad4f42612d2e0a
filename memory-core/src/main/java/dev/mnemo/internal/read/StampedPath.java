package dev.mnemo.internal.read;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
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
 * exception per turn would cost more than the whole read.
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
    /** The last trusted entry, or null. Entries are immutable, so readers need no lock. */
    private volatile Entry<T> cached;
    private volatile boolean stampsSupported = true;
    /** The last call found the path missing: the next one asks {@link java.io.File#exists()} first. */
    private volatile boolean missing;

    /**
     * @param file the file or folder
     * @param wallClock the clock file times are compared with (the system clock in production:
     *     file systems stamp files with it)
     * @param loader what to derive from the path; called again only after a change
     */
    StampedPath(Path file, Clock wallClock, Loader<T> loader) {
        this.file = Objects.requireNonNull(file, "file");
        this.wallClock = Objects.requireNonNull(wallClock, "wallClock");
        this.loader = Objects.requireNonNull(loader, "loader");
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
        if (missing && !file.toFile().exists()) {
            return absent;
        }
        try {
            T value = get();
            missing = false;
            return value;
        } catch (NoSuchFileException e) {
            missing = true;
            return absent;
        }
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
        Map<String, Object> a;
        try {
            a = Files.readAttributes(file, STAMP_ATTRIBUTES);
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            stampsSupported = false;
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
    private record Stamp(long device, long inode, long size, long modifiedNanos, long changedNanos) {
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
}
