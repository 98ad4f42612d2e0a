package dev.mnemo.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.postgres.PostgresBackend;
import dev.mnemo.postgres.TestCluster;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.SQLException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Per-user memory in PostgreSQL (the application's {@link PostgresBackend} bean), on a real server
 * started for the test: the health indicator probes the database every user shares, and is DOWN
 * once it cannot be reached. The database goes away for real: the backend's data source is pointed
 * at a port where nothing listens.
 */
class PostgresHealthTest {

    static String jdbcUrl;

    @TempDir
    Path cache;

    @BeforeAll
    static void database() throws SQLException {
        jdbcUrl = TestCluster.get().createDatabase("spring_health_" + ProcessHandle.current().pid());
    }

    static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    static PGSimpleDataSource dataSource() {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(jdbcUrl);
        dataSource.setConnectTimeout(5);
        return dataSource;
    }

    ApplicationContextRunner runner(PGSimpleDataSource dataSource) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(MnemoAutoConfiguration.class))
                .withBean(PostgresBackend.class, () -> PostgresBackend.builder().dataSource(dataSource).build())
                .withPropertyValues("mnemo.home=" + cache, "mnemo.pipeline.schedule.enabled=false");
    }

    @Test
    void perUser_onAPostgresBackendBean_keepsEachUserAsATenant_andHealthIsDownWhenTheDatabaseIsUnreachable()
            throws IOException {
        PGSimpleDataSource dataSource = dataSource();
        runner(dataSource).withPropertyValues("mnemo.tenancy=per-user").run(context -> {
            assertThat(context).hasNotFailed();
            try (MemoryEngines.Lease alice = context.getBean(MemoryEngines.class).lease("alice")) {
                alice.engine().conversation("a-1").userMessage("Stored in PostgreSQL");
                assertThat(alice.engine().threads().get("a-1")).isPresent();
            }
            HealthIndicator health = context.getBean("mnemoHealthIndicator", HealthIndicator.class);
            assertThat(health.health().getStatus()).isEqualTo(Status.UP);
            assertThat(health.health().getDetails()).containsEntry("storage", "PostgreSQL schema mnemo")
                    .containsEntry("openEngines", 1);

            dataSource.setPortNumbers(new int[] {closedPort()});

            Health down = health.health();
            assertThat(down.getStatus()).isEqualTo(Status.DOWN);
            assertThat(down.getDetails()).containsKey("error").containsEntry("storage", "PostgreSQL schema mnemo");
        });
    }

    @Test
    void anApplicationsOwnMemoryEngines_overAPostgresBackendBean_isProbedToo() throws IOException {
        PGSimpleDataSource dataSource = dataSource();
        runner(dataSource).withUserConfiguration(OwnEngines.class).run(context -> {
            assertThat(context).hasNotFailed().doesNotHaveBean(MemoryEngine.class);
            HealthIndicator health = context.getBean("mnemoHealthIndicator", HealthIndicator.class);
            assertThat(health.health().getStatus()).isEqualTo(Status.UP);

            dataSource.setPortNumbers(new int[] {closedPort()});

            assertThat(health.health().getStatus()).isEqualTo(Status.DOWN);
        });
    }

    @org.springframework.context.annotation.Configuration(proxyBeanMethods = false)
    static class OwnEngines {
        @org.springframework.context.annotation.Bean
        MemoryEngines ownEngines(PostgresBackend backend,
                @org.springframework.beans.factory.annotation.Value("${mnemo.home}") Path cache) {
            return MemoryEngines.builder().engineFactory(backend.engineFactory(cache.resolve("own"), b -> b)).build();
        }
    }
}
