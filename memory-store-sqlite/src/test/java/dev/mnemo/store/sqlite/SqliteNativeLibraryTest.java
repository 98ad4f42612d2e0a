package dev.mnemo.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;

/** The per-user copy of sqlite-jdbc's native library is used only when it is provably the jar's. */
class SqliteNativeLibraryTest {

    @TempDir
    Path temp;

    @Test
    void preload_onSeveralThreadsAtOnce_leavesTheDriverLoadedAndAStoreOpens() throws Exception {
        List<Thread> threads = List.of(new Thread(SqliteNativeLibrary::preload), new Thread(SqliteNativeLibrary::preload));
        threads.forEach(Thread::start);
        SqliteNativeLibrary.preload();
        for (Thread thread : threads) {
            thread.join();
        }

        assertThat(SQLiteJDBCLoader.isNativeMode()).isTrue();
        try (SqliteMemoryStore store = SqliteMemoryStore.open(temp.resolve("home/mnemo.sqlite"))) {
            assertThat(store.status(Instant.EPOCH).stage1Outputs()).isZero();
        }
        assertThat(temp.resolve("home")).isDirectoryContaining(path -> path.getFileName().toString().equals("mnemo.sqlite"));
    }

    @Test
    void preload_pointsTheDriversTempFolderAtTheCopysOwnFolder_soItsStartupSweepListsNoSharedFolder() {
        SqliteNativeLibrary.preload();

        Path root = Path.of(System.getProperty("java.io.tmpdir"),
                "mnemo-sqlite-native-" + System.getProperty("user.name", "user"));
        Path copyFolder = Path.of(System.getProperty("org.sqlite.lib.path"));
        assertThat(copyFolder).startsWith(root);
        assertThat(copyFolder.getParent()).isEqualTo(root);
        assertThat(System.getProperty(SqliteNativeLibrary.TEMP_FOLDER_PROPERTY)).isEqualTo(copyFolder.toString());
    }

    @Test
    void cachedCopy_isMadeOnceAndReusedUnchanged() throws IOException {
        Path root = temp.resolve("native");

        Path first = SqliteNativeLibrary.cachedCopy(root);
        FileTime written = Files.getLastModifiedTime(first);
        Path second = SqliteNativeLibrary.cachedCopy(root);

        assertThat(second).isEqualTo(first);
        assertThat(Files.getLastModifiedTime(second)).isEqualTo(written);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root))).isEqualTo("rwx------");
    }

    @Test
    void cachedCopy_replacesACopyAlteredWithTheSameSizeAndModificationTime() throws IOException {
        Path root = temp.resolve("native");
        Path library = SqliteNativeLibrary.cachedCopy(root);
        byte[] original = Files.readAllBytes(library);
        FileTime written = Files.getLastModifiedTime(library);
        byte[] altered = original.clone();
        altered[altered.length / 2] ^= 0x5a;
        Files.write(library, altered);
        Files.setLastModifiedTime(library, written);

        Path again = SqliteNativeLibrary.cachedCopy(root);

        assertThat(again).isEqualTo(library);
        assertThat(Files.readAllBytes(again)).isEqualTo(original);
    }

    @Test
    void cachedCopy_madeAnew_removesTheCopiesOfJarsThatAreGoneOrChanged_andKeepsTheRest() throws IOException {
        Path root = temp.resolve("native");
        Path library = SqliteNativeLibrary.cachedCopy(root);
        String name = library.getFileName().toString();
        String key = Files.readAllLines(library.resolveSibling(name + ".sum")).get(0); // jar|inode|size|mtime|ctime|resource
        String stamp = key.substring(0, key.lastIndexOf('|'));
        String jarPath = stamp;
        for (int field = 0; field < 4; field++) {
            jarPath = jarPath.substring(0, jarPath.lastIndexOf('|'));
        }
        Path gone = copyFor(root, "lib-gone", name, temp.resolve("deleted.jar") + "|1|2|3|4|/org/sqlite/native/X/y/" + name);
        Path changed = copyFor(root, "lib-changed", name, jarPath + "|1|2|3|4|/org/sqlite/native/X/y/" + name);
        Path sameJar = copyFor(root, "lib-same", name, stamp + "|/org/sqlite/native/Other/arch/" + name);
        Path unreadable = Files.createDirectories(root.resolve("lib-nosum"));

        Files.delete(library.resolveSibling(name + ".sum")); // the next call makes the copy anew
        Path again = SqliteNativeLibrary.cachedCopy(root);

        assertThat(again).isEqualTo(library).isRegularFile();
        assertThat(gone).doesNotExist();
        assertThat(changed).doesNotExist();
        assertThat(sameJar).isDirectory();
        assertThat(unreadable).isDirectory();
    }

    /** A copy's folder as another jar would have left it: a library and its checksum file with {@code key}. */
    private static Path copyFor(Path root, String folderName, String libraryName, String key) throws IOException {
        Path folder = Files.createDirectories(root.resolve(folderName));
        Files.write(folder.resolve(libraryName), new byte[] {1, 2, 3});
        Files.write(folder.resolve(libraryName + ".sum"), List.of(key, "0 3"));
        return folder;
    }

    @Test
    void cachedCopy_refusesAFolderOthersCanWriteTo() throws IOException {
        Path root = Files.createDirectory(temp.resolve("shared"));
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxrwxrwx"));

        assertThat(SqliteNativeLibrary.cachedCopy(root)).isNull();
    }

    @Test
    void cachedCopy_refusesASymbolicLinkInPlaceOfTheFolder() throws IOException {
        Path elsewhere = Files.createDirectory(temp.resolve("elsewhere"));
        Path root = Files.createSymbolicLink(temp.resolve("native"), elsewhere);

        assertThat(SqliteNativeLibrary.cachedCopy(root)).isNull();
    }

    @Test
    void cachedCopy_remembersThePlatformAndTrustsNoMemoThatNamesNoLibrary() throws IOException {
        Path root = temp.resolve("native");
        Path library = SqliteNativeLibrary.cachedCopy(root);
        Path memo;
        try (var files = Files.list(root)) {
            memo = files.filter(p -> p.getFileName().toString().startsWith("platform-")).findFirst().orElseThrow();
        }
        List<String> lines = Files.readAllLines(memo);
        assertThat(lines.get(1)).startsWith("/org/sqlite/native/");
        assertThat(SqliteNativeLibrary.cachedCopy(root)).isEqualTo(library);

        Files.write(memo, List.of(lines.get(0), "/org/sqlite/native/Nowhere/none"));

        assertThat(SqliteNativeLibrary.cachedCopy(root)).isNull();
    }
}
