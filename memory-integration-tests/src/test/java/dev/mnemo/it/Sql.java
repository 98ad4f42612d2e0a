package dev.mnemo.it;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Reads the state database directly, to check what the public API does not show. */
final class Sql {

    private Sql() {}

    static String string(Path home, String query) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + home.resolve("mnemo.sqlite"));
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(query)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (SQLException e) {
            throw new IllegalStateException(query, e);
        }
    }

    /** Runs one write statement; returns the rows changed. */
    static int update(Path home, String statement) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + home.resolve("mnemo.sqlite"));
                Statement s = c.createStatement()) {
            return s.executeUpdate(statement);
        } catch (SQLException e) {
            throw new IllegalStateException(statement, e);
        }
    }
}
