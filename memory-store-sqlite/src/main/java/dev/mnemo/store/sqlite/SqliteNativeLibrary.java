package dev.mnemo.store.sqlite;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
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
 * {@code org.sqlite.lib.name}. Anything unexpected — the properties already set by the user, the
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
        String name = LibraryLoaderUtil.getNativeLibName();
        String resource = LibraryLoaderUtil.getNativeLibResourcePath() + "/" + name;
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
        Path root = privateFolder(rootFolder);
        if (root == null) {
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
