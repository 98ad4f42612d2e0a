package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.testkit.TestClock;
import java.nio.file.Path;
import java.time.Duration;
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
}
