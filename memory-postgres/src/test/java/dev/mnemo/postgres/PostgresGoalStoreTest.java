package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.spi.GoalStore;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.testkit.contract.GoalStoreContract;
import java.util.OptionalLong;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@link GoalStoreContract} on {@code tenant_thread_goals}: each test a tenant of its own in one schema. */
class PostgresGoalStoreTest extends GoalStoreContract {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static PostgresBackend backend;
    private MemoryStore store;

    @BeforeAll
    static void migrate() {
        backend = DB.backend("goals");
    }

    @Override
    protected GoalStore openGoals() {
        store = backend.store("tenant-" + UUID.randomUUID());
        return store.goals();
    }

    @Override
    protected void closeGoals() {
        store.close();
    }

    @Test
    void aNulCharacterInAnObjective_isKeptAsTheReplacementCharacter() {
        assertThat(goals.set("t", "ship\0it", OptionalLong.empty()).objective()).isEqualTo("ship\uFFFDit");
        assertThat(goals.get("t").orElseThrow().objective()).isEqualTo("ship\uFFFDit");
    }
}
