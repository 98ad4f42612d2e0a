package dev.mnemo.benchmarks;

import dev.mnemo.AssistantMessage;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.MemorySession;
import dev.mnemo.MemoryTools;
import dev.mnemo.SessionContext;
import dev.mnemo.ThreadLogEntry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
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
 * What a turn pays for its receipt ({@code receipt_per_turn}): the {@link MemoryReceipt} an answer
 * carries, built from what the turn was given, read and cited, and the thread-log entry it is
 * written as ({@link MemoryReceipt#toLogMessage()}, the line the engine logs every turn).
 *
 * <p>The receipt alone, not a turn with and without it: through the public API every answer builds
 * one, and a whole turn (the answer appended to the session's rollout, its citation counted in
 * SQLite) costs hundreds of microseconds whose spread hides a few. The receipt's parts are those of a
 * real turn, taken in setup: the 40 KB summary injected, a {@code memories_read} and a
 * {@code memories_search}, one citation.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ReceiptBenchmark {

    private Path home;
    private MemoryEngine engine;
    private MemoryReceipt turn;
    private final Instant at = Instant.parse("2026-12-04T12:00:00Z");

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        home = BenchSupport.scratch("receipt");
        BenchSupport.write(home.resolve("memories/memory_summary.md"), ReadPathBenchmarks.summaryText());
        BenchSupport.write(home.resolve("memories/MEMORY.md"), "# Memory\n\n" + ReadPathBenchmarks.summaryText());
        engine = MemoryEngine.builder().home(home).model(BenchModel.instant()).build();
        try (MemorySession session = engine.openSession(SessionContext.root("receipt-turn"))) {
            session.developerInstructions();
            session.callTool("c1", MemoryTools.READ, "{\"path\":\"memory_summary.md\"}");
            session.callTool("c2", MemoryTools.SEARCH, "{\"queries\":[\"hermetic build\"]}");
            AssistantMessage answer = session.assistantMessage("Run `mvn -B verify` first.<oai-mem-citation>\n"
                    + "<citation_entries>\nMEMORY.md:3-4|note=[the build is hermetic]\n</citation_entries>\n"
                    + "<rollout_ids>\n0199812e-64f0-7f73-91fc-095dda01c36e\n</rollout_ids>\n</oai-mem-citation>");
            turn = answer.receipt();
        }
        if (turn.injected().isEmpty() || turn.reads().size() != 2 || turn.citations().isEmpty()) {
            throw new IllegalStateException("the setup turn's receipt is not a full one: " + turn);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        engine.close();
        BenchSupport.deleteRecursively(home);
    }

    /** The receipt of one turn and its thread-log entry, as the engine makes them after each answer. */
    @Benchmark
    public ThreadLogEntry receipt() {
        MemoryReceipt receipt = new MemoryReceipt(turn.threadId(), turn.injected(), turn.reads(), turn.citations());
        return new ThreadLogEntry(receipt.threadId(), at, "INFO", MemoryReceipt.LOG_TARGET, receipt.toLogMessage());
    }
}
