package dev.mnemo.postgres;

import dev.mnemo.testkit.contract.MemoryStoreContract;
import dev.mnemo.spi.MemoryStore;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Runs the whole {@link MemoryStore} contract (all of Codex's ported state tests) against a real
 * PostgreSQL server: every test is its own tenant of one shared schema.
 */
class PostgresMemoryStoreTest extends MemoryStoreContract {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static PostgresBackend backend;

    @BeforeAll
    static void migrate() {
        backend = DB.backend("mnemo");
    }

    @Override
    protected MemoryStore openStore(Path dir) {
        return backend.store(dir.toString());
    }

    @Override
    protected void dropOwnershipToken(MemoryStore store, String kind, String jobKey) {
        ((PostgresMemoryStore) store).inTransaction(tx -> tx.connection().createStatement().executeUpdate(
                "UPDATE jobs SET ownership_token = NULL WHERE kind = '" + kind + "' AND job_key = '" + jobKey + "'"));
    }
}
