package dev.mnemo.benchmarks;

import dev.mnemo.MemoryEngine;
import dev.mnemo.ProjectKeys;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The read path of a session in a project ({@code instructions_project}): what
 * {@link ReadPathBenchmarks#instructions()} times, {@code buildDeveloperInstructions}, for a project
 * key, in a memory folder holding 200 projects (each {@code projects/<slug>/memory_summary.md} and
 * {@code MEMORY.md}) beside the 40 KB global summary; against reading the two summaries those
 * instructions carry, the project's and the global one, with {@code Files.readString}.
 *
 * <p>{@code instructionsProject} is the cached path: nothing changed between calls, so the
 * rendering is reused after one {@code stat} a file (against reads that cache nothing).
 * {@code instructionsProjectMiss} is the path after a consolidation rewrote the project's summary:
 * before each call, outside the timed region, the summary is rewritten (same size, the other of two
 * texts), so every call reads it again and renders anew; its reference reads the two files after
 * the same rewrite.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ProjectInstructionsBenchmark {

    static final int PROJECTS = 200;
    static final int PROJECT_SUMMARY_BYTES = 8 * 1024;
    static final int PROJECT_HANDBOOK_BYTES = 32 * 1024;

    private Path home;
    private Path globalSummary;
    private Path projectSummary;
    private String projectKey;
    private MemoryEngine engine;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        home = BenchSupport.scratch("read-project");
        Path memories = home.resolve("memories");
        globalSummary = memories.resolve("memory_summary.md");
        BenchSupport.write(globalSummary, ReadPathBenchmarks.summaryText());
        BenchSupport.write(memories.resolve("MEMORY.md"), "# Memory\n\n" + ReadPathBenchmarks.summaryText());
        for (int i = 0; i < PROJECTS; i++) {
            String key = key(i);
            Path folder = memories.resolve(ProjectKeys.FOLDER).resolve(ProjectKeys.slug(key));
            BenchSupport.write(folder.resolve("memory_summary.md"), projectText(i, "v1\n", PROJECT_SUMMARY_BYTES));
            BenchSupport.write(folder.resolve("MEMORY.md"), projectText(i, "# Memory\n", PROJECT_HANDBOOK_BYTES));
        }
        projectKey = key(PROJECTS / 2);
        projectSummary = memories.resolve(ProjectKeys.FOLDER).resolve(ProjectKeys.slug(projectKey))
                .resolve("memory_summary.md");
        engine = MemoryEngine.builder().home(home).model(BenchModel.instant()).build();
        String instructions = engine.buildDeveloperInstructions(projectKey);
        if (!instructions.contains(marker(PROJECTS / 2)) || instructions.contains(marker(PROJECTS / 2 + 1))) {
            throw new IllegalStateException("the instructions for " + projectKey + " do not carry its summary alone");
        }
    }

    /** A repository-like key: {@code /home/dev/src/service-042}. */
    static String key(int project) {
        return String.format(Locale.ROOT, "/home/dev/src/service-%03d", project);
    }

    /** A line only project {@code project}'s files hold. */
    private static String marker(int project) {
        return "service-" + project + " deploys with";
    }

    /** {@code first}, then numbered one-line decisions of one project, cut at {@code bytes}. */
    static String projectText(int project, String first, int bytes) {
        StringBuilder text = new StringBuilder(first);
        for (int i = 0; text.length() < bytes; i++) {
            text.append("- Decision ").append(i).append(": ").append(marker(project))
                    .append(" `make release`; its tests need Java 21 and pnpm.\n");
        }
        return text.substring(0, bytes);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        engine.close();
        BenchSupport.deleteRecursively(home);
    }

    /** Rewrites the project's summary before each call, outside the timed region: what a consolidation does. */
    @State(Scope.Thread)
    public static class Rewrite {
        private String[] texts;
        private int next;

        @Setup(Level.Trial)
        public void texts() {
            String text = projectText(PROJECTS / 2, "v1\n", PROJECT_SUMMARY_BYTES);
            texts = new String[] {text, "v2" + text.substring(2)};
        }

        @Setup(Level.Invocation)
        public void rewrite(ProjectInstructionsBenchmark bench) throws IOException {
            Files.writeString(bench.projectSummary, texts[next++ & 1], StandardCharsets.UTF_8);
        }
    }

    @Benchmark
    public String instructionsProjectMiss(Rewrite rewritten) {
        return engine.buildDeveloperInstructions(projectKey);
    }

    @Benchmark
    public void instructionsProjectMissReference(Rewrite rewritten, Blackhole bh) throws IOException {
        instructionsProjectReference(bh);
    }

    @Benchmark
    public String instructionsProject() {
        return engine.buildDeveloperInstructions(projectKey);
    }

    @Benchmark
    public void instructionsProjectReference(Blackhole bh) throws IOException {
        bh.consume(Files.readString(projectSummary, StandardCharsets.UTF_8));
        bh.consume(Files.readString(globalSummary, StandardCharsets.UTF_8));
    }
}
