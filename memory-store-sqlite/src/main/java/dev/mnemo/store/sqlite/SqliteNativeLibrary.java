package dev.mnemo.store.sqlite;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * Lets sqlite-jdbc load its native library from a verified per-user copy instead of extracting it
 * from the jar on every JVM start.
 *
 * <p>sqlite-jdbc, left alone, copies its 1 MB library out of the jar into the temp folder under a
 * fresh random name in every process (seeding a {@code SecureRandom}, inflating, comparing the
 * copy byte by byte): about 150 ms of every cold start. Here, before the first connection, the
 * library is copied once into {@code <java.io.tmpdir>/mnemo-sqlite-native-<user>/}, a folder only
 * this user may enter, named after the jar entry's CRC-32 and size; each JVM checks the folder's
 * owner and permissions and the copy's size and CRC-32 against the jar entry (a CRC over 1 MB is
 * well under a millisecond) and points sqlite-jdbc at it with {@code org.sqlite.lib.path} and
 * {@code org.sqlite.lib.name}. Which of the jar's libraries fits this platform is remembered there
 * too (sqlite-jdbc's own probe runs a process). Anything unexpected — the properties already set by the user, the
 * driver not in a jar, no POSIX file system, a folder owned by someone else, a mismatching copy
 * that cannot be replaced — leaves sqlite-jdbc to do what it always does.
 */
final class SqliteNativeLibrary {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteNativeLibrary.class);
    private static final String PATH_PROPERTY = "org.sqlite.lib.path";
    private static final String NAME_PROPERTY = "org.sqlite.lib.name";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    private static volatile boolean prepared;

    private SqliteNativeLibrary() {}

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
        if (library != null) {
            System.setProperty(PATH_PROPERTY, library.getParent().toString());
            System.setProperty(NAME_PROPERTY, library.getFileName().toString());
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
        if (url == null || !"jar".equals(url.getProtocol())) {
            return null;
        }
        URLConnection connection = url.openConnection();
        if (!(connection instanceof JarURLConnection jar)) {
            return null;
        }
        JarEntry entry = jar.getJarEntry();
        long crc = entry.getCrc();
        long size = entry.getSize();
        if (crc < 0 || size < 0) {
            return null;
        }
        Path folder = root.resolve(Long.toHexString(crc) + "-" + size);
        Path library = folder.resolve(name);
        if (!matches(library, crc, size)) {
            Files.createDirectories(folder);
            Path partial = Files.createTempFile(folder, name, ".partial");
            try {
                try (InputStream in = connection.getInputStream()) {
                    Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
                }
                if (!matches(partial, crc, size)) {
                    return null;
                }
                Files.move(partial, library, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } finally {
                Files.deleteIfExists(partial);
            }
        }
        return library;
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
        CRC32 keyHash = new CRC32();
        keyHash.update(key.getBytes(StandardCharsets.UTF_8));
        Path memo = root.resolve("platform-" + Long.toHexString(keyHash.getValue()) + ".txt");
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

    /** True when {@code file} is a regular file with exactly the jar entry's size and CRC-32. */
    private static boolean matches(Path file, long crc, long size) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) != size) {
            return false;
        }
        CRC32 checksum = new CRC32();
        checksum.update(Files.readAllBytes(file));
        return checksum.getValue() == crc;
    }
}
