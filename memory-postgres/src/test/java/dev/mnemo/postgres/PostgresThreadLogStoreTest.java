package dev.mnemo.postgres;

import dev.mnemo.spi.ThreadLogStore;
import dev.mnemo.testkit.contract.ThreadLogStoreContract;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
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
}
