package dev.mnemo.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit extension giving a test class its own database on this JVM's {@link TestCluster}, with
 * a small HikariCP pool. Register it as a static field:
 * {@code @RegisterExtension static final PostgresDatabase db = new PostgresDatabase();}.
 */
final class PostgresDatabase implements BeforeAllCallback, AfterAllCallback {

    private static final AtomicInteger COUNTER = new AtomicInteger();

    private String name;
    private HikariDataSource dataSource;

    @Override
    public void beforeAll(ExtensionContext context) throws SQLException {
        TestCluster cluster = TestCluster.get();
        name = "test_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet() + "_"
                + context.getRequiredTestClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
        cluster.createDatabase(name);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl());
        config.setMaximumPoolSize(16);
        config.setPoolName(name);
        dataSource = new HikariDataSource(config);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (dataSource != null) {
            dataSource.close();
        }
    }

    /** The class's database, pooled. */
    DataSource dataSource() {
        return dataSource;
    }

    /** A backend on {@code schema} of the class's database (migrated on first use per schema). */
    PostgresBackend backend(String schema) {
        return PostgresBackend.builder().dataSource(dataSource).schema(schema).build();
    }

    /** The class's database URL (for child JVMs and extra pools). */
    /** The tables of {@code schema} (all tenants) whose live rows hold {@code text}, as text or as UTF-8 bytes. */
    List<String> tablesHolding(String schema, String text) throws SQLException {
        String hex = HexFormat.of().formatHex(text.getBytes(StandardCharsets.UTF_8));
        List<String> holding = new ArrayList<>();
        try (Connection connection = dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery("SELECT table_name FROM information_schema.tables"
                    + " WHERE table_schema = '" + schema + "' AND table_type = 'BASE TABLE'")) {
                while (rows.next()) {
                    tables.add(rows.getString(1));
                }
            }
            for (String table : tables) {
                try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM " + schema + "." + table
                        + " t WHERE position('" + text + "' in t::text) > 0 OR position('" + hex + "' in t::text) > 0")) {
                    rows.next();
                    if (rows.getLong(1) > 0) {
                        holding.add(table);
                    }
                }
            }
        }
        return holding;
    }

    String jdbcUrl() {
        return TestCluster.get().jdbcUrl(name);
    }
}
