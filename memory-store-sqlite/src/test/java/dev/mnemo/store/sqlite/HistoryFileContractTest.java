package dev.mnemo.store.sqlite;

import dev.mnemo.internal.history.HistoryFile;
import dev.mnemo.spi.HistoryStore;
import dev.mnemo.testkit.contract.HistoryStoreContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link HistoryStoreContract} on {@code <home>/history.jsonl}, the message history of a home whose
 * state is in SQLite. Here, not in memory-core, because memory-testkit depends on memory-core: a
 * memory-core test cannot extend a contract of memory-testkit (the file's own tests, mode 0600 and
 * torn lines, stay in memory-core's {@code HistoryFileTest}).
 */
class HistoryFileContractTest extends HistoryStoreContract {

    @TempDir
    Path home;

    @Override
    protected HistoryStore openHistory() {
        return new HistoryFile(home);
    }
}
