package dev.mnemo.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.SQLException;
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
    String jdbcUrl() {
        return TestCluster.get().jdbcUrl(name);
    }
}
