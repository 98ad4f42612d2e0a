package dev.mnemo.benchmarks;

import dev.mnemo.MemoryEngine;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The cold-start metrics, each measured in fresh child JVMs ({@code java} of this JVM, this jar on
 * the class path), so class loading, native library loading and JIT are paid as a user pays them:
 *
 * <ul>
 *   <li>{@code engine_open_first}: in a fresh JVM, the first {@code MemoryEngine.build()} plus
 *       {@code buildDeveloperInstructions()} on an existing home, timed inside the child (JVM start
 *       excluded); median of {@link #RUNS} children.
 *   <li>{@code engine_retained_heap}: in one child, used heap after a full GC with {@link #ENGINES}
 *       engines open (each on its own existing home, instructions built once) minus the used heap
 *       before they were opened, divided by {@link #ENGINES}.
 *   <li>{@code engine_retained_heap_state}: the same, each engine's state layer used once as well
 *       (thread logs queried, a goal read, the message history read), so its logs and goals
 *       databases and its history file are open.
 *   <li>{@code cli_status_wall}: wall time of {@code java -jar memory-cli/target/mnemo.jar --home H
 *       status}, median of {@link #RUNS}, against {@code java -jar mnemo.jar --version} (same count,
 *       runs interleaved).
 * </ul>
 *
 * <p>{@code main} is the child's entry point: {@code first <home>} prints nanoseconds, {@code heap
 * <folder> <n>} prints bytes per engine.
 */
public final class EngineOpenCold {

    static final int RUNS = 5;
    static final int ENGINES = 200;
    static final Path CLI_JAR = Path.of("memory-cli/target/mnemo.jar");

    private EngineOpenCold() {}

    /**
     * An existing home: a 40 KB {@code memory_summary.md} (the read benchmark's), the state database
     * migrated, and one recorded session.
     */
    static void prepareHome(Path home) {
        BenchSupport.write(home.resolve("memories/memory_summary.md"), ReadPathBenchmarks.summaryText());
        try (MemoryEngine engine = MemoryEngine.builder().home(home).build();
                RecordedSession session = engine.sessions().start(SessionContext.root("bench-open-thread"))) {
            session.userMessage("Why is the build flaky?");
            session.assistantMessage("A shared temp folder; isolate it per test.");
        }
    }

    /** The child: see the class comment. */
    public static void main(String[] args) {
        switch (args[0]) {
            case "first" -> {
                Path home = Path.of(args[1]);
                long start = System.nanoTime();
                MemoryEngine engine = MemoryEngine.builder().home(home).build();
                String instructions = engine.buildDeveloperInstructions();
                long elapsed = System.nanoTime() - start;
                engine.close();
                if (instructions.isEmpty()) {
                    throw new IllegalStateException("no memory section built in " + home);
                }
                System.out.println(elapsed);
            }
            case "heap" -> System.out.println(retainedBytesPerEngine(Path.of(args[1]), Integer.parseInt(args[2]), false));
            case "heap-state" -> System.out.println(retainedBytesPerEngine(Path.of(args[1]), Integer.parseInt(args[2]),
                    true));
            default -> throw new IllegalArgumentException("unknown mode " + args[0]);
        }
    }

    /**
     * @param stateOpen whether each engine's state layer is used once too (its thread logs queried,
     *     a goal read, its message history read), so its logs and goals databases and its history
     *     file are open, as in an engine that has served a conversation
     */
    private static long retainedBytesPerEngine(Path folder, int n, boolean stateOpen) {
        List<Path> homes = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Path home = folder.resolve("home-" + i);
            prepareHome(home);
            homes.add(home);
        }
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long before = usedAfterGc(memory);
        List<MemoryEngine> open = new ArrayList<>();
        for (Path home : homes) {
            MemoryEngine engine = MemoryEngine.builder().home(home).build();
            engine.buildDeveloperInstructions();
            if (stateOpen) {
                engine.threadLogs().query("bench-open-thread", 10);
                engine.goals().get("bench-open-thread");
                engine.messageHistory().recent(10);
            }
            open.add(engine);
        }
        long after = usedAfterGc(memory);
        long perEngine = (after - before) / n;
        open.forEach(MemoryEngine::close);
        return perEngine;
    }

    private static long usedAfterGc(MemoryMXBean memory) {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    /** Runs the cold metrics whose names match {@code selected}; returns summary lines. */
    static List<String> measure(java.util.function.Predicate<String> selected) throws IOException {
        List<String> lines = new ArrayList<>();
        boolean first = selected.test("EngineOpenCold.first");
        boolean heap = selected.test("EngineOpenCold.retainedHeap");
        boolean heapState = selected.test("EngineOpenCold.retainedHeapStateOpen");
        boolean cli = selected.test("EngineOpenCold.cliStatus");
        if (!first && !heap && !heapState && !cli) {
            return lines;
        }
        Path scratch = BenchSupport.scratch("cold");
        try {
            Path home = scratch.resolve("home");
            prepareHome(home);
            if (first) {
                long[] nanos = new long[RUNS];
                for (int i = 0; i < RUNS; i++) {
                    nanos[i] = Long.parseLong(child(List.of("first", home.toString())).strip());
                }
                lines.add(String.format(Locale.ROOT, "engine_open_first %.3f ms - -", median(nanos) / 1e6));
            }
            if (heap) {
                long bytes = Long.parseLong(child(List.of("heap", scratch.resolve("heap").toString(),
                        String.valueOf(ENGINES))).strip());
                lines.add(String.format(Locale.ROOT, "engine_retained_heap %.1f KB - -", bytes / 1024.0));
            }
            if (heapState) {
                long bytes = Long.parseLong(child(List.of("heap-state", scratch.resolve("heap-state").toString(),
                        String.valueOf(ENGINES))).strip());
                lines.add(String.format(Locale.ROOT, "engine_retained_heap_state %.1f KB - -", bytes / 1024.0));
            }
            if (cli) {
                if (!Files.isRegularFile(CLI_JAR)) {
                    System.err.println("cli_status_wall skipped: " + CLI_JAR.toAbsolutePath() + " not built");
                } else {
                    long[] status = new long[RUNS];
                    long[] version = new long[RUNS];
                    for (int i = 0; i < RUNS; i++) {
                        version[i] = wall(List.of(java(), "-jar", CLI_JAR.toString(), "--version"));
                        status[i] = wall(List.of(java(), "-jar", CLI_JAR.toString(), "--home", home.toString(),
                                "status"));
                    }
                    double s = median(status) / 1e9;
                    double v = median(version) / 1e9;
                    lines.add(String.format(Locale.ROOT, "cli_status_wall %.3f s %.3f %.2f", s, v, s / v));
                }
            }
        } finally {
            BenchSupport.deleteRecursively(scratch);
        }
        return lines;
    }

    private static String child(List<String> args) {
        List<String> command = new ArrayList<>(List.of(java(), "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp",
                ownJar(), EngineOpenCold.class.getName()));
        command.addAll(args);
        return run(command);
    }

    private static long wall(List<String> command) {
        long start = System.nanoTime();
        run(command);
        return System.nanoTime() - start;
    }

    static String run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            byte[] out = process.getInputStream().readAllBytes();
            int exit = process.waitFor();
            if (exit != 0) {
                throw new IllegalStateException(String.join(" ", command) + " exited with " + exit);
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command, e);
        }
    }

    static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    static String ownJar() {
        try {
            return Path.of(EngineOpenCold.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int m = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2.0;
    }
}
