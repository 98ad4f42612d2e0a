package dev.mnemo.postgres;

import dev.mnemo.MemoryStoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place where a tenant is bound: every transaction of every Mnemo part opens here, sets
 * {@code mnemo.tenant} and the {@code search_path} for this transaction only
 * ({@code set_config(.., true)}), and runs its statements against the tenant-scoped views of the
 * schema. No statement elsewhere names a tenant, so none can forget to. It also owns the backend's
 * {@link VacuumQueue}.
 */
final class TenantDatabase implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TenantDatabase.class);

    /** Work inside one transaction. */
    @FunctionalInterface
    interface Work<T> {
        T run(Tx tx) throws SQLException;
    }

    /**
     * Binds a tenant for the current transaction only: {@code mnemo.tenant}, which the views filter
     * on, and the {@code search_path}. JIT off too: Mnemo's statements are short index walks whose
     * row estimates over a large shared table can still pass jit_above_cost, and compiling them costs
     * more (tens of ms) than running them. Parameters: the tenant, the quoted schema.
     */
    private static final String BIND = "SELECT set_config('mnemo.tenant', ?, true),"
            + " set_config('search_path', ?, true), set_config('jit', 'off', true)";

    private final DataSource dataSource;
    private final String schema;
    private final VacuumQueue vacuums;

    TenantDatabase(DataSource dataSource, String schema) {
        this.dataSource = dataSource;
        this.schema = schema;
        this.vacuums = new VacuumQueue(dataSource, schema);
    }

    String schema() {
        return schema;
    }

    /** Runs {@code work} in one read-committed transaction of {@code tenant}, committing on success. */
    <T> T write(String tenant, SqlStatements sql, String what, Work<T> work) {
        return inTransaction(tenant, sql, what, false, work);
    }

    /**
     * Runs {@code work} in one read-committed transaction with no isolation statement of its own
     * (one round trip fewer than {@link #readSnapshot}): for a single-statement read on a hot path.
     */
    <T> T read(String tenant, SqlStatements sql, String what, Work<T> work) {
        return inTransaction(tenant, sql, what, false, work);
    }

    /**
     * The first row of the single read statement {@code key} of {@code tenant}, mapped, in one round
     * trip where {@link #read} takes three (the binding with the {@code BEGIN}, the statement, the
     * {@code COMMIT}): the binding and the statement are sent as one two-statement query with
     * auto-commit on, which the driver sends before a single Sync, so PostgreSQL runs both in one
     * implicit transaction, and the binding, local to that transaction, ends with it. For a
     * single-statement read without parameters on a hot path.
     */
    <T> Optional<T> readFirst(String tenant, SqlStatements sql, String key, String what, Tx.RowMapper<T> mapper) {
        Objects.requireNonNull(tenant, "tenant");
        try (Connection connection = dataSource.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(true);
            try (PreparedStatement statement = connection.prepareStatement(BIND + ";\n" + sql.get(key))) {
                bindTenant(statement, tenant);
                statement.execute();
                if (!statement.getMoreResults()) {
                    throw new SQLException("statement " + key + " gave no rows");
                }
                try (ResultSet rows = statement.getResultSet()) {
                    return rows.next() ? Optional.ofNullable(mapper.map(rows)) : Optional.empty();
                }
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw failure(tenant, what, e);
        }
    }

    /** Runs {@code work} in one read-only, repeatable-read transaction: every statement sees one snapshot. */
    <T> T readSnapshot(String tenant, SqlStatements sql, String what, Work<T> work) {
        return inTransaction(tenant, sql, what, true, work);
    }

    private <T> T inTransaction(String tenant, SqlStatements sql, String what, boolean snapshot, Work<T> work) {
        try (OpenTransaction open = begin(tenant, sql, snapshot, what)) {
            T result = work.run(open.tx());
            open.commit();
            return result;
        } catch (SQLException e) {
            throw failure(tenant, what, e);
        }
    }

    /**
     * Opens a transaction of {@code tenant} that stays open until the handle is closed (rolled back
     * unless committed): for a read that streams past its caller, such as a rollout.
     */
    OpenTransaction begin(String tenant, SqlStatements sql, boolean snapshot, String what) {
        Objects.requireNonNull(tenant, "tenant");
        Connection connection = null;
        try {
            connection = dataSource.getConnection();
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            OpenTransaction open = new OpenTransaction(connection, autoCommit, new Tx(connection, sql));
            try {
                if (snapshot) {
                    try (Statement statement = connection.createStatement()) {
                        statement.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
                    }
                }
                try (PreparedStatement bind = connection.prepareStatement(BIND)) {
                    bindTenant(bind, tenant);
                    bind.execute();
                }
                return open;
            } catch (SQLException | RuntimeException e) {
                open.close();
                throw e;
            }
        } catch (SQLException e) {
            closeQuietly(connection);
            throw failure(tenant, what, e);
        }
    }

    /** A read over every tenant's rows (the tenant_* tables, never the views). */
    @FunctionalInterface
    interface AcrossTenants<T> {
        T run(Connection connection) throws SQLException;
    }

    /**
     * Runs {@code work} in one read-only transaction bound to no tenant (the tenant views refuse to
     * answer in it): for the few maintenance reads that must see every tenant at once.
     */
    <T> T readAcrossTenants(String what, AcrossTenants<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                try (PreparedStatement bind = connection.prepareStatement("SELECT set_config('search_path', ?, true),"
                        + " set_config('jit', 'off', true)")) {
                    bind.setString(1, quoted(schema));
                    bind.execute();
                }
                try (Statement statement = connection.createStatement()) {
                    statement.execute("SET TRANSACTION READ ONLY");
                }
                return work.run(connection);
            } finally {
                rollbackQuietly(connection);
                connection.setAutoCommit(autoCommit);
            }
        } catch (SQLException e) {
            throw new MemoryStoreException("PostgreSQL schema " + schema + ": cannot " + what + ": " + e.getMessage(), e);
        }
    }

    private void bindTenant(PreparedStatement bind, String tenant) throws SQLException {
        bind.setString(1, tenant);
        bind.setString(2, quoted(schema));
    }

    private MemoryStoreException failure(String tenant, String what, SQLException e) {
        return new MemoryStoreException("PostgreSQL schema " + schema + ", tenant " + tenant + ": cannot " + what
                + ": " + e.getMessage(), e);
    }

    /** A transaction bound to one tenant; closing it rolls back what was not committed and returns the connection. */
    static final class OpenTransaction implements AutoCloseable {
        private final Connection connection;
        private final boolean autoCommit;
        private final Tx tx;
        private boolean committed;

        private OpenTransaction(Connection connection, boolean autoCommit, Tx tx) {
            this.connection = connection;
            this.autoCommit = autoCommit;
            this.tx = tx;
        }

        Tx tx() {
            return tx;
        }

        void commit() throws SQLException {
            connection.commit();
            committed = true;
        }

        @Override
        public void close() {
            if (!committed) {
                rollbackQuietly(connection);
            }
            try {
                connection.setAutoCommit(autoCommit);
            } catch (SQLException e) {
                LOG.debug("could not restore auto-commit: {}", e.getMessage());
            }
            closeQuietly(connection);
        }
    }

    /**
     * Vacuums {@code tables} of the schema (all tenants' rows) in the background, so row versions a
     * forget left dead are removed from the table files too; call it only when rows were deleted.
     *
     * @param reason what was deleted, for the log
     */
    void vacuumLater(List<String> tables, String reason) {
        vacuums.request(tables, reason);
    }

    VacuumQueue vacuums() {
        return vacuums;
    }

    /** Stops the background vacuums (see {@link VacuumQueue#close()}); the pool stays the application's. */
    @Override
    public void close() {
        vacuums.close();
    }

    static String quoted(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    private static void closeQuietly(Connection connection) {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.debug("closing a connection failed: {}", e.getMessage());
        }
    }

    private static void rollbackQuietly(Connection connection) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            LOG.debug("rollback failed: {}", e.getMessage());
        }
    }
}
