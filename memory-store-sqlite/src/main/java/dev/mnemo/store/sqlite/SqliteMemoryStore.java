package dev.mnemo.store.sqlite;

import dev.mnemo.MemoryStatus;
import dev.mnemo.spi.ComposedMemoryStore;
import dev.mnemo.spi.GoalStore;
import dev.mnemo.spi.MemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The default {@link MemoryStore}: one SQLite file holding Codex's {@code threads},
 * {@code stage1_outputs} and {@code jobs} tables, migrated by Flyway from this module's own
 * classpath location into its own history table ({@code mnemo_schema_history}).
 *
 * <p>Every connection runs with WAL, {@code synchronous=NORMAL}, a 10 s busy timeout, foreign
 * keys and {@code secure_delete=ON}. Each operation borrows a connection from a small pool;
 * writes are single {@code BEGIN IMMEDIATE} transactions, so several threads and several
 * processes can share the file. After a forget (pollution, delete, clear) the WAL is
 * checkpointed and truncated, best effort, so the forgotten text does not linger in it.
 *
 * <p>Approval ({@code approval = "ask"}): a memory stored awaiting approval keeps a flag on its
 * {@code stage1_outputs} row until approved; notes awaiting approval have their own table. Such a
 * memory counts in {@link MemoryStatus#stage1Outputs()} (it is stored) but not in
 * {@link MemoryStatus#unusedMemories()}, and {@link #pruneStage1Outputs} never deletes it: it waits
 * for a person, not for a citation. Forgetting its thread deletes it as any memory.
 *
 * <p>A file that is not an SQLite database is refused with a {@link dev.mnemo.MemoryStoreException}
 * and left untouched; so is every later SQL failure, naming the file.
 *
 * <p>The store only gathers its roles, each a package-private class over the one
 * {@link SqliteDatabase}: {@link SqliteThreads}, {@link SqliteSpawnGraph}, {@link SqliteStage1},
 * {@link SqliteApprovals}, {@link SqlitePhase2}, {@link SqliteForgetLedger} and
 * {@link SqliteMaintenance}; {@link ComposedMemoryStore} hands every role method to one of them.
 */
public final class SqliteMemoryStore extends ComposedMemoryStore {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteMemoryStore.class);

    private final SqliteDatabase database;
    /** {@code goals.sqlite}, opened by the first {@link #goals()}; null until then. */
    private SqliteGoalStore goals;

    private SqliteMemoryStore(SqliteDatabase database) {
        super(new Roles(new SqliteThreads(database), new SqliteSpawnGraph(database), new SqliteStage1(database),
                new SqliteApprovals(database), new SqlitePhase2(database), new SqliteForgetLedger(database),
                new SqliteMaintenance(database)));
        this.database = database;
    }

    /**
     * Does now, on the calling thread, the one-time work of a JVM's first SQLite connection:
     * loading sqlite-jdbc's native library (from Mnemo's verified per-user copy) and the driver's
     * classes. For applications that start up on several threads and want it done while they do
     * other work (the {@code mnemo} CLI calls it on a warm-up thread while it parses its
     * arguments). Idempotent and thread-safe; never fails: a problem is met again, and reported,
     * by the first {@link #open}. Opening a store needs no call.
     */
    public static void preload() {
        SqliteNativeLibrary.preload();
    }

    /**
     * Opens the state database at {@code dbFile}, creating the file and its folder when missing
     * and migrating the schema to the newest version.
     *
     * @param dbFile the state database ({@code mnemo.sqlite} in an engine's home)
     * @return the open store; close it when done
     * @throws dev.mnemo.MemoryStoreException when the file is not an SQLite database, cannot be
     *     opened, or cannot be migrated
     */
    public static SqliteMemoryStore open(Path dbFile) {
        Objects.requireNonNull(dbFile, "dbFile");
        SqliteMemoryStore store = new SqliteMemoryStore(SqliteDatabase.open(dbFile));
        LOG.debug("opened state database {}", store.database.file());
        return store;
    }

    /**
     * Opens an existing state database for reading only: no folder or file is created, no
     * migration runs, and every write fails. Its goals are read from {@code goals.sqlite} only when
     * that file exists ({@link #goals()} otherwise says the store keeps none).
     *
     * @param dbFile the existing state database
     * @return the open, read-only store; close it when done
     * @throws dev.mnemo.MemoryStoreException when the file does not exist or is not an SQLite database
     */
    public static SqliteMemoryStore openReadOnly(Path dbFile) {
        Objects.requireNonNull(dbFile, "dbFile");
        SqliteMemoryStore store = new SqliteMemoryStore(SqliteDatabase.openReadOnly(dbFile, SqliteDatabase.STATE));
        LOG.debug("opened state database {} read-only", store.database.file());
        return store;
    }

    /**
     * The database file.
     *
     * @return the path the store was opened at
     */
    public Path file() {
        return database.file();
    }

    // ---- beside the roles ----------------------------------------------------------------------

    /**
     * {@inheritDoc}
     *
     * <p>Here: {@code goals.sqlite} beside the state database, a file of its own (as Codex keeps
     * {@code goals_1.sqlite}) so goal writes never wait for the state's writer; opened on first use.
     */
    @Override
    public synchronized GoalStore goals() {
        if (goals == null) {
            Path file = database.file().resolveSibling(SqliteGoalStore.FILE_NAME);
            if (database.readOnly()) {
                if (!Files.isRegularFile(file)) {
                    throw new UnsupportedOperationException("no goals in " + file.getParent() + " (" + file.getFileName()
                            + " does not exist; this store is open read-only)");
                }
                goals = SqliteGoalStore.openReadOnly(file, Clock.systemUTC());
                return goals;
            }
            goals = SqliteGoalStore.open(file, Clock.systemUTC());
            LOG.debug("opened goals database {}", goals.file());
        }
        return goals;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (goals != null) {
                goals.close();
            }
        }
        database.close();
        LOG.debug("closed state database {}", database.file());
    }

    @Override
    public String toString() {
        return "SqliteMemoryStore[" + database.file() + "]";
    }

    /** For this package's tests: runs {@code work} on one of the store's own connections. */
    <T> T onConnection(SqliteDatabase.Work<T> work) {
        return database.read("test access", work);
    }
}
