package dev.mnemo.postgres;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * One transaction of one tenant: runs named statements of a {@link SqlStatements} file on a
 * connection whose {@code mnemo.tenant} setting {@link TenantDatabase} has already set. Query
 * classes receive a {@code Tx} and never see the tenant.
 */
final class Tx {

    /** Maps the current row of a result set. */
    @FunctionalInterface
    interface RowMapper<T> {
        T map(ResultSet row) throws SQLException;
    }

    private final Connection connection;
    private final SqlStatements sql;

    Tx(Connection connection, SqlStatements sql) {
        this.connection = connection;
        this.sql = sql;
    }

    int update(String key, Object... args) throws SQLException {
        try (PreparedStatement statement = prepare(key, args)) {
            return statement.executeUpdate();
        }
    }

    <T> List<T> query(String key, RowMapper<T> mapper, Object... args) throws SQLException {
        try (PreparedStatement statement = prepare(key, args);
                ResultSet rows = statement.executeQuery()) {
            List<T> result = new ArrayList<>();
            while (rows.next()) {
                result.add(mapper.map(rows));
            }
            return result;
        }
    }

    /** The first row, mapped; empty when there is none or the mapper gives null. */
    <T> Optional<T> first(String key, RowMapper<T> mapper, Object... args) throws SQLException {
        try (PreparedStatement statement = prepare(key, args);
                ResultSet rows = statement.executeQuery()) {
            return rows.next() ? Optional.ofNullable(mapper.map(rows)) : Optional.empty();
        }
    }

    long queryLong(String key, Object... args) throws SQLException {
        return first(key, row -> row.getLong(1), args).orElse(0L);
    }

    /** A {@code text[]} parameter. */
    Array textArray(Collection<String> values) throws SQLException {
        return connection.createArrayOf("text", values.toArray());
    }

    Connection connection() {
        return connection;
    }

    /** A nullable BIGINT column. */
    static Long nullableLong(ResultSet row, String column) throws SQLException {
        long value = row.getLong(column);
        return row.wasNull() ? null : value;
    }

    private PreparedStatement prepare(String key, Object... args) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql.get(key));
        try {
            for (int i = 0; i < args.length; i++) {
                statement.setObject(i + 1, args[i]);
            }
            return statement;
        } catch (SQLException e) {
            statement.close();
            throw e;
        }
    }
}
