package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.HistoryEntry;
import dev.mnemo.spi.HistoryStore;
import dev.mnemo.testkit.contract.HistoryStoreContract;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link HistoryStoreContract} on {@code tenant_message_history}: each test a tenant of its own in one schema. */
class PostgresHistoryStoreTest extends HistoryStoreContract {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static PostgresBackend backend;

    @BeforeAll
    static void migrate() {
        backend = DB.backend("history");
    }

    @Override
    protected HistoryStore openHistory() {
        return backend.store("tenant-" + UUID.randomUUID()).messageHistory().orElseThrow();
    }

    @Test
    void aNulCharacter_isKeptAsTheReplacementCharacter_insteadOfLosingTheLine() {
        history.append("t", TS, "before\0after", 0);
        assertThat(history.recent(1)).extracting(HistoryEntry::text).containsExactly("before\uFFFDafter");
        assertThat(history.search("before", 1)).hasSize(1);
    }
}
