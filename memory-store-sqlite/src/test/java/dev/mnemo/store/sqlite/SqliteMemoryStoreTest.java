package dev.mnemo.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.spi.JobClaim;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.testkit.contract.MemoryStoreContract;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Runs the whole {@link MemoryStore} contract against real SQLite files, plus SQLite's own status figures. */
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

    @Test
    void status_countsStoredMemoriesOutsideTheUnusedWindowOfThePhase2Selection() {
        storeMemory("cited", version(100));
        storeMemory("never-cited", version(100));
        store.recordUsage(List.of("cited"), NOW.plus(Duration.ofDays(10)));
        Instant later = NOW.plus(Duration.ofDays(20));

        assertThat(store.status(later, 15).unusedMemories()).isEqualTo(OptionalInt.of(1));
        assertThat(store.phase2InputSelection(10, 15, later)).extracting(o -> o.threadId()).containsExactly("cited");
        assertThat(store.status(later, 30).unusedMemories()).isEqualTo(OptionalInt.of(0));
        assertThat(store.status(later).unusedMemories()).isEmpty();
    }

    @Test
    void status_saysWhenTheConsolidationCooldownOrBackoffEnds() {
        storeMemory("a", version(100));
        consolidate(NOW, "a");

        assertThat(store.status(NOW.plusSeconds(60)).phase2NotBefore()).contains(NOW.plus(Duration.ofHours(6)));
        Instant afterCooldown = NOW.plus(Duration.ofHours(7));
        assertThat(store.status(afterCooldown).phase2NotBefore()).isEmpty();

        JobClaim failing = store.tryClaimPhase2Job(WORKER, LEASE, afterCooldown);
        store.markPhase2Failed(failing.token(), "failed_agent", RETRY_DELAY, afterCooldown);
        assertThat(store.status(afterCooldown.plusSeconds(1)).phase2NotBefore())
                .contains(afterCooldown.plus(RETRY_DELAY));
    }
}
