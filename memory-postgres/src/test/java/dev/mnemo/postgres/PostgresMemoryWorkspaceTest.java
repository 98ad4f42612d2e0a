package dev.mnemo.postgres;

import dev.mnemo.testkit.contract.MemoryWorkspaceContract;
import dev.mnemo.spi.MemoryWorkspace;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Runs the {@link MemoryWorkspace} contract against PostgreSQL: every test is its own tenant. */
class PostgresMemoryWorkspaceTest extends MemoryWorkspaceContract {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static PostgresBackend backend;

    @BeforeAll
    static void migrate() {
        backend = DB.backend("mnemo");
    }

    @Override
    protected MemoryWorkspace open(Path root) {
        return new PostgresMemoryWorkspace(backend.database(), PostgresBackend.tenantKey(root.toString()), root,
                new Phase2Lock(), Clock.systemUTC());
    }
}
