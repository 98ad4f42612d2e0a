package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryOperation;
import dev.mnemo.testkit.TestClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@link MemoryEngines} over {@link PostgresBackend#engineFactory}: untrusted tenant ids, shared database. */
class FleetEnginesTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static PostgresBackend backend;

    @BeforeAll
    static void migrate() {
        backend = DB.backend("engines");
    }

    @Test
    void tenantsWithHostileIds_getTheirOwnCacheFoldersAndData_andAReopenedEngineServesTheSameMemories(
            @TempDir Path cache) {
        TestClock clock = new TestClock(Fleet.START);
        String hostile = "../other";
        String huge = "x".repeat(10_000);
        try (MemoryEngines engines = MemoryEngines.builder().maxOpen(1).engineFactory(backend.engineFactory(cache,
                builder -> builder.config(Fleet.config()).extractionModel(Fleet.extractionModel())
                        .consolidationAgent(Fleet.agent()).clock(clock))).build()) {
            for (String tenant : new String[] {hostile, huge}) {
                MemoryEngine engine = engines.forTenant(tenant);
                try (RecordedSession session = engine.sessions().start(SessionContext.root("t"))) {
                    session.userMessage("FACT: " + (tenant.equals(hostile) ? "dots" : "long") + " tenant");
                }
            }
            clock.advance(Duration.ofHours(2));
            for (String tenant : new String[] {hostile, huge}) {
                engines.forTenant(tenant).admin().runPhase1("none");
                engines.forTenant(tenant).admin().runPhase2();
            }

            assertThat(engines.openCount()).isEqualTo(1);
            assertThat(engines.forTenant(hostile).buildDeveloperInstructions()).contains("FACT: dots tenant")
                    .doesNotContain("FACT: long");
            assertThat(engines.forTenant(huge).buildDeveloperInstructions()).contains("FACT: long tenant")
                    .doesNotContain("FACT: dots");
            assertThat(cache.getParent().resolve("other")).doesNotExist();
        }
    }

    /**
     * An engine built straight from {@link PostgresBackend#engineBuilder}, not through
     * {@link MemoryEngines}, is heard by its tenant's id (never a path), not by the name of the local
     * folder it caches into.
     */
    @Test
    void anEngineBuiltForATenantDirectly_namesItsStoreByTheTenant_notByItsCacheFolder(@TempDir Path cache) {
        List<MemoryOperation> operations = new CopyOnWriteArrayList<>();
        MemoryEventListener recorder = new MemoryEventListener() {
            @Override
            public void memoryOperation(MemoryOperation operation) {
                operations.add(operation);
            }
        };
        try (MemoryEngine engine = backend.engineBuilder("acme/eu", cache.resolve("cache-7f3a")).config(Fleet.config())
                .extractionModel(Fleet.extractionModel()).listener(recorder).build()) {
            engine.admin().clear();
        }

        assertThat(operations).filteredOn(op -> op.type() == MemoryOperation.Type.DELETE).singleElement()
                .satisfies(op -> assertThat(op.storeId()).isEqualTo("acme%2Feu"));
    }
}
