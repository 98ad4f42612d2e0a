package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ThreadLogEntry;
import dev.mnemo.spi.ThreadLogQuery;
import dev.mnemo.spi.ThreadLogStore;
import dev.mnemo.testkit.contract.ThreadLogStoreContract;
import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link ThreadLogStoreContract} on {@code tenant_thread_logs}: each test a tenant of its own in one schema. */
class PostgresThreadLogStoreTest extends ThreadLogStoreContract {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static PostgresBackend backend;

    @BeforeAll
    static void migrate() {
        backend = DB.backend("logs");
    }

    @Override
    protected ThreadLogStore openLogs() {
        return backend.store("tenant-" + UUID.randomUUID()).threadLogs().orElseThrow();
    }

    @Test
    void aNulCharacter_isKeptAsTheReplacementCharacter_insteadOfLosingTheBatch() {
        Instant ts = Instant.parse("2026-06-01T12:00:00Z");
        logs.append(List.of(new ThreadLogEntry("t", ts, "INFO", "mnemo::\0", "model said \0"),
                new ThreadLogEntry("t", ts.plusSeconds(1), "INFO", "mnemo::phase1", "next")));
        assertThat(logs.query(ThreadLogQuery.ofThread("t", 10))).extracting(ThreadLogEntry::target,
                ThreadLogEntry::message).containsExactly(
                        org.assertj.core.groups.Tuple.tuple("mnemo::\uFFFD", "model said \uFFFD"),
                        org.assertj.core.groups.Tuple.tuple("mnemo::phase1", "next"));
    }

    @Test
    void closingTheLogs_leavesTheApplicationsPoolOpen() throws Exception {
        ThreadLogStore other = backend.store("tenant-" + UUID.randomUUID()).threadLogs().orElseThrow();
        other.close();
        try (Connection connection = DB.dataSource().getConnection()) {
            assertThat(connection.isValid(5)).isTrue();
        }
        logs.append(List.of(new ThreadLogEntry("t", Instant.parse("2026-06-01T12:00:00Z"), "INFO", "t", "still")));
        assertThat(logs.query(ThreadLogQuery.ofThread("t", 1))).hasSize(1);
    }
}
