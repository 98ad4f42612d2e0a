package dev.mnemo.benchmarks;

import dev.mnemo.HistoryConfig;
import dev.mnemo.internal.history.EngineHistory;
import dev.mnemo.internal.history.HistoryFile;
import dev.mnemo.internal.history.QueuedHistory;
import dev.mnemo.internal.redact.DefaultSecretRedactor;
import java.nio.file.Path;
import java.time.Clock;
import java.util.UUID;
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
import org.openjdk.jmh.annotations.Threads;

/**
 * {@code history_append}: the time a turn's message-history append takes on the caller's thread
 * (sampled, for the p99), as a recorded session makes it for each user message: the engine's
 * {@link QueuedHistory} (on the process's shared history writer) over an {@link EngineHistory} of
 * {@code <home>/history.jsonl} with the default redactor and the default {@code [history]} settings
 * (save everything, no {@code max_bytes}). {@link #append} runs on {@value #CONVERSATIONS} threads
 * at once, each its own conversation id, all on one file; after each call, outside the timed part,
 * the conversation waits until its line is in the file, as a conversation's next turn comes after a
 * model's answer, so the writer is never left behind by a loop no user could type. Reference:
 * {@link #appendAlone}, the same append from one thread, so the ratio is what the seven other
 * conversations add to one's p99.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class HistoryAppendBenchmark {

    static final int CONVERSATIONS = 8;

    /** A user turn of ordinary length, nothing in it to redact. */
    static final String TURN = "The integration tests in memory-store-sqlite fail about one run in five on CI but "
            + "never locally. They share a temp folder under target/ and two of them write logs.sqlite there. "
            + "Can you isolate the folder per test class and check whether anything else in the module relies "
            + "on the shared path, then run the suite ten times to see that it stays green?";

    /** One home's message history, shared by every thread of a run. */
    @State(Scope.Benchmark)
    public static class History {
        Path home;
        QueuedHistory history;

        @Setup(Level.Trial)
        public void setUp() {
            home = BenchSupport.scratch("history");
            history = new QueuedHistory(new EngineHistory(new HistoryFile(home), HistoryConfig.defaults(),
                    new DefaultSecretRedactor(), Clock.systemUTC()), QueuedHistory.sharedWriter());
        }

        /** The appends reached the file. */
        @TearDown(Level.Trial)
        public void tearDown() {
            try {
                if (history.recent(1).isEmpty()) {
                    throw new IllegalStateException("no history line was written");
                }
            } finally {
                BenchSupport.deleteRecursively(home);
            }
        }
    }

    /** One conversation: each benchmark thread has its own id. */
    @State(Scope.Thread)
    public static class Conversation {
        String id;
        QueuedHistory history;

        @Setup(Level.Trial)
        public void setUp(History shared) {
            id = UUID.randomUUID().toString();
            history = shared.history;
        }

        /** The turn's line is in the file before the conversation's next turn (not timed). */
        @TearDown(Level.Invocation)
        public void awaitWritten() {
            history.flush();
        }
    }

    @Benchmark
    @Threads(CONVERSATIONS)
    public boolean append(History history, Conversation conversation) {
        return history.history.append(conversation.id, TURN);
    }

    @Benchmark
    @Threads(1)
    public boolean appendAlone(History history, Conversation conversation) {
        return history.history.append(conversation.id, TURN);
    }
}
