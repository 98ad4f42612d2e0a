package dev.mnemo.benchmarks;

import dev.mnemo.CitationStreamFilter;
import dev.mnemo.Citations;
import dev.mnemo.MemoryEngine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * The read path: {@code buildDeveloperInstructions} with a 40 KB summary against reading that file,
 * and the citation stream filter over 10 MB of answers in 64-byte chunks against an
 * {@code indexOf} scan of the same chunks.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ReadPathBenchmarks {

    static final int SUMMARY_BYTES = 40 * 1024;
    static final int ANSWER_BYTES = 10 * 1024 * 1024;
    static final int CHUNK = 64;
    static final String CITATION_OPEN = "<oai-mem-citation>";

    private Path home;
    private Path summary;
    private MemoryEngine engine;
    private String[] chunks;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        home = BenchSupport.scratch("read");
        summary = home.resolve("memories/memory_summary.md");
        BenchSupport.write(summary, summaryText());
        engine = MemoryEngine.builder().home(home).model(BenchModel.instant()).build();
        if (engine.buildDeveloperInstructions().isEmpty()) {
            throw new IllegalStateException("no memory section built from " + summary);
        }
        chunks = answerChunks();
    }

    /** The 40 KB summary: {@code v1} and numbered one-line topics. */
    static String summaryText() {
        StringBuilder text = new StringBuilder("v1\n");
        for (int i = 0; text.length() < SUMMARY_BYTES; i++) {
            text.append("- Topic ").append(i).append(": the build is hermetic; run `mvn -B verify` before pushing.\n");
        }
        return text.substring(0, SUMMARY_BYTES);
    }

    /** About 10 MB of answers, one citation block every ~2 KB, cut into 64-character chunks. */
    static String[] answerChunks() {
        Random random = new Random(10);
        StringBuilder answers = new StringBuilder(ANSWER_BYTES + 4096);
        while (answers.length() < ANSWER_BYTES) {
            for (int i = 0; i < 30; i++) {
                answers.append("The fix is to isolate the temp folder <b>per test</b>; see step ")
                        .append(random.nextInt(1000)).append(".\n");
            }
            answers.append(CITATION_OPEN).append("\n<citation_entries>\nMEMORY.md:1-4|note=[build fix]\n")
                    .append("</citation_entries>\n<rollout_ids>\n0199812e-64f0-7f73-91fc-095dda01c36e\n")
                    .append("</rollout_ids>\n</oai-mem-citation>\n");
        }
        List<String> out = new ArrayList<>(answers.length() / CHUNK + 1);
        for (int i = 0; i < answers.length(); i += CHUNK) {
            out.add(answers.substring(i, Math.min(answers.length(), i + CHUNK)));
        }
        return out.toArray(String[]::new);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        engine.close();
        BenchSupport.deleteRecursively(home);
    }

    @Benchmark
    public String instructions() {
        return engine.buildDeveloperInstructions();
    }

    @Benchmark
    public String instructionsReference() throws IOException {
        return Files.readString(summary, StandardCharsets.UTF_8);
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public void citationStream(Blackhole bh) {
        CitationStreamFilter filter = Citations.streamFilter();
        for (String chunk : chunks) {
            bh.consume(filter.push(chunk));
        }
        bh.consume(filter.finish());
        bh.consume(filter.bodies());
    }

    /** The least a streaming filter must do: look for a tag start in every chunk. */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MILLISECONDS)
    public int citationStreamReference() {
        int found = 0;
        for (String chunk : chunks) {
            int at = -1;
            while ((at = chunk.indexOf('<', at + 1)) >= 0) {
                found++;
            }
        }
        return found;
    }

    static long answerBytes(String[] chunks) {
        long total = 0;
        for (String chunk : chunks) {
            total += chunk.getBytes(StandardCharsets.UTF_8).length;
        }
        return total;
    }
}
