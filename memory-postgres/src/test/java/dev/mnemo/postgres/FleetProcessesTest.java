package dev.mnemo.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryStatus;
import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.testkit.ChildJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Application servers as separate JVMs on one database: two of them serving two tenants run whole
 * startup tasks side by side, and a server killed with SIGKILL in the middle of Phase 1 or Phase 2
 * is taken over once its lease has expired.
 */
class FleetProcessesTest {

    @RegisterExtension
    static final PostgresDatabase DB = new PostgresDatabase();

    private static final String SCHEMA = "processes";
    private static final Instant IDLE = Fleet.START.plus(Duration.ofHours(2));
    private static final Instant AFTER_LEASES = IDLE.plus(Duration.ofMinutes(61));
    /** Past the 6-hour cooldown of a consolidation the startup loops ran (their clocks start at IDLE). */
    private static final Instant AFTER_COOLDOWN = IDLE.plus(Duration.ofHours(7));
    private static PostgresBackend backend;

    @TempDir
    Path tmp;

    @BeforeAll
    static void migrate() {
        backend = DB.backend(SCHEMA);
    }

    /** Records {@code count} sessions of {@code tenant}, each with one FACT naming tenant and thread. */
    private List<String> seed(String tenant, int count) {
        List<String> facts = new ArrayList<>();
        try (MemoryEngine engine = engine(tenant, "seeder", Fleet.START)) {
            for (int i = 0; i < count; i++) {
                String fact = "FACT: " + tenant + " thread " + i;
                try (RecordedSession session = engine.sessions().start(SessionContext.root(tenant + "-t" + i))) {
                    session.userMessage(fact);
                }
                facts.add(fact);
            }
        }
        return facts;
    }

    private MemoryEngine engine(String tenant, String server, Instant now) {
        return Fleet.engine(backend, tenant, tmp.resolve(server).resolve(tenant), Clock.fixed(now, ZoneOffset.UTC));
    }

    /** Runs a blocking child for {@code tenant} and SIGKILLs it once {@code count} markers exist. */
    private void killWhen(String mode, String tenant, String markerPrefix, int count) throws Exception {
        Path markers = tmp.resolve("markers");
        Path log = tmp.resolve("child.log");
        Process child = ChildJvm.start(FleetChild.class, log, mode, DB.jdbcUrl(), SCHEMA, tenant, tmp.resolve("killed").toString(),
                Long.toString(IDLE.toEpochMilli()), markers.toString());
        ChildJvm.await(count + " " + markerPrefix + " markers", Duration.ofSeconds(90), child, log,
                () -> ChildJvm.markers(markers, markerPrefix) == count);
        child.destroyForcibly().waitFor();
        assertThat(child.exitValue()).as("killed by SIGKILL (128 + 9)").isEqualTo(137);
    }

    @Test
    void twoServersTimesTwoTenants_startupTasksRepeatedly_extractEachThreadOnce_neverOverlapAConsolidation_andKeepTenantsApart()
            throws Exception {
        List<String> tenants = List.of("ann", "ben");
        List<String> annFacts = seed("ann", 12);
        List<String> benFacts = seed("ben", 12);
        Path markers = tmp.resolve("markers");
        long wall = System.currentTimeMillis();
        List<Process> children = new ArrayList<>();
        for (String server : List.of("s1", "s2")) {
            children.add(ChildJvm.start(FleetChild.class, tmp.resolve(server + ".log"), "startup-loop", DB.jdbcUrl(), SCHEMA,
                    String.join(",", tenants), tmp.resolve(server).toString(), Long.toString(IDLE.toEpochMilli()),
                    markers.toString(), "4", Long.toString(wall)));
        }
        for (int i = 0; i < children.size(); i++) {
            Process child = children.get(i);
            Path log = tmp.resolve("s" + (i + 1) + ".log");
            ChildJvm.await("startup loop " + (i + 1) + " to finish", Duration.ofSeconds(120), child, log,
                    () -> !child.isAlive());
            assertThat(child.exitValue()).as(Files.readString(log)).isZero();
        }

        for (String tenant : tenants) {
            List<String> extracted = new ArrayList<>();
            try (Stream<Path> logs = Files.list(markers)) {
                for (Path log : logs.filter(p -> p.getFileName().toString().startsWith("claims-" + tenant + "-"))
                        .toList()) {
                    Files.readAllLines(log).stream().filter(l -> !l.isBlank()).forEach(extracted::add);
                }
            }
            Set<String> distinct = new HashSet<>(extracted);
            assertThat(extracted).as("no thread of %s extracted twice", tenant).hasSameSizeAs(distinct);
            assertThat(distinct).containsExactlyInAnyOrderElementsOf(tenant.equals("ann") ? annFacts : benFacts);
        }
        assertThat(markers.resolve("overlaps.log")).doesNotExist();
        // What each server served at the end of its loop: never the other tenant's memories (it may
        // still be empty when the other server was consolidating that tenant at the time).
        try (Stream<Path> files = Files.list(markers)) {
            for (Path file : files.filter(p -> p.getFileName().toString().startsWith("instructions-")).toList()) {
                boolean ann = file.getFileName().toString().startsWith("instructions-ann-");
                assertThat(Files.readString(file)).as(file.toString()).doesNotContain(ann ? "FACT: ben" : "FACT: ann");
            }
        }
        // Once both are done, a third server consolidates each tenant after the cooldown and serves
        // it all of its own memories and none of the other's. (What the loops consolidated depends
        // on timing: a server whose Phase 1 found every job of a tenant running on the other one may
        // run Phase 2 before those jobs finish; with nothing selected and nothing changed, that is a
        // success as in Codex, and its 6-hour cooldown holds the later extractions back.)
        for (String tenant : tenants) {
            try (MemoryEngine third = engine(tenant, "third", AFTER_COOLDOWN)) {
                assertThat(third.admin().runPhase2().outcome()).isIn(Phase2Outcome.SUCCEEDED,
                        Phase2Outcome.NO_WORKSPACE_CHANGES);
                String other = tenant.equals("ann") ? "FACT: ben" : "FACT: ann";
                assertThat(third.buildDeveloperInstructions()).contains(tenant.equals("ann") ? annFacts : benFacts)
                        .doesNotContain(other);
            }
        }
    }

    @Test
    void serverKilledDuringPhase1_itsJobsAreTakenOverAfterTheLease() throws Exception {
        List<String> facts = seed("crash-one", 3);
        killWhen("phase1-block", "crash-one", "called-", 3);

        try (MemoryEngine engine = engine("crash-one", "survivor", IDLE)) {
            assertThat(engine.admin().status().runningLeases()).hasSize(3);
            assertThat(engine.admin().runPhase1("none").claimed()).isZero();
        }
        try (MemoryEngine engine = engine("crash-one", "survivor", AFTER_LEASES)) {
            Phase1Report phase1 = engine.admin().runPhase1("none");
            assertThat(phase1.claimed()).isEqualTo(3);
            assertThat(phase1.succeeded()).isEqualTo(3);
            assertThat(engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(engine.admin().status().runningLeases()).isEmpty();
            assertThat(engine.buildDeveloperInstructions()).contains(facts);
        }
    }

    @Test
    void serverKilledDuringPhase2_nothingHalfWrittenIsShared_andTheLockIsTakenOverAfterTheLease() throws Exception {
        seed("crash-two", 2);
        try (MemoryEngine engine = engine("crash-two", "survivor", IDLE)) {
            assertThat(engine.admin().runPhase1("none").succeeded()).isEqualTo(2);
        }
        killWhen("phase2-block", "crash-two", "agent-running", 1);

        try (MemoryEngine engine = engine("crash-two", "survivor", IDLE)) {
            assertThat(engine.buildDeveloperInstructions()).doesNotContain("HALF-WRITTEN");
            MemoryStatus status = engine.admin().status();
            assertThat(status.runningLeases()).extracting(MemoryStatus.Lease::kind)
                    .containsExactly("memory_consolidate_global");
            assertThat(engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SKIPPED_RUNNING);
        }
        try (MemoryEngine engine = engine("crash-two", "survivor", AFTER_LEASES)) {
            assertThat(engine.admin().runPhase2().outcome()).isEqualTo(Phase2Outcome.SUCCEEDED);
            assertThat(engine.admin().status().runningLeases()).isEmpty();
            assertThat(engine.buildDeveloperInstructions()).contains("FACT: crash-two thread 1")
                    .doesNotContain("HALF-WRITTEN");
            assertThat(engine.admin().history()).hasSize(1);
        }
    }
}
