package dev.mnemo.store.sqlite;

import dev.mnemo.testkit.contract.MemoryStoreContract;
import dev.mnemo.spi.MemoryStore;
import java.nio.file.Path;

/** Runs the whole {@link MemoryStore} contract against real SQLite files. */
class SqliteMemoryStoreTest extends MemoryStoreContract {

    @Override
    protected MemoryStore openStore(Path dir) {
        return SqliteMemoryStore.open(dir.resolve("mnemo.sqlite"));
    }

    @Override
    protected void dropOwnershipToken(MemoryStore store, String kind, String jobKey) {
        ((SqliteMemoryStore) store).onConnection(connection -> Jdbc.update(connection,
                "UPDATE jobs SET ownership_token = NULL WHERE kind = ? AND job_key = ?", kind, jobKey));
    }
}
