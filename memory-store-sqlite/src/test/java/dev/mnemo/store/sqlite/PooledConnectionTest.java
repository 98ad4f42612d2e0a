package dev.mnemo.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Statements kept on a pooled connection: compiled once, bounded, and never stale. */
class PooledConnectionTest {

    @TempDir
    Path dir;

    private String url;
    private PooledConnection pooled;

    @BeforeEach
    void open() throws SQLException {
        SqliteNativeLibrary.prepare();
        url = "jdbc:sqlite:" + dir.resolve("kept.sqlite");
        pooled = new PooledConnection(DriverManager.getConnection(url));
        pooled.executeOnce("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
    }

    @AfterEach
    void close() throws SQLException {
        pooled.close();
    }

    @Test
    void prepare_compilesEachSqlTextOnce() throws SQLException {
        PreparedStatement first = pooled.prepare("SELECT body FROM notes WHERE id = ?");

        assertThat(pooled.prepare("SELECT body FROM notes WHERE id = ?")).isSameAs(first);
        assertThat(pooled.prepare("SELECT id FROM notes")).isNotSameAs(first);
        assertThat(pooled.keptStatements()).isEqualTo(2);
    }

    @Test
    void keptStatement_runsAgainWithNewParametersAndSeesNewRows() throws SQLException {
        Jdbc.update(pooled, "INSERT INTO notes (id, body) VALUES (?, ?)", 1, "first");
        Jdbc.update(pooled, "INSERT INTO notes (id, body) VALUES (?, ?)", 2, "second");

        assertThat(bodies()).containsExactly("first", "second");
        try (Connection other = DriverManager.getConnection(url); Statement statement = other.createStatement()) {
            statement.execute("INSERT INTO notes (id, body) VALUES (3, 'written elsewhere')");
        }
        assertThat(bodies()).containsExactly("first", "second", "written elsewhere");
        assertThat(Jdbc.queryFirst(pooled, "SELECT body FROM notes WHERE id = ?", row -> row.getString(1), 2))
                .contains("second");
        assertThat(Jdbc.queryFirst(pooled, "SELECT body FROM notes WHERE id = ?", row -> row.getString(1), 3))
                .contains("written elsewhere");
    }

    @Test
    void keptStatement_followsASchemaChangedByAnotherConnection() throws SQLException {
        Jdbc.update(pooled, "INSERT INTO notes (id, body) VALUES (?, ?)", 1, "before");
        assertThat(bodies()).containsExactly("before");

        try (Connection other = DriverManager.getConnection(url); Statement statement = other.createStatement()) {
            statement.execute("ALTER TABLE notes ADD COLUMN tag TEXT");
            statement.execute("DROP TABLE notes");
            statement.execute("CREATE TABLE notes (tag TEXT, body TEXT NOT NULL, id INTEGER PRIMARY KEY)");
            statement.execute("INSERT INTO notes (tag, body, id) VALUES ('t', 'after', 7)");
        }

        assertThat(bodies()).containsExactly("after");
        assertThat(Jdbc.update(pooled, "INSERT INTO notes (id, body) VALUES (?, ?)", 8, "again")).isEqualTo(1);
        assertThat(bodies()).containsExactly("after", "again");
    }

    @Test
    void keptStatements_areBoundedAndTheLeastRecentlyUsedIsClosed() throws SQLException {
        PreparedStatement oldest = pooled.prepare("SELECT 0");
        PreparedStatement used = pooled.prepare("SELECT 1");
        for (int i = 2; i <= PooledConnection.MAX_STATEMENTS; i++) {
            pooled.prepare("SELECT " + i);
            pooled.prepare("SELECT 1"); // keeps it recently used
        }

        assertThat(pooled.keptStatements()).isEqualTo(PooledConnection.MAX_STATEMENTS);
        assertThat(oldest.isClosed()).isTrue();
        assertThat(used.isClosed()).isFalse();
        assertThat(Jdbc.queryLong(pooled, "SELECT 0")).isZero(); // compiled again when asked for again
    }

    @Test
    void transactionStatements_areKeptAndStillCommitAndRollBack() throws SQLException {
        pooled.execute("BEGIN IMMEDIATE");
        Jdbc.update(pooled, "INSERT INTO notes (id, body) VALUES (?, ?)", 1, "kept");
        pooled.execute("COMMIT");
        pooled.execute("BEGIN IMMEDIATE");
        Jdbc.update(pooled, "INSERT INTO notes (id, body) VALUES (?, ?)", 2, "undone");
        pooled.execute("ROLLBACK");
        pooled.execute("BEGIN IMMEDIATE");
        Jdbc.update(pooled, "INSERT INTO notes (id, body) VALUES (?, ?)", 3, "kept too");
        pooled.execute("COMMIT");

        assertThat(bodies()).containsExactly("kept", "kept too");
        assertThat(pooled.keptStatements()).isEqualTo(5); // BEGIN, INSERT, COMMIT, ROLLBACK, the select
    }

    private List<String> bodies() throws SQLException {
        return Jdbc.query(pooled, "SELECT body FROM notes ORDER BY id", row -> row.getString(1));
    }
}
