package dev.mnemo.store.sqlite;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.SQLException;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * Lets sqlite-jdbc load its native library from a verified per-user copy instead of extracting it
 * from the jar on every JVM start.
 *
 * <p>sqlite-jdbc, left alone, copies its 1 MB library out of the jar into the temp folder under a
 * fresh random name in every process (seeding a {@code SecureRandom}, inflating, comparing the
 * copy byte by byte) after probing the platform (it spawns {@code uname -o} and lists
 * {@code /proc/self/map_files}): well over 100 ms of every cold start. Here, before the first
 * connection, the library is copied once into {@code <java.io.tmpdir>/mnemo-sqlite-native-<user>/},
 * a folder only this user may enter (owner and permissions checked on every use), in a subfolder
 * named after the jar it came from — path, inode, size, modification and change time, so a
 * replaced or rewritten jar gets a new copy (and making it deletes the copies of jars that are gone
 * or changed since); a jar changed within the last two seconds is not trusted at all. Beside the
 * copy a {@code .sum} file records that key and the copy's size and CRC-32, checked on every JVM
 * start (a CRC over 1 MB is well under a millisecond). Which of the jar's libraries fits this
 * platform is remembered in the same folder.
 *
 * <p>sqlite-jdbc is then pointed at the copy with {@code org.sqlite.lib.path} and
 * {@code org.sqlite.lib.name}, and (unless the user set it) {@code org.sqlite.tmpdir} at the copy's
 * own folder: sqlite-jdbc lists that folder on every start to delete libraries that dead processes
 * extracted there, and the shared temp folder can hold hundreds of entries; with no extraction of
 * its own to make, the copy's folder, two files, is the only place it could have left anything.
 * Anything unexpected — the properties already set by the user, the driver not in a local jar, no
 * POSIX file system, a folder owned by someone else, a copy that does not verify — leaves
 * sqlite-jdbc to do what it always does, and a copy that fails to load makes it fall back to its own
 * extraction.
 *
 * <p>{@link #preload()} is reached through {@link SqliteMemoryStore#preload()}; opening a store
 * needs no call: it prepares the library itself.
 */
final class SqliteNativeLibrary {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteNativeLibrary.class);
    private static final String PATH_PROPERTY = "org.sqlite.lib.path";
    private static final String NAME_PROPERTY = "org.sqlite.lib.name";
    /** Where sqlite-jdbc extracts its library, and which it lists on every start for copies left behind. */
    static final String TEMP_FOLDER_PROPERTY = "org.sqlite.tmpdir";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private static final long RACY_WINDOW_NANOS = 2_000_000_000L;

    private static volatile boolean prepared;

    private SqliteNativeLibrary() {}

    /**
     * Does now, on the calling thread, what the first connection of this JVM would do before it
     * opens its file: {@link #prepare() points} sqlite-jdbc at the cached library, then opens and
     * closes an in-memory database, which loads the library and the driver's classes (and the
     * JDK's locale data its date format reads). Nothing on disk is opened but the cached copy.
     * Idempotent and thread-safe; never fails: what goes wrong here is met again, and reported, by
     * the first real connection.
     */
    static void preload() {
        prepare();
        try {
            new SQLiteConfig().createConnection("jdbc:sqlite::memory:").close();
        } catch (SQLException | RuntimeException | LinkageError e) {
            LOG.debug("sqlite native library: preloading failed ({}); the first connection tries again", e.toString());
        }
    }

    /** Once per JVM, before the first connection. Never fails: at worst sqlite-jdbc extracts as usual. */
    static void prepare() {
        if (prepared) {
            return;
        }
        synchronized (SqliteNativeLibrary.class) {
            if (prepared) {
                return;
            }
            try {
                pointDriverAtCachedCopy();
            } catch (IOException | RuntimeException e) {
                LOG.debug("sqlite native library: no cached copy ({}); the driver extracts its own", e.toString());
            }
            prepared = true;
        }
    }

    private static void pointDriverAtCachedCopy() throws IOException {
        if (System.getProperty(PATH_PROPERTY) != null || System.getProperty(NAME_PROPERTY) != null) {
            return; // the user chose a library
        }
        Path library = cachedCopy(Path.of(System.getProperty("java.io.tmpdir"),
                "mnemo-sqlite-native-" + System.getProperty("user.name", "user")));
        if (library == null) {
            return;
        }
        System.setProperty(PATH_PROPERTY, library.getParent().toString());
        System.setProperty(NAME_PROPERTY, library.getFileName().toString());
        if (System.getProperty(TEMP_FOLDER_PROPERTY) == null) {
            System.setProperty(TEMP_FOLDER_PROPERTY, library.getParent().toString());
        }
    }

    /**
     * The verified copy of this platform's library under {@code rootFolder} (made or repaired if
     * needed), or null when there is none to trust.
     */
    static Path cachedCopy(Path rootFolder) throws IOException {
        Path root = privateFolder(rootFolder);
        if (root == null) {
            return null;
        }
        String name = LibraryLoaderUtil.getNativeLibName();
        String resource = platformResourcePath(root) + "/" + name;
        URL url = LibraryLoaderUtil.class.getResource(resource);
        Path jarFile = url == null ? null : localJar(url);
        String jar = jarFile == null ? null : jarStamp(jarFile);
        if (jar == null) {
            return null;
        }
        String key = jar + "|" + resource;
        Path folder = root.resolve("lib-" + Long.toHexString(crc(key.getBytes(StandardCharsets.UTF_8))));
        Path library = folder.resolve(name);
        Path sum = folder.resolve(name + ".sum");
        if (verified(library, sum, key)) {
            return library;
        }
        // Extracted through the class loader's own open jar: no second read of a large jar's directory.
        Files.createDirectories(folder);
        Path partial = Files.createTempFile(folder, name, ".partial");
        Path partialSum = Files.createTempFile(folder, name, ".sum.partial");
        try {
            CRC32 checksum = new CRC32();
            long size;
            try (InputStream in = new CheckedInputStream(LibraryLoaderUtil.class.getResourceAsStream(resource), checksum)) {
                size = Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.write(partialSum, List.of(key, checksum.getValue() + " " + size), StandardCharsets.UTF_8);
            Files.move(partial, library, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            Files.move(partialSum, sum, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(partial);
            Files.deleteIfExists(partialSum);
        }
        removeCopiesOfChangedJars(root, folder, name);
        return verified(library, sum, key) ? library : null;
    }

    /**
     * Deletes the copies kept for jars that are gone or have changed since (rebuilt, upgraded):
     * their key can never match again, so nothing would load them, and each would otherwise stay
     * behind (a megabyte a build). Runs only when a new copy is made. A copy that cannot be judged
     * (no readable checksum file, its jar changed within the last two seconds) is kept, and a
     * failure only leaves copies in place.
     */
    private static void removeCopiesOfChangedJars(Path root, Path kept, String name) {
        try (DirectoryStream<Path> folders = Files.newDirectoryStream(root, "lib-*")) {
            for (Path folder : folders) {
                if (!folder.equals(kept) && Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)
                        && jarChangedSince(folder.resolve(name + ".sum"))) {
                    deleteCopy(folder);
                    LOG.debug("sqlite native library: removed {}, kept for a jar that is gone or changed", folder);
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.debug("sqlite native library: could not remove copies of changed jars ({})", e.toString());
        }
    }

    /**
     * True when {@code sum} records a jar that no longer exists, or exists with another stamp. Its
     * first line is the key: the {@linkplain #jarStamp jar's stamp} (path, inode, size, both times;
     * only the path may hold a {@code |}), then {@code |} and the resource.
     */
    private static boolean jarChangedSince(Path sum) throws IOException {
        if (!Files.isRegularFile(sum, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        List<String> lines = Files.readAllLines(sum, StandardCharsets.UTF_8);
        String key = lines.isEmpty() ? "" : lines.get(0);
        int stampEnd = key.lastIndexOf('|');
        int pathEnd = stampEnd;
        for (int field = 0; field < 4 && pathEnd > 0; field++) {
            pathEnd = key.lastIndexOf('|', pathEnd - 1);
        }
        if (pathEnd <= 0) {
            return false;
        }
        Path jar = Path.of(key.substring(0, pathEnd));
        if (!Files.exists(jar)) {
            return true;
        }
        String stamp = jarStamp(jar);
        return stamp != null && !stamp.equals(key.substring(0, stampEnd));
    }

    private static void deleteCopy(Path folder) throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
            for (Path file : files) {
                Files.deleteIfExists(file);
            }
        }
        Files.deleteIfExists(folder);
    }

    /** The local jar file holding {@code url}, or null when it is not in one. */
    private static Path localJar(URL url) {
        String spec = url.toString();
        int bang = spec.indexOf("!/");
        if (!spec.startsWith("jar:file:") || bang < 0) {
            return null;
        }
        try {
            return Path.of(new URI(spec.substring("jar:".length(), bang)));
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }

    /**
     * {@code jar}'s path, inode, size and both times, or null when it has no {@code unix} view or
     * changed within the last two seconds (a rewrite in the same clock tick could keep every field:
     * git's racy-clean rule).
     */
    private static String jarStamp(Path jar) throws IOException {
        Map<String, Object> a;
        try {
            a = Files.readAttributes(jar, "unix:ino,size,lastModifiedTime,ctime");
        } catch (UnsupportedOperationException | IllegalArgumentException e) {
            return null;
        }
        long modified = ((FileTime) a.get("lastModifiedTime")).to(TimeUnit.NANOSECONDS);
        long changed = ((FileTime) a.get("ctime")).to(TimeUnit.NANOSECONDS);
        long racyLimit = TimeUnit.MILLISECONDS.toNanos(System.currentTimeMillis()) - RACY_WINDOW_NANOS;
        if (modified >= racyLimit || changed >= racyLimit) {
            return null;
        }
        return jar + "|" + a.get("ino") + "|" + a.get("size") + "|" + modified + "|" + changed;
    }

    /** True when {@code sum} was written for {@code key} and {@code library} has the size and CRC-32 it records. */
    private static boolean verified(Path library, Path sum, String key) throws IOException {
        if (!Files.isRegularFile(sum, LinkOption.NOFOLLOW_LINKS)
                || !Files.isRegularFile(library, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        List<String> lines = Files.readAllLines(sum, StandardCharsets.UTF_8);
        if (lines.size() != 2 || !lines.get(0).equals(key)) {
            return false;
        }
        byte[] bytes = Files.readAllBytes(library);
        return lines.get(1).equals(crc(bytes) + " " + bytes.length);
    }

    private static long crc(byte[] bytes) {
        CRC32 checksum = new CRC32();
        checksum.update(bytes);
        return checksum.getValue();
    }

    /**
     * sqlite-jdbc's resource folder for this platform ({@code /org/sqlite/native/Linux/x86_64}).
     * Its own answer spawns {@code uname -o}, lists {@code /proc/self/map_files} and reads
     * {@code /etc/os-release} (tens of milliseconds), so it is remembered in the private folder under
     * a key naming the JVM: {@code os.name}, {@code os.arch}, {@code java.home} and the inode, size
     * and time of its {@code libjvm} (a musl and a glibc JDK never share one). A wrong memo would
     * only make the load fail, and sqlite-jdbc then extracts its library as usual.
     */
    private static String platformResourcePath(Path root) throws IOException {
        String key = String.join("|", System.getProperty("os.name"), System.getProperty("os.arch"),
                System.getProperty("java.home"), jvmStamp());
        Path memo = root.resolve("platform-" + Long.toHexString(crc(key.getBytes(StandardCharsets.UTF_8))) + ".txt");
        if (Files.isRegularFile(memo, LinkOption.NOFOLLOW_LINKS)) {
            List<String> lines = Files.readAllLines(memo, StandardCharsets.UTF_8);
            if (lines.size() == 2 && lines.get(0).equals(key)) {
                return lines.get(1);
            }
        }
        String resourcePath = LibraryLoaderUtil.getNativeLibResourcePath();
        Path partial = Files.createTempFile(root, "platform-", ".partial");
        try {
            Files.write(partial, List.of(key, resourcePath), StandardCharsets.UTF_8);
            Files.move(partial, memo, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(partial);
        }
        return resourcePath;
    }

    private static String jvmStamp() throws IOException {
        Path home = Path.of(System.getProperty("java.home"));
        for (String vm : List.of("server", "client", "minimal", "zero")) {
            Path jvm = home.resolve("lib").resolve(vm).resolve(System.mapLibraryName("jvm"));
            if (Files.isRegularFile(jvm)) {
                BasicFileAttributes a = Files.readAttributes(jvm, BasicFileAttributes.class);
                return vm + ":" + a.fileKey() + ":" + a.size() + ":" + a.lastModifiedTime().toMillis();
            }
        }
        return "no-libjvm";
    }

    /** {@code folder}, created owner-only if missing; null unless it is a real folder of ours that only we can use. */
    private static Path privateFolder(Path folder) throws IOException {
        if (!Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
            try {
                Files.createDirectory(folder, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            } catch (UnsupportedOperationException e) {
                return null;
            }
        }
        if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        String owner = Files.getOwner(folder, LinkOption.NOFOLLOW_LINKS).getName();
        Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(folder, LinkOption.NOFOLLOW_LINKS);
        boolean ours = owner.equals(System.getProperty("user.name"));
        boolean privateToUs = EnumSet.copyOf(OWNER_ONLY).containsAll(permissions);
        return ours && privateToUs ? folder : null;
    }

}
