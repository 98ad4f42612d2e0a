package dev.mnemo.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.mnemo.MemoryEngine;
import dev.mnemo.SessionContext;
import dev.mnemo.StartupReport;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.spi.ConsolidationAgentResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;

/**
 * An application server in its own JVM for the fleet tests: engines on a shared PostgreSQL schema,
 * each tenant with a cache folder of this JVM's own. Usage:
 * {@code FleetChild <mode> <jdbcUrl> <schema> <tenants,comma-separated> <cacheDir> <epochMillis> <markerDir> [iterations]}
 * where mode is {@code phase1-block} (the model blocks forever), {@code phase2-block} (the agent
 * writes a summary, then blocks forever), {@code startup-loop} (the whole startup task for every
 * tenant, {@code iterations} times; a clock running from {@code epochMillis} at wall speed since
 * the parent's wall time {@code epochMillis} was paired with, passed as the 9th argument) or
 * {@code phase1-drain} (with {@code iterations} Phase 1 workers, a zero-latency model and
 * {@code max_rollouts_per_startup = 8}: once {@code <markerDir>/go} exists, Phase 1 runs until the
 * tenant has as many memories as the 9th argument says, then {@code done-<pid>} records how many
 * jobs this JVM extracted) or {@code history-append} (once {@code <markerDir>/go} exists, appends
 * {@code iterations} lines {@code <pid> <i>} to the tenant's message history with the 9th argument
 * as {@code max_bytes}, then writes {@code appended-<pid>}).
 */
public final class FleetChild {

    private FleetChild() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        HikariConfig pool = new HikariConfig();
        pool.setJdbcUrl(args[1]);
        pool.setMaximumPoolSize(8);
        try (HikariDataSource dataSource = new HikariDataSource(pool)) {
            PostgresBackend backend = PostgresBackend.builder().dataSource(dataSource).schema(args[2]).build();
            List<String> tenants = List.of(args[3].split(","));
            Path cache = Path.of(args[4]);
            Instant start = Instant.ofEpochMilli(Long.parseLong(args[5]));
            Path markers = Path.of(args[6]);
            Files.createDirectories(markers);
            switch (mode) {
                case "phase1-block" -> phase1Block(backend, tenants.get(0), cache, start, markers);
                case "phase2-block" -> phase2Block(backend, tenants.get(0), cache, start, markers);
                case "startup-loop" -> startupLoop(backend, tenants, cache, Fleet.wallClock(start, Long.parseLong(args[8])),
                        markers, Integer.parseInt(args[7]));
                case "phase1-drain" -> phase1Drain(backend, tenants.get(0), cache, start, markers,
                        Integer.parseInt(args[7]), Integer.parseInt(args[8]));
                case "history-append" -> historyAppend(backend, tenants.get(0), markers, Integer.parseInt(args[7]),
                        Long.parseLong(args[8]));
                default -> throw new IllegalArgumentException("unknown mode " + mode);
            }
        }
    }

    private static void phase1Block(PostgresBackend backend, String tenant, Path cache, Instant now, Path markers) {
        CountDownLatch never = new CountDownLatch(1);
        LanguageModel model = request -> {
            touch(markers.resolve("called-" + UUID.randomUUID()));
            awaitForever(never);
            throw new AssertionError("unreachable");
        };
        try (MemoryEngine engine = backend.engineBuilder(tenant, cache).config(Fleet.config()).extractionModel(model)
                .consolidationAgent(Fleet.agent()).clock(Clock.fixed(now, ZoneOffset.UTC)).build()) {
            engine.admin().runPhase1("none");
        }
    }

    private static void phase2Block(PostgresBackend backend, String tenant, Path cache, Instant now, Path markers) {
        CountDownLatch never = new CountDownLatch(1);
        ConsolidationAgent agent = request -> {
            try {
                Files.writeString(request.memoryRoot().resolve("MEMORY.md"), "# Memory\nHALF-WRITTEN\n");
                Files.writeString(request.memoryRoot().resolve("memory_summary.md"), "v1\nHALF-WRITTEN\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            touch(markers.resolve("agent-running"));
            awaitForever(never);
            return ConsolidationAgentResult.completed(TokenUsage.ZERO);
        };
        try (MemoryEngine engine = backend.engineBuilder(tenant, cache).config(Fleet.config())
                .extractionModel(Fleet.extractionModel()).consolidationAgent(agent)
                .clock(Clock.fixed(now, ZoneOffset.UTC)).build()) {
            engine.admin().runPhase2();
        }
    }

    private static void phase1Drain(PostgresBackend backend, String tenant, Path cache, Instant now, Path markers,
            int workers, int total) throws Exception {
        try (MemoryEngine engine = backend.engineBuilder(tenant, cache).extractionModel(Fleet.extractionModel())
                .config(dev.mnemo.MemoriesConfig.builder().minRolloutIdleHours(1).maxRolloutsPerStartup(8)
                        .phase1Concurrency(workers).build())
                .consolidationAgent(Fleet.agent()).clock(Clock.fixed(now, ZoneOffset.UTC)).build()) {
            touch(markers.resolve("ready-" + ProcessHandle.current().pid()));
            while (!Files.exists(markers.resolve("go"))) {
                Thread.sleep(5); // polling for the parent's start signal, not waiting for time to pass
            }
            // max_rollouts_per_startup is also the tenant's running cap across every server: a JVM
            // that finds it reached claims nothing and tries again until every rollout is extracted.
            int done = 0;
            while (engine.admin().status().stage1Outputs() < total) {
                done += engine.admin().runPhase1("none").succeeded();
            }
            Files.writeString(markers.resolve("done-" + ProcessHandle.current().pid()), Integer.toString(done));
        }
    }

    private static void historyAppend(PostgresBackend backend, String tenant, Path markers, int count, long maxBytes)
            throws Exception {
        long pid = ProcessHandle.current().pid();
        dev.mnemo.spi.HistoryStore history = backend.store(tenant).messageHistory().orElseThrow();
        touch(markers.resolve("ready-" + pid));
        while (!Files.exists(markers.resolve("go"))) {
            Thread.sleep(5); // polling for the parent's start signal, not waiting for time to pass
        }
        for (int i = 0; i < count; i++) {
            history.append("server-" + pid, 1_700_000_000L + i, pid + " " + i, maxBytes);
        }
        touch(markers.resolve("appended-" + pid));
    }

    /**
     * Every extraction appends the facts it saw to {@code claims-<tenant>-<pid>.log}; the
     * consolidation agent of a tenant holds {@code consolidating-<tenant>.lock} while it works and
     * appends to {@code overlaps.log} when it finds it held. At the end, each tenant's instructions
     * go to {@code instructions-<tenant>-<pid>.txt}.
     */
    private static void startupLoop(PostgresBackend backend, List<String> tenants, Path cache, Clock clock,
            Path markers, int iterations) throws Exception {
        long pid = ProcessHandle.current().pid();
        List<MemoryEngine> engines = new ArrayList<>();
        try {
            for (String tenant : tenants) {
                Path claims = markers.resolve("claims-" + tenant + "-" + pid + ".log");
                LanguageModel model = request -> {
                    List<String> facts = Fleet.facts(request);
                    append(claims, String.join("\n", facts) + "\n");
                    return ModelResponse.ofText(Fleet.stage1Reply(facts), Fleet.USAGE);
                };
                engines.add(backend.engineBuilder(tenant, cache.resolve(tenant)).config(Fleet.config())
                        .extractionModel(model).consolidationAgent(exclusive(Fleet.agent(), tenant, markers, pid))
                        .clock(clock).build());
            }
            for (int i = 0; i < iterations; i++) {
                for (MemoryEngine engine : engines) {
                    StartupReport report = engine.startStartupTask(SessionContext.root("server-" + pid + "-" + i))
                            .completion().get();
                    System.out.println("[child " + pid + "] startup " + i + ": " + report);
                }
            }
            for (int t = 0; t < tenants.size(); t++) {
                Files.writeString(markers.resolve("instructions-" + tenants.get(t) + "-" + pid + ".txt"),
                        engines.get(t).buildDeveloperInstructions());
            }
        } finally {
            engines.forEach(MemoryEngine::close);
        }
    }

    /** Wraps an agent with a marker file that proves no two consolidations of a tenant overlap. */
    private static ConsolidationAgent exclusive(ConsolidationAgent agent, String tenant, Path markers, long pid) {
        Path lock = markers.resolve("consolidating-" + tenant + ".lock");
        return request -> {
            try {
                Files.writeString(lock, Long.toString(pid), StandardOpenOption.CREATE_NEW);
            } catch (FileAlreadyExistsException e) {
                append(markers.resolve("overlaps.log"), pid + " found " + tenant + "'s consolidation running\n");
                return ConsolidationAgentResult.failed("overlap", TokenUsage.ZERO);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            try {
                return agent.run(request);
            } finally {
                try {
                    Files.deleteIfExists(lock);
                } catch (IOException e) {
                    append(markers.resolve("overlaps.log"), pid + " could not release " + lock + "\n");
                }
            }
        };
    }

    private static void touch(Path file) {
        append(file, "");
    }

    private static synchronized void append(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void awaitForever(CountDownLatch never) {
        try {
            never.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
