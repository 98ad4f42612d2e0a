package dev.mnemo.internal.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.HistoryConfig;
import dev.mnemo.HistoryEntry;
import dev.mnemo.internal.agent.MutableClock;
import dev.mnemo.internal.redact.DefaultSecretRedactor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A recorded session's history appends, queued on the caller's thread and written by the history's writer. */
class QueuedHistoryTest {

    private static final Instant T0 = Instant.ofEpochSecond(1_700_000_000L);

    @TempDir
    Path home;

    /** Holds the writer's tasks until the test runs them. */
    private final Queue<Runnable> held = new ArrayDeque<>();
    private final Executor heldExecutor = held::add;
    private final MutableClock clock = new MutableClock(T0);

    private QueuedHistory queued(Executor executor, HistoryConfig config) {
        return new QueuedHistory(new EngineHistory(new HistoryFile(home), config, new DefaultSecretRedactor(), clock),
                executor);
    }

    private Path file() {
        return home.resolve(HistoryFile.FILE_NAME);
    }

    private void runHeld() {
        for (Runnable task = held.poll(); task != null; task = held.poll()) {
            task.run();
        }
    }

    @Test
    void append_returnsBeforeTheLineIsWritten_thenTheWriterWritesIt_redactedAndStampedWhenQueued() throws Exception {
        QueuedHistory history = queued(heldExecutor, HistoryConfig.defaults());

        assertThat(history.append("t", "my key is sk-abcdefghijklmnopqrstuvwxyz123456 ok")).isTrue();
        assertThat(file()).doesNotExist();
        clock.advance(Duration.ofSeconds(60)); // the writer runs later; the line keeps the time it was queued at
        runHeld();

        assertThat(Files.readString(file())).isEqualTo(
                "{\"session_id\":\"t\",\"ts\":1700000000,\"text\":\"my key is [REDACTED_SECRET] ok\"}\n");
    }

    @Test
    void reads_firstWriteWhatIsQueued_inTheOrderItWasQueued() {
        QueuedHistory history = queued(heldExecutor, HistoryConfig.defaults());
        history.append("a", "one");
        history.append("b", "two");
        history.append("a", "three");

        assertThat(history.recent(10)).extracting(HistoryEntry::sessionId, HistoryEntry::text).containsExactly(
                org.assertj.core.groups.Tuple.tuple("a", "one"), org.assertj.core.groups.Tuple.tuple("b", "two"),
                org.assertj.core.groups.Tuple.tuple("a", "three"));
        assertThat(history.search("THREE", 10)).extracting(HistoryEntry::text).containsExactly("three");
        runHeld(); // the writer finds nothing left to write
        assertThat(history.recent(10)).hasSize(3);
    }

    @Test
    void removeSession_removesALineStillQueued_soTheWriterCannotAddItBackAfterwards() throws Exception {
        QueuedHistory history = queued(heldExecutor, HistoryConfig.defaults());
        history.append("keep", "a");
        history.append("drop", "b");

        assertThat(history.removeSession("drop")).isEqualTo(1);
        runHeld();

        assertThat(Files.readString(file())).doesNotContain("\"drop\"");
        assertThat(history.recent(10)).extracting(HistoryEntry::text).containsExactly("a");
    }

    @Test
    void flush_writesEverythingQueued_onTheCallersThread() throws Exception {
        QueuedHistory history = queued(heldExecutor, HistoryConfig.defaults());
        history.append("t", "one");
        history.append("t", "two");

        history.flush();

        assertThat(Files.readAllLines(file())).hasSize(2);
    }

    @Test
    void aWriterThatFallsBehind_makesTheCallerWriteTheQueue_soItNeverHoldsMoreThanItsBound() throws Exception {
        QueuedHistory history = queued(heldExecutor, HistoryConfig.defaults()); // the writer never runs here

        for (int i = 0; i < QueuedHistory.MAX_QUEUED; i++) {
            history.append("t", "line " + i);
        }
        assertThat(file()).as("the bound is not reached yet").doesNotExist();
        history.append("t", "one more");

        assertThat(Files.readAllLines(file())).hasSize(QueuedHistory.MAX_QUEUED + 1)
                .last().asString().contains("one more");
    }

    @Test
    void aShutDownWriter_leavesTheCallerToWriteItsOwnLine() throws Exception {
        QueuedHistory history = queued(task -> {
            throw new RejectedExecutionException("shut down");
        }, HistoryConfig.defaults());

        assertThat(history.append("t", "one")).isTrue();

        assertThat(Files.readAllLines(file())).hasSize(1);
    }

    @Test
    void textTheHistoryKeepsNot_isNotQueued() {
        QueuedHistory none = queued(heldExecutor,
                HistoryConfig.defaults().withPersistence(HistoryConfig.Persistence.NONE));
        assertThat(none.append("t", "not kept")).isFalse();
        assertThat(queued(heldExecutor, HistoryConfig.defaults()).append("t", "  \n")).isFalse();
        assertThat(held).isEmpty();
        assertThat(file()).doesNotExist();
    }

    @Test
    void anAppendPastMaxBytes_neverLeavesTheFileOverIt_andKeepsCodexsTrim() throws Exception {
        String line = "{\"session_id\":\"t\",\"ts\":1700000000,\"text\":\"" + "x".repeat(40) + "\"}\n";
        long max = line.length() * 5L / 2; // room for two lines
        QueuedHistory history = queued(Runnable::run, HistoryConfig.defaults().withMaxBytes(max));
        for (int i = 0; i < 10; i++) {
            history.append("t", "x".repeat(40));
            assertThat(Files.size(file())).isLessThanOrEqualTo(max);
        }
        // Past max after the third line: down to the soft cap (2·length), and the newest line stays.
        assertThat(Files.readString(file())).isEqualTo(line + line);
    }
}
