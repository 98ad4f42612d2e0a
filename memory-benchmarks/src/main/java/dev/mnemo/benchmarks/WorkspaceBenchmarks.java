package dev.mnemo.benchmarks;

import dev.mnemo.MemoryTools;
import dev.mnemo.spi.WorkspaceDiff;
import dev.mnemo.workspace.git.GitMemoryWorkspace;
import java.nio.file.Path;
import java.util.Random;
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

/**
 * The workspace: the diff of 4,096 rollout summaries with 10 changed, against {@code git status
 * --porcelain} + {@code git diff} on a copy; and memory search over a 50 MB workspace, against
 * {@code grep -rF} over the same files. The CLIs run from this JVM with ProcessBuilder.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class WorkspaceBenchmarks {

    static final int SUMMARIES = 4_096;
    static final int CHANGED = 10;
    static final long SEARCH_BYTES = 50L * 1024 * 1024;
    static final String NEEDLE = "zebra-needle-4096";

    /** A workspace whose baseline holds 4,096 summaries, 10 of them since changed; and a git CLI copy. */
    @State(Scope.Benchmark)
    public static class DiffState {
        Path dir;
        Path root;
        Path copy;
        GitMemoryWorkspace workspace;

        @Setup(Level.Trial)
        public void setUp() {
            dir = BenchSupport.scratch("diff");
            root = dir.resolve("memories");
            copy = dir.resolve("git-copy");
            Random random = new Random(4096);
            BenchSupport.write(root.resolve("MEMORY.md"), "# Memory\n");
            BenchSupport.write(root.resolve("memory_summary.md"), "v1\nsummary\n");
            for (int i = 0; i < SUMMARIES; i++) {
                BenchSupport.write(root.resolve("rollout_summaries/2026-03-01T00-00-00-" + i + "-summary.md"),
                        summary(i, random));
            }
            BenchSupport.copyTree(root, copy);
            BenchSupport.git(copy, "init", "-q");
            BenchSupport.git(copy, "add", "-A");
            BenchSupport.git(copy, "commit", "-q", "-m", "baseline");
            workspace = GitMemoryWorkspace.open(root);
            workspace.prepare();
            if (!workspace.diff().isEmpty()) {
                throw new IllegalStateException("a fresh baseline should have no changes");
            }
            for (int i = 0; i < CHANGED; i++) {
                String name = "rollout_summaries/2026-03-01T00-00-00-" + (i * 397) + "-summary.md";
                String changed = summary(i * 397, new Random(i)) + "\nupdated by a later rollout " + i + "\n";
                BenchSupport.write(root.resolve(name), changed);
                BenchSupport.write(copy.resolve(name), changed);
            }
            WorkspaceDiff diff = workspace.diff();
            if (diff.changes().size() != CHANGED) {
                throw new IllegalStateException("expected " + CHANGED + " changes, got " + diff.changes());
            }
            BenchSupport.git(copy, "status", "--porcelain"); // refresh the index once, as a long-lived clone would
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            workspace.close();
            BenchSupport.deleteRecursively(dir);
        }
    }

    static String summary(int i, Random random) {
        StringBuilder text = new StringBuilder("thread_id: 0199812e-64f0-7f73-91fc-" + String.format("%012d", i) + "\n");
        text.append("updated_at: 2026-03-01T00:00:00Z\n\n# Task ").append(i).append("\n");
        for (int line = 0; line < 20; line++) {
            text.append("- step ").append(line).append(": ran the build with seed ").append(random.nextInt())
                    .append(" and kept the temp folder per test\n");
        }
        return text.toString();
    }

    /** 50 MB of memory files, the needle in ten of them. */
    @State(Scope.Benchmark)
    public static class SearchState {
        Path dir;
        Path root;
        MemoryTools tools;
        String arguments;

        @Setup(Level.Trial)
        public void setUp() {
            dir = BenchSupport.scratch("search");
            root = dir.resolve("memories");
            Random random = new Random(50);
            int files = 2_000;
            long perFile = SEARCH_BYTES / files;
            for (int f = 0; f < files; f++) {
                StringBuilder text = new StringBuilder((int) perFile + 200);
                while (text.length() < perFile) {
                    text.append("- ").append(random.nextInt()).append(" the build kept its temp folder per test; ")
                            .append("mvn -B verify passed after the fix\n");
                    if (f % 200 == 7 && text.length() > perFile / 2 && text.indexOf(NEEDLE) < 0) {
                        text.append("- found the ").append(NEEDLE).append(" here\n");
                    }
                }
                BenchSupport.write(root.resolve("rollout_summaries/summary-" + f + ".md"), text.toString());
            }
            tools = MemoryTools.forFolder(root);
            arguments = "{\"queries\":[\"" + NEEDLE + "\"]}";
            String reply = tools.call(MemoryTools.SEARCH, arguments);
            if (!reply.contains("summary-7.md")) {
                throw new IllegalStateException("search did not find the needle: " + reply);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            BenchSupport.deleteRecursively(dir);
        }
    }

    @Benchmark
    public WorkspaceDiff workspaceDiff(DiffState state) {
        return state.workspace.diff();
    }

    @Benchmark
    public String workspaceDiffReference(DiffState state) {
        return BenchSupport.git(state.copy, "status", "--porcelain") + BenchSupport.git(state.copy, "diff");
    }

    @Benchmark
    public String search(SearchState state) {
        return state.tools.call(MemoryTools.SEARCH, state.arguments);
    }

    @Benchmark
    public String searchReference(SearchState state) {
        return BenchSupport.run(state.root, "grep", "-rF", NEEDLE, ".");
    }
}
