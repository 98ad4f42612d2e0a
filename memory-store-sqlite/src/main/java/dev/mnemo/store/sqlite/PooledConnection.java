package dev.mnemo.store.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One connection of {@link SqliteDatabase}'s pool and the statements compiled on it.
 *
 * <p>SQLite compiles every statement it is handed (parse, resolve against the schema, plan), and
 * sqlite-jdbc keeps no statement cache: a Phase 1 job's dozen statements were compiled again on
 * every call, the claim's upsert alone for tens of microseconds. A pooled connection lives for many
 * operations, so it keeps what it compiled, keyed by the SQL text, at most {@link #MAX_STATEMENTS}
 * (least recently used first out, for the claim scan's SQL that varies with its parameters).
 * A schema change by anyone is safe: SQLite recompiles a kept statement whose schema moved on
 * its next run. Closing the connection finalises them all.
 *
 * <p>A kept statement is one object per SQL text, so it must not run again while a result set of
 * its own is still open; {@link Jdbc}'s row mappers only read their row. Not thread-safe: the pool
 * lends a connection to one caller at a time.
 */
final class PooledConnection implements AutoCloseable {

    /** Distinct statements a connection keeps; the store runs a few dozen. */
    static final int MAX_STATEMENTS = 64;

    private final Connection connection;
    private final Map<String, PreparedStatement> statements = new LinkedHashMap<>(32, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, PreparedStatement> eldest) {
            if (size() <= MAX_STATEMENTS) {
                return false;
            }
            closeQuietly(eldest.getValue());
            return true;
        }
    };

    PooledConnection(Connection connection) {
        this.connection = connection;
    }

    /** The statement for {@code sql}, compiled on first use and kept; parameters as the last caller left them. */
    PreparedStatement prepare(String sql) throws SQLException {
        PreparedStatement statement = statements.get(sql);
        if (statement == null) {
            statement = connection.prepareStatement(sql);
            statements.put(sql, statement);
        }
        return statement;
    }

    /** Runs a statement without parameters or rows ({@code BEGIN}, {@code COMMIT}, {@code ROLLBACK}), kept like any other. */
    void execute(String sql) throws SQLException {
        prepare(sql).execute();
    }

    /** Runs {@code sql} once without keeping it: set-up pragmas and one-off statements whose text embeds a value. */
    void executeOnce(String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** The JDBC connection itself, for work that manages its own statements. */
    Connection jdbc() {
        return connection;
    }

    /** Number of statements kept now (for tests). */
    int keptStatements() {
        return statements.size();
    }

    /** Closes the connection; SQLite finalises the kept statements with it. */
    @Override
    public void close() throws SQLException {
        statements.clear();
        connection.close();
    }

    private static void closeQuietly(PreparedStatement statement) {
        try {
            statement.close();
        } catch (SQLException e) {
            // finalising a statement fails only when the connection is already gone
        }
    }
}
