package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.mnemo.MemoryStoreException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link TenantDatabase#readFirst}: the tenant binding and the read sent together in one round trip
 * still scope the read to the tenant, and leave nothing bound on the pooled connection. The pool
 * holds one connection, so every call here runs on the same one.
 */
class TenantDatabaseTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static final String SCHEMA = "one_trip";
    private static HikariDataSource oneConnection;
    private static TenantDatabase database;

    @BeforeAll
    static void twoTenantsWithDifferentVersions() {
        DB.backend(SCHEMA); // migrates
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(DB.jdbcUrl());
        config.setMaximumPoolSize(1);
        oneConnection = new HikariDataSource(config);
        database = new TenantDatabase(oneConnection, SCHEMA);
        for (String tenant : new String[] {"alice", "bob"}) {
            database.write(tenant, PostgresMemoryWorkspace.SQL, "create the workspace",
                    tx -> tx.update("workspace.create"));
        }
        database.write("bob", PostgresMemoryWorkspace.SQL, "bump the version twice",
                tx -> tx.queryLong("workspace.bump") + tx.queryLong("workspace.bump"));
    }

    @AfterAll
    static void close() {
        database.close();
        oneConnection.close();
    }

    private static Optional<Long> version(String tenant) {
        return database.readFirst(tenant, PostgresMemoryWorkspace.SQL, "workspace.versions", "read the version",
                row -> row.getLong(1));
    }

    /**
     * With auto-commit on, the binding would be gone before the read had the two statements been sent
     * apart (each its own transaction): the view would then show no row.
     */
    @Test
    void readFirst_readsEachTenantsOwnRowOnTheSameConnection() {
        assertThat(version("alice")).contains(1L);
        assertThat(version("bob")).contains(3L);
        assertThat(version("alice")).contains(1L);
        assertThat(version("carol")).isEmpty();
    }

    @Test
    void readFirst_leavesNoTenantBoundAndAutoCommitAsItWas() throws SQLException {
        version("bob");

        try (Connection connection = oneConnection.getConnection()) {
            assertThat(connection.getAutoCommit()).isTrue();
            try (Statement statement = connection.createStatement();
                    ResultSet rows = statement.executeQuery("SELECT current_setting('mnemo.tenant', true),"
                            + " current_setting('search_path'), current_setting('jit')")) {
                rows.next();
                assertThat(rows.getString(1)).isNullOrEmpty();
                assertThat(rows.getString(2)).doesNotContain(SCHEMA);
                assertThat(rows.getString(3)).isEqualTo(defaultJit(connection));
            }
        }
    }

    @Test
    void readFirst_onAConnectionWhoseAutoCommitIsOff_restoresIt() throws SQLException {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(DB.jdbcUrl());
        config.setMaximumPoolSize(1);
        config.setAutoCommit(false);
        try (HikariDataSource manual = new HikariDataSource(config);
                TenantDatabase onManual = new TenantDatabase(manual, SCHEMA)) {
            assertThat(onManual.readFirst("bob", PostgresMemoryWorkspace.SQL, "workspace.versions", "read",
                    row -> row.getLong(1))).contains(3L);
            try (Connection connection = manual.getConnection()) {
                assertThat(connection.getAutoCommit()).isFalse();
            }
        }
    }

    @Test
    void readFirst_failsWithTheTenantAndWhatInTheMessage() {
        assertThatThrownBy(() -> database.readFirst("alice", PostgresMemoryWorkspace.SQL, "workspace.versions",
                "read a missing column", row -> row.getLong(9)))
                .isInstanceOf(MemoryStoreException.class).hasMessageContaining("tenant alice")
                .hasMessageContaining("read a missing column");
    }

    private static String defaultJit(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT reset_val FROM pg_settings WHERE name = 'jit'")) {
            rows.next();
            return rows.getString(1);
        }
    }
}
