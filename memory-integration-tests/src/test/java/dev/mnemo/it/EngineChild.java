package dev.mnemo.it;

import dev.mnemo.MemoryEngine;
import dev.mnemo.SessionContext;
import dev.mnemo.StartupReport;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.spi.ConsolidationAgentResult;
import dev.mnemo.llm.TokenUsage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A separate JVM running an engine on a shared home, for the crash and two-process tests. Usage:
 * {@code EngineChild <mode> <home> <epochMillis> <markerDir> [iterations]} where mode is
 * {@code phase1-block} (the model blocks forever), {@code phase2-block} (the default agent writes
 * large summaries, one a turn, and then blocks), or {@code startup-loop} (the whole startup task,
 * {@code iterations} times; a clock running from {@code epochMillis} at wall speed).
 */
public final class EngineChild {

    private EngineChild() {}

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Path home = Path.of(args[1]);
        Instant now = Instant.ofEpochMilli(Long.parseLong(args[2]));
        Path markers = Path.of(args[3]);
        Files.createDirectories(markers);
        switch (mode) {
            case "phase1-block" -> phase1Block(home, now, markers);
            case "phase2-block" -> phase2Block(home, now, markers);
            case "startup-loop" -> startupLoop(home, now, markers, Integer.parseInt(args[4]));
            default -> throw new IllegalArgumentException("unknown mode " + mode);
        }
    }

    private static void phase1Block(Path home, Instant now, Path markers) throws InterruptedException {
        CountDownLatch never = new CountDownLatch(1);
        FaultModel model = new FaultModel(request -> {
            touch(markers.resolve("called-" + FaultModel.threadId(request).orElse("unknown")));
            awaitForever(never);
            throw new AssertionError("unreachable");
        });
        try (MemoryEngine engine = MemoryEngine.builder().home(home).config(TestHomes.config()).model(model)
                .clock(TestHomes.at(now)).build()) {
            engine.admin().runPhase1("no-current-thread");
        }
    }

    /** Each turn writes a large memory_summary.md (v1 … END-n); from the sixth turn on it blocks. */
    private static void phase2Block(Path home, Instant now, Path markers) {
        AtomicInteger turns = new AtomicInteger();
        CountDownLatch never = new CountDownLatch(1);
        String filler = "lesson: keep the build hermetic. ".repeat(32 * 1024);
        FaultModel model = new FaultModel(request -> {
            int turn = turns.incrementAndGet();
            touch(markers.resolve("turn-" + turn));
            if (turn > 5) {
                awaitForever(never);
            }
            return ModelResponse.ofToolCalls(List.of(
                    FaultModel.writeFile("m" + turn, "MEMORY.md", "# Memory\n" + filler + "\nEND-" + turn + "\n"),
                    FaultModel.writeFile("s" + turn, "memory_summary.md", "v1\n" + filler + "\nEND-" + turn + "\n")),
                    FaultModel.USAGE);
        });
        try (MemoryEngine engine = MemoryEngine.builder().home(home).config(TestHomes.config()).model(model)
                .clock(TestHomes.at(now)).build()) {
            engine.admin().runPhase2();
        }
    }

    /**
     * Runs the startup task {@code iterations} times. Every Phase 1 request appends its thread id to
     * {@code claims-<pid>.log}; the consolidation agent holds {@code consolidating.lock} while it
     * works and appends to {@code overlaps.log} when it finds it already held.
     */
    private static void startupLoop(Path home, Instant start, Path markers, int iterations) throws Exception {
        long pid = ProcessHandle.current().pid();
        Path claims = markers.resolve("claims-" + pid + ".log");
        long wallStart = System.currentTimeMillis();
        Clock clock = new Clock() {
            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return start.plusMillis(System.currentTimeMillis() - wallStart);
            }
        };
        FaultModel model = new FaultModel(request -> {
            String id = FaultModel.threadId(request).orElse("unknown");
            append(claims, id + "\n");
            return ModelResponse.ofText(FaultModel.stage1Json("summary " + id, "raw " + id), FaultModel.USAGE);
        });
        Path lock = markers.resolve("consolidating.lock");
        try (MemoryEngine engine = MemoryEngine.builder().home(home).config(TestHomes.config()).model(model)
                .consolidationAgent(request -> {
                    try {
                        Files.writeString(lock, Long.toString(pid), StandardOpenOption.CREATE_NEW);
                    } catch (FileAlreadyExistsException e) {
                        append(markers.resolve("overlaps.log"), pid + " found the lock held\n");
                        return ConsolidationAgentResult.failed("overlap", TokenUsage.ZERO);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                    try {
                        Files.writeString(request.memoryRoot().resolve("MEMORY.md"), "# Memory by " + pid + "\n");
                        Files.writeString(request.memoryRoot().resolve("memory_summary.md"), "v1\nby " + pid + "\n");
                        Thread.sleep(30); // widen the window in which an overlap would be seen
                        return ConsolidationAgentResult.completed(TokenUsage.ZERO);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return ConsolidationAgentResult.failed("interrupted", TokenUsage.ZERO);
                    } finally {
                        try {
                            Files.deleteIfExists(lock);
                        } catch (IOException e) {
                            append(markers.resolve("overlaps.log"), pid + " could not release the lock\n");
                        }
                    }
                })
                .clock(clock).build()) {
            for (int i = 0; i < iterations; i++) {
                StartupReport report = engine.startStartupTask(SessionContext.root(UUID.randomUUID().toString()))
                        .completion().get();
                System.out.println("[child " + pid + "] startup " + i + ": " + report);
            }
        }
    }

    private static synchronized void append(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void touch(Path file) {
        try {
            Files.writeString(file, "", StandardOpenOption.CREATE);
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
