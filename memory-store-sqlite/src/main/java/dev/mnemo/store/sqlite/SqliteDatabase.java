package dev.mnemo.store.sqlite;

import dev.mnemo.MemoryStoreException;
import dev.mnemo.spi.OwnerOnlyFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * One SQLite file: its connections, its migrations and its transactions.
 *
 * <p>Connections: each operation borrows a connection from a small idle pool (at most
 * {@link #MAX_IDLE} kept open) and returns it afterwards, so concurrent callers never share a
 * connection and opening cost is paid rarely. Every connection is set up the same way
 * (see {@link #newConnection()}) and keeps the statements compiled on it ({@link PooledConnection}).
 * A connection that saw an error is closed, not returned.
 *
 * <p>Transactions: connections stay in auto-commit mode; writes run between
 * {@code BEGIN IMMEDIATE} and {@code COMMIT} issued here, so the write lock is taken up front
 * (waiting up to the busy timeout) and never held while idle. Several processes may share the file.
 */
final class SqliteDatabase implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteDatabase.class);

    static final int BUSY_TIMEOUT_MS = 10_000;
    private static final int CHECKPOINT_BUSY_TIMEOUT_MS = 1_000;
    /**
     * Idle connections kept open: as many as Phase 1's default concurrency, so its workers finishing
     * together return their connections (and the statements compiled on them) instead of closing them.
     */
    private static final int MAX_IDLE = 8;
    private static final String MIGRATIONS = "classpath:dev/mnemo/store/sqlite/migration";
    private static final String HISTORY_TABLE = "mnemo_schema_history";
    /** The newest migration's version; an up-to-date file skips Flyway (and its log lines) on open. */
    static final String SCHEMA_VERSION = "10";
    /** The state database's schema: {@code mnemo.sqlite}. */
    static final Schema STATE = new Schema("state database", MIGRATIONS, HISTORY_TABLE, SCHEMA_VERSION);
    /** Serialises migrations inside this JVM; the lock file does it across processes. */
    private static final Object MIGRATION_MONITOR = new Object();

    /** SQLite's own {@code wal_autocheckpoint}, in pages. */
    static final int DEFAULT_WAL_AUTOCHECKPOINT_PAGES = 1_000;

    /**
     * A file's schema: its migrations, their history table and the newest version. Each SQLite file
     * of a home ({@code mnemo.sqlite}, {@code goals.sqlite}) has its own.
     *
     * @param walAutocheckpointPages how large the {@code -wal} file grows, in pages, before a commit
     *     copies it back into the database ({@code PRAGMA wal_autocheckpoint})
     */
    record Schema(String what, String migrations, String historyTable, String version, int walAutocheckpointPages) {
        Schema(String what, String migrations, String historyTable, String version) {
            this(what, migrations, historyTable, version, DEFAULT_WAL_AUTOCHECKPOINT_PAGES);
        }

        /** {@link #version()} as the number stamped in the file's {@code user_version}. */
        int versionNumber() {
            return Integer.parseInt(version);
        }
    }

    /** Work done on a borrowed connection. */
    @FunctionalInterface
    interface Work<T> {
        T run(PooledConnection connection) throws SQLException;
    }

    private final Path file;
    private final Schema schema;
    private final String url;
    private final ConcurrentLinkedDeque<PooledConnection> idle = new ConcurrentLinkedDeque<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Held around each write transaction of this JVM (see {@link #write}); other processes still wait in SQLite. */
    private final ReentrantLock writers = new ReentrantLock();
    /** Opened by {@link #openReadOnly}: connections are read-only, nothing was migrated. */
    private final boolean readOnly;

    private SqliteDatabase(Path file, Schema schema, boolean readOnly) {
        this(file, schema, readOnly, "jdbc:sqlite:" + file);
    }

    private SqliteDatabase(Path file, Schema schema, boolean readOnly, String url) {
        this.file = file;
        this.schema = schema;
        this.url = url;
        this.readOnly = readOnly;
    }

    /** Opens the state database file (creating it when missing), refusing anything that is not an SQLite database. */
    static SqliteDatabase open(Path file) {
        return open(file, STATE);
    }

    /** {@link #open(Path)} for a file of another {@code schema}. */
    static SqliteDatabase open(Path file, Schema schema) {
        Path absolute = file.toAbsolutePath().normalize();
        int stampedVersion = SqliteFileHeader.requireSqliteOrEmpty(absolute);
        ownerOnly(absolute);
        SqliteDatabase database = new SqliteDatabase(absolute, schema, false);
        if (stampedVersion >= schema.versionNumber()) {
            // The file says its schema is current: no connection yet, the first operation opens one.
            return database;
        }
        try {
            database.migrate();
        } catch (RuntimeException e) {
            database.close();
            throw e;
        }
        return database;
    }

    /**
     * Opens an existing file for reading only: no folder or file is created, no migration runs,
     * every connection is read-only (a write fails), and the journal mode is left as the file has
     * it. For commands that only look ({@code mnemo status}, {@code logs}, {@code threads}).
     *
     * @throws MemoryStoreException when the file does not exist or is not an SQLite database
     */
    static SqliteDatabase openReadOnly(Path file, Schema schema) {
        Path absolute = file.toAbsolutePath().normalize();
        if (!Files.isRegularFile(absolute)) {
            throw new MemoryStoreException("the " + schema.what() + " " + absolute + " does not exist");
        }
        SqliteFileHeader.requireSqliteOrEmpty(absolute);
        // A reader of a WAL database creates -wal and -shm beside it and leaves them there. With no
        // -wal now, no engine has the file open and every row is in the file itself: it is read as
        // immutable, creating nothing (a writer that starts meanwhile is not seen by this short read).
        // With a -wal, an engine is writing: read through it, as any reader does.
        boolean walInUse = Files.exists(absolute.resolveSibling(absolute.getFileName() + "-wal"));
        String url = walInUse ? "jdbc:sqlite:" + absolute : "jdbc:sqlite:" + absolute.toUri() + "?immutable=1";
        return new SqliteDatabase(absolute, schema, true, url);
    }

    Path file() {
        return file;
    }

    /**
     * The file at 0600, created empty when missing (an empty file is a new database), and its
     * {@code -wal} and {@code -shm} set to 0600 too when they exist: SQLite creates them later with
     * the database file's mode.
     */
    private static void ownerOnly(Path file) {
        try {
            OwnerOnlyFiles.createFile(file);
        } catch (IOException e) {
            throw new MemoryStoreException("cannot create the database file " + file + ": " + e.getMessage(), e);
        }
        OwnerOnlyFiles.restrictFile(file.resolveSibling(file.getFileName() + "-wal"));
        OwnerOnlyFiles.restrictFile(file.resolveSibling(file.getFileName() + "-shm"));
    }

    boolean readOnly() {
        return readOnly;
    }

    /** Runs {@code work} outside an explicit transaction (one statement is its own snapshot). */
    <T> T read(String what, Work<T> work) {
        return withConnection(what, work);
    }

    /** Runs several reads of {@code work} in one read transaction, so they see one snapshot. */
    <T> T readSnapshot(String what, Work<T> work) {
        return inTransaction(what, "BEGIN", work);
    }

    /**
     * Runs {@code work} in one {@code BEGIN IMMEDIATE} transaction; rolls back on any failure.
     * Writers of this JVM take turns on {@link #writers} first: SQLite's busy handler would make a
     * writer that finds the lock taken sleep for 1, 2, 5, 10… ms however soon it is released, which
     * is most of the time of short transactions run from several threads (Phase 1's jobs).
     */
    <T> T write(String what, Work<T> work) {
        writers.lock();
        try {
            return inTransaction(what, "BEGIN IMMEDIATE", work);
        } finally {
            writers.unlock();
        }
    }

    private <T> T inTransaction(String what, String begin, Work<T> work) {
        return withConnection(what, connection -> {
            connection.execute(begin);
            T result;
            try {
                result = work.run(connection);
                connection.execute("COMMIT");
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(connection, e);
                throw e;
            }
            return result;
        });
    }

    /**
     * Copies the WAL back into the database file and truncates it, so forgotten rows do not linger
     * in {@code -wal}. Best effort: a busy database only logs.
     */
    void checkpointBestEffort() {
        if (readOnly) {
            return;
        }
        try {
            withConnection("checkpoint", connection -> {
                connection.executeOnce("PRAGMA busy_timeout = " + CHECKPOINT_BUSY_TIMEOUT_MS);
                try (Statement statement = connection.jdbc().createStatement();
                        var rows = statement.executeQuery("PRAGMA wal_checkpoint(TRUNCATE)")) {
                    if (rows.next() && rows.getInt(1) != 0) {
                        LOG.debug("WAL checkpoint of {} was blocked by another connection; it runs later", file);
                    }
                } finally {
                    connection.executeOnce("PRAGMA busy_timeout = " + BUSY_TIMEOUT_MS);
                }
                return null;
            });
        } catch (MemoryStoreException e) {
            LOG.warn("WAL checkpoint of {} failed (best effort): {}", file, e.getMessage());
        }
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            PooledConnection connection;
            while ((connection = idle.poll()) != null) {
                closeQuietly(connection);
            }
        }
    }

    private <T> T withConnection(String what, Work<T> work) {
        if (closed.get()) {
            throw new IllegalStateException("the " + schema.what() + " " + file + " is closed");
        }
        PooledConnection connection = borrow();
        boolean healthy = false;
        try {
            T result = work.run(connection);
            healthy = true;
            return result;
        } catch (SQLException e) {
            throw new MemoryStoreException(schema.what() + " " + file + ": " + what + " failed: " + e.getMessage(), e);
        } finally {
            giveBack(connection, healthy);
        }
    }

    private PooledConnection borrow() {
        PooledConnection connection = idle.poll();
        if (connection != null) {
            return connection;
        }
        try {
            return newConnection();
        } catch (SQLException e) {
            throw new MemoryStoreException("cannot open the " + schema.what() + " " + file + ": " + e.getMessage(), e);
        }
    }

    private void giveBack(PooledConnection connection, boolean healthy) {
        if (healthy && !closed.get() && idle.size() < MAX_IDLE) {
            idle.push(connection);
            // close() may have drained the pool between the check and the push
            if (closed.get() && idle.remove(connection)) {
                closeQuietly(connection);
            }
            return;
        }
        closeQuietly(connection);
    }

    /** A connection with the pragmas every Mnemo connection runs with. */
    private PooledConnection newConnection() throws SQLException {
        SqliteNativeLibrary.prepare();
        SQLiteConfig config = new SQLiteConfig();
        config.setBusyTimeout(BUSY_TIMEOUT_MS);
        // On by default, and then sqlite-jdbc follows every INSERT with a statement of its own,
        // compiled, run and finalised each time (SELECT last_insert_rowid()); the store never asks.
        config.setGetGeneratedKeys(false);
        config.setReadOnly(readOnly);
        PooledConnection connection = new PooledConnection(config.createConnection(url));
        try {
            if (readOnly) {
                connection.executeOnce("PRAGMA foreign_keys = ON");
                return connection;
            }
            connection.executeOnce("PRAGMA journal_mode = WAL");
            connection.executeOnce("PRAGMA synchronous = NORMAL");
            connection.executeOnce("PRAGMA foreign_keys = ON");
            connection.executeOnce("PRAGMA secure_delete = ON");
            if (schema.walAutocheckpointPages() != DEFAULT_WAL_AUTOCHECKPOINT_PAGES) {
                connection.executeOnce("PRAGMA wal_autocheckpoint = " + schema.walAutocheckpointPages());
            }
            return connection;
        } catch (SQLException e) {
            closeQuietly(connection);
            throw e;
        }
    }

    /**
     * Applies the store's Flyway migrations (own location, own history table), one process at a
     * time: Flyway does not lock SQLite, so a sibling lock file serialises concurrent first opens.
     */
    @SuppressWarnings("try") // the FileLock is held by the try block, not read in it
    private void migrate() {
        // The first connection switches the file to WAL before Flyway creates anything; a file whose
        // schema is current (or newer: migrated by a later Mnemo) needs no Flyway at all.
        if (withConnection("open", this::schemaIsCurrent)) {
            stampVersion(); // a file migrated before versions were stamped: the next open needs no query
            return;
        }
        Path lockFile = file.resolveSibling(file.getFileName() + ".migration-lock");
        synchronized (MIGRATION_MONITOR) {
            try {
                OwnerOnlyFiles.createFile(lockFile);
            } catch (IOException e) {
                throw new MemoryStoreException("cannot create " + lockFile + " to migrate the " + schema.what() + " "
                        + file + ": " + e.getMessage(), e);
            }
            try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                    FileLock ignored = channel.lock()) {
                SQLiteDataSource dataSource = new SQLiteDataSource();
                dataSource.setUrl(url);
                dataSource.setBusyTimeout(BUSY_TIMEOUT_MS);
                var result = Flyway.configure(SqliteDatabase.class.getClassLoader())
                        .dataSource(dataSource)
                        .locations(schema.migrations())
                        .table(schema.historyTable())
                        // Codex's ignore_missing: versions a newer Mnemo applied are not an error
                        .ignoreMigrationPatterns("*:future")
                        .load()
                        .migrate();
                if (result.migrationsExecuted > 0) {
                    LOG.info(schema.what() + " {} migrated to schema version {} ({} migrations)", file,
                            result.targetSchemaVersion, result.migrationsExecuted);
                }
                if (withConnection("open", this::schemaIsCurrent)) {
                    stampVersion();
                }
            } catch (IOException e) {
                throw new MemoryStoreException("cannot lock " + lockFile + " to migrate the " + schema.what() + " " + file
                        + ": " + e.getMessage(), e);
            } catch (FlywayException e) {
                throw new MemoryStoreException("cannot migrate the " + schema.what() + " " + file + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * Records in the file's header ({@code PRAGMA user_version}) that its schema is
     * {@link Schema#version()}, once the history table says so: the next open reads it from the
     * first bytes of the file and needs neither a connection nor a query (see {@link #open(Path, Schema)}).
     * A version stamped by a newer Mnemo is left as it is.
     */
    private void stampVersion() {
        int version = schema.versionNumber();
        withConnection("stamp the schema version", connection -> {
            if (Jdbc.queryLong(connection, "PRAGMA user_version") < version) {
                connection.executeOnce("PRAGMA user_version = " + version);
            }
            return null;
        });
    }

    /** True when the history table records the schema's newest version applied and no failed migration. */
    private boolean schemaIsCurrent(PooledConnection connection) throws SQLException {
        String history = schema.historyTable();
        boolean hasHistory = Jdbc.queryLong(connection,
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?", history) > 0;
        return hasHistory && Jdbc.queryLong(connection, "SELECT COUNT(*) FROM " + history
                + " WHERE version = ? AND success = 1", schema.version()) > 0
                && Jdbc.queryLong(connection, "SELECT COUNT(*) FROM " + history + " WHERE success = 0") == 0;
    }

    private void rollbackQuietly(PooledConnection connection, Exception cause) {
        try {
            connection.execute("ROLLBACK");
        } catch (SQLException e) {
            cause.addSuppressed(e);
        }
    }

    private void closeQuietly(PooledConnection connection) {
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.debug("closing a connection to {} failed: {}", file, e.getMessage());
        }
    }
}
