package dev.mnemo.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.mnemo.MemoryEngine;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.postgres.FleetChild;
import dev.mnemo.postgres.PostgresBackend;
import dev.mnemo.postgres.TestCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Phase 1 jobs per second with a zero-latency model and {@code JVMS × WORKERS} workers in separate
 * JVMs sharing one tenant on one database (fleet mode). Not a JMH benchmark: the JVMs are started,
 * wait for a start signal, drain the tenant's rollouts, and the wall time from the signal to the
 * last JVM's finish is reported. Usage: {@code java -cp benchmarks.jar
 * dev.mnemo.benchmarks.FleetPhase1AcrossJvms [rollouts] [jvms] [workersPerJvm]}.
 */
public final class FleetPhase1AcrossJvms {

    private FleetPhase1AcrossJvms() {}

    public static void main(String[] args) throws Exception {
        int rollouts = args.length > 0 ? Integer.parseInt(args[0]) : 400;
        int jvms = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        int workers = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        String url = TestCluster.get().createDatabase("phase1_jvms");
        Path scratch = BenchSupport.scratch("fleet-jvms");
        Instant recorded = BenchDatabases.NOW.minus(Duration.ofHours(3));
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        try (HikariDataSource pool = new HikariDataSource(config)) {
            PostgresBackend backend = PostgresBackend.builder().dataSource(pool).build();
            try (MemoryEngine recorder = backend.engineBuilder("tenant", scratch.resolve("recorder"))
                    .clock(Clock.fixed(recorded, ZoneOffset.UTC)).model(BenchModel.instant()).build()) {
                for (int i = 0; i < rollouts; i++) {
                    try (RecordedSession session = recorder.sessions().start(SessionContext.root("t" + i))) {
                        session.userMessage("FACT: fix the flaky build " + i);
                        session.assistantMessage("Moved the temp folder under target/ for run " + i + ".");
                    }
                }
            }
            Path markers = scratch.resolve("markers");
            List<Process> children = new ArrayList<>();
            for (int j = 0; j < jvms; j++) {
                children.add(new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-Xmx256m", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp",
                        System.getProperty("java.class.path"), FleetChild.class.getName(), "phase1-drain", url, "mnemo",
                        "tenant", scratch.resolve("server-" + j).toString(),
                        Long.toString(BenchDatabases.NOW.toEpochMilli()), markers.toString(), Integer.toString(workers),
                        Integer.toString(rollouts))
                        .inheritIO().start());
            }
            while (Files.notExists(markers) || count(markers, "ready-") < jvms) {
                Thread.sleep(20);
            }
            long start = System.nanoTime();
            Files.writeString(markers.resolve("go"), "");
            for (Process child : children) {
                if (child.waitFor() != 0) {
                    throw new IllegalStateException("a Phase 1 JVM failed with " + child.exitValue());
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            int done = 0;
            try (var files = Files.list(markers)) {
                for (Path file : files.filter(p -> p.getFileName().toString().startsWith("done-")).toList()) {
                    done += Integer.parseInt(Files.readString(file).trim());
                }
            }
            System.out.printf(Locale.ROOT, "fleet_phase1_jvms %.1f jobs_per_s (%d of %d rollouts, %d JVMs x %d workers,"
                    + " %.2f s)%n", done / seconds, done, rollouts, jvms, workers, seconds);
        } finally {
            BenchSupport.deleteRecursively(scratch);
        }
    }

    private static long count(Path dir, String prefix) throws java.io.IOException {
        try (var files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().startsWith(prefix)).count();
        }
    }
}
