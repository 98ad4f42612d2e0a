package dev.mnemo.store.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Small JDBC shorthands for the query classes of this package: bind, run, map. */
final class Jdbc {

    /** Maps the current row of a result set. */
    @FunctionalInterface
    interface RowMapper<T> {
        T map(ResultSet row) throws SQLException;
    }

    private Jdbc() {
    }

    static int update(Connection connection, String sql, Object... args) throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, args)) {
            return statement.executeUpdate();
        }
    }

    static <T> List<T> query(Connection connection, String sql, RowMapper<T> mapper, Object... args)
            throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, args);
                ResultSet rows = statement.executeQuery()) {
            List<T> result = new ArrayList<>();
            while (rows.next()) {
                result.add(mapper.map(rows));
            }
            return result;
        }
    }

    /** The first row, mapped; empty when there is none or the mapper gives null. */
    static <T> Optional<T> queryFirst(Connection connection, String sql, RowMapper<T> mapper, Object... args)
            throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql, args);
                ResultSet rows = statement.executeQuery()) {
            return rows.next() ? Optional.ofNullable(mapper.map(rows)) : Optional.empty();
        }
    }

    static long queryLong(Connection connection, String sql, Object... args) throws SQLException {
        return queryFirst(connection, sql, row -> row.getLong(1), args).orElse(0L);
    }

    /** A nullable INTEGER column. */
    static Long nullableLong(ResultSet row, String column) throws SQLException {
        long value = row.getLong(column);
        return row.wasNull() ? null : value;
    }

    private static PreparedStatement prepare(Connection connection, String sql, Object... args) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
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
