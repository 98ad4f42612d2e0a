package dev.mnemo.store.sqlite;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Small JDBC shorthands for the query classes of this package: bind a kept statement, run, map. */
final class Jdbc {

    /** Maps the current row of a result set. */
    @FunctionalInterface
    interface RowMapper<T> {
        T map(ResultSet row) throws SQLException;
    }

    private Jdbc() {
    }

    static int update(PooledConnection connection, String sql, Object... args) throws SQLException {
        PreparedStatement statement = bind(connection, sql, args);
        try {
            return statement.executeUpdate();
        } finally {
            statement.clearParameters();
        }
    }

    static <T> List<T> query(PooledConnection connection, String sql, RowMapper<T> mapper, Object... args)
            throws SQLException {
        PreparedStatement statement = bind(connection, sql, args);
        try (ResultSet rows = statement.executeQuery()) {
            List<T> result = new ArrayList<>();
            while (rows.next()) {
                result.add(mapper.map(rows));
            }
            return result;
        } finally {
            statement.clearParameters();
        }
    }

    /** The first row, mapped; empty when there is none or the mapper gives null. */
    static <T> Optional<T> queryFirst(PooledConnection connection, String sql, RowMapper<T> mapper, Object... args)
            throws SQLException {
        PreparedStatement statement = bind(connection, sql, args);
        try (ResultSet rows = statement.executeQuery()) {
            return rows.next() ? Optional.ofNullable(mapper.map(rows)) : Optional.empty();
        } finally {
            statement.clearParameters();
        }
    }

    static long queryLong(PooledConnection connection, String sql, Object... args) throws SQLException {
        return queryFirst(connection, sql, row -> row.getLong(1), args).orElse(0L);
    }

    /** A nullable INTEGER column. */
    static Long nullableLong(ResultSet row, String column) throws SQLException {
        long value = row.getLong(column);
        return row.wasNull() ? null : value;
    }

    /**
     * The connection's kept statement for {@code sql} with {@code args} bound. It is not closed after
     * use, only its parameters cleared (so a bound text is not held until the next call); a failure
     * leaves it to the pool, which closes a connection that saw an error.
     */
    private static PreparedStatement bind(PooledConnection connection, String sql, Object... args) throws SQLException {
        PreparedStatement statement = connection.prepare(sql);
        for (int i = 0; i < args.length; i++) {
            statement.setObject(i + 1, args[i]);
        }
        return statement;
    }
}
