package dev.mnemo.store.sqlite;

import dev.mnemo.MemoryStoreException;
import dev.mnemo.spi.OwnerOnlyFiles;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The first 100 bytes of an SQLite file, read before any connection: whether the file is an SQLite
 * database at all, and the schema version {@code PRAGMA user_version} records in it, which lets
 * {@link SqliteDatabase} open a current file without connecting.
 */
final class SqliteFileHeader {

    private static final byte[] SQLITE_HEADER = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);
    /** The database header's length, and where in it {@code PRAGMA user_version} keeps its 4 bytes (big-endian). */
    private static final int HEADER_BYTES = 100;
    private static final int USER_VERSION_OFFSET = 60;

    private SqliteFileHeader() {}

    /**
     * A missing or empty file becomes a new database; anything else must carry SQLite's header.
     *
     * @return the schema version the file's header records ({@code user_version}, stamped by
     *     {@link SqliteDatabase} after migrating), 0 for a new file or one never stamped. Only a
     *     checkpoint writes the header, and only with committed pages, so a file that says it is
     *     current is; one whose newer header still waits in the {@code -wal} reads as older and is
     *     checked with SQL.
     */
    static int requireSqliteOrEmpty(Path file) {
        if (Files.isDirectory(file)) {
            throw new MemoryStoreException("the state database path " + file + " is a directory");
        }
        if (!Files.exists(file)) {
            try {
                OwnerOnlyFiles.createFolders(file.getParent());
            } catch (IOException e) {
                throw new MemoryStoreException("cannot create the folder of the state database " + file + ": "
                        + e.getMessage(), e);
            }
            return 0;
        }
        byte[] header = new byte[HEADER_BYTES];
        int read;
        try (InputStream in = Files.newInputStream(file)) {
            read = in.readNBytes(header, 0, header.length);
        } catch (IOException e) {
            throw new MemoryStoreException("cannot read the state database " + file + ": " + e.getMessage(), e);
        }
        if (read == 0) {
            return 0;
        }
        if (read < SQLITE_HEADER.length || !Arrays.equals(header, 0, SQLITE_HEADER.length, SQLITE_HEADER, 0,
                SQLITE_HEADER.length)) {
            throw new MemoryStoreException("the state database " + file
                    + " is not an SQLite database (wrong file header); it was left untouched");
        }
        return read < HEADER_BYTES || !wellFormed(header) ? 0 : ByteBuffer.wrap(header, USER_VERSION_OFFSET, 4).getInt();
    }

    /**
     * Whether the header's fixed fields hold what SQLite writes (a page size that is a power of two
     * from 512 to 65,536, and the payload fractions 64, 32 and 32): a file whose first bytes only
     * look like SQLite's is then not trusted for its version, but opened and checked with SQL.
     */
    private static boolean wellFormed(byte[] header) {
        int pageSize = ((header[16] & 0xff) << 8) | (header[17] & 0xff);
        boolean pageSizeValid = pageSize == 1 || (pageSize >= 512 && Integer.bitCount(pageSize) == 1);
        return pageSizeValid && header[21] == 64 && header[22] == 32 && header[23] == 32;
    }
}
