package dev.mnemo.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * {@code mcp_initialize_wall}: from spawning {@code mnemo mcp} as docs/mcp.md registers it with
 * Codex ({@code java -Xlog:disable -Xlog:all=warning:stderr -XX:SharedArchiveFile=mnemo-mcp.jsa -jar
 * mnemo.jar --home H mcp}, with {@code -XX:TieredStopAtLevel=1 -XX:+UseSerialGC}) to reading its
 * answer to {@code initialize}, the time a client waits before it has the tools and the
 * instructions; median of {@link #RUNS}, against the wall time of {@code java -jar mnemo.jar
 * --version} (same count, runs interleaved). The home holds the read benchmark's 40 KB summary, so
 * the instructions are rendered as a real home's are. {@code mcp_initialize_wall_no_cds} is the same
 * without the archive, {@code mcp_initialize_wall_java_jar} a bare {@code java -jar mnemo.jar ... mcp}.
 */
final class McpInitializeCold {

    static final int RUNS = 7;
    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\","
            + "\"version\":\"1\"}}}\n";

    private McpInitializeCold() {}

    /** Runs the metric when {@code selected} accepts {@code McpInitializeCold.initialize}; summary lines. */
    static List<String> measure(Predicate<String> selected) throws IOException {
        List<String> lines = new ArrayList<>();
        if (!selected.test("McpInitializeCold.initialize")) {
            return lines;
        }
        Path jar = cliJar("mcp_initialize_wall");
        if (jar == null) {
            return lines;
        }
        Path archive = jar.resolveSibling("mnemo-mcp.jsa");
        Path scratch = BenchSupport.scratch("mcp");
        try {
            Path home = scratch.resolve("home");
            BenchSupport.write(home.resolve("memories/memory_summary.md"), ReadPathBenchmarks.summaryText());
            BenchSupport.write(home.resolve("memories/MEMORY.md"), "# Handbook\n- builds use gradle 8\n");
            List<String> server = List.of(java(), "-Xlog:disable", "-Xlog:all=warning:stderr",
                    "-XX:SharedArchiveFile=" + archive, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar",
                    jar.toString(), "--home", home.toString(), "mcp");
            List<String> plain = List.of(java(), "-Xlog:disable", "-Xlog:all=warning:stderr",
                    "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-jar", jar.toString(), "--home", home.toString(),
                    "mcp");
            List<String> bare = List.of(java(), "-jar", jar.toString(), "--home", home.toString(), "mcp");
            long[] withArchive = new long[RUNS];
            long[] withoutArchive = new long[RUNS];
            long[] javaJar = new long[RUNS];
            long[] version = new long[RUNS];
            for (int i = 0; i < RUNS; i++) {
                version[i] = wall(List.of(java(), "-jar", jar.toString(), "--version"));
                withArchive[i] = untilInitialized(server);
                withoutArchive[i] = untilInitialized(plain);
                javaJar[i] = untilInitialized(bare);
            }
            double v = median(version) / 1e9;
            double a = median(withArchive) / 1e9;
            double p = median(withoutArchive) / 1e9;
            if (!Files.isRegularFile(archive)) {
                System.err.println("mcp_initialize_wall: no " + archive + "; measured without an archive");
            }
            lines.add(String.format(Locale.ROOT, "mcp_initialize_wall %.3f s %.3f %.2f", a, v, a / v));
            lines.add(String.format(Locale.ROOT, "mcp_initialize_wall_no_cds %.3f s %.3f %.2f", p, v, p / v));
            double j = median(javaJar) / 1e9;
            lines.add(String.format(Locale.ROOT, "mcp_initialize_wall_java_jar %.3f s %.3f %.2f", j, v, j / v));
        } finally {
            BenchSupport.deleteRecursively(scratch);
        }
        return lines;
    }

    /** The CLI's jar, absolute; null (said on standard error) when it is not built and {@code metric} is skipped. */
    static Path cliJar(String metric) {
        Path jar = EngineOpenCold.CLI_JAR.toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            System.err.println(metric + " skipped: " + jar + " not built");
            return null;
        }
        return jar;
    }

    /** Nanoseconds from spawning {@code command} to the first line it writes after {@code initialize}. */
    static long untilInitialized(List<String> command) {
        try {
            long start = System.nanoTime();
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            OutputStream in = process.getOutputStream();
            in.write(INITIALIZE.getBytes(StandardCharsets.UTF_8));
            in.flush();
            String answer = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            long elapsed = System.nanoTime() - start;
            in.close();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not exit after its input ended");
            }
            if (answer == null || !answer.contains("\"serverInfo\"")) {
                throw new IllegalStateException(String.join(" ", command) + " answered initialize with " + answer);
            }
            return elapsed;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command, e);
        }
    }

    private static long wall(List<String> command) {
        try {
            long start = System.nanoTime();
            Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            process.getInputStream().readAllBytes();
            if (process.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed");
            }
            return System.nanoTime() - start;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command, e);
        }
    }

    private static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int m = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2.0;
    }
}
