package dev.mnemo.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryMode;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.store.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recorder and the thread sync read a thread row, then upsert it. A second thread (here a
 * second store on the same SQLite file, as another process would be) that disables or pollutes the
 * thread in between must win: the upsert never turns the mode back to enabled. The interleaving is
 * forced with {@link FaultyStore#interleaveAfter}, so the race happens every run.
 */
class MemoryModeRaceTest {

    @TempDir
    Path home;

    private final FaultyStore faults = new FaultyStore();

    @Test
    void recorder_doesNotReEnableAThreadDisabledBetweenItsReadAndItsUpsert() {
        try (Pipeline p = pipeline(); SqliteMemoryStore other = SqliteMemoryStore.open(home.resolve("mnemo.sqlite"));
                RecordedSession session = p.engine.sessions().start(SessionContext.root("chat-42"))) {
            session.userMessage("first turn");
            assertThat(mode(other, "chat-42")).isEqualTo(MemoryMode.ENABLED);

            faults.interleaveAfter("thread", () -> other.setThreadMemoryMode("chat-42", MemoryMode.DISABLED,
                    p.clock.instant()));
            session.assistantMessage("second turn");

            assertThat(mode(other, "chat-42")).isEqualTo(MemoryMode.DISABLED);
        }
    }

    @Test
    void recorder_doesNotUnpolluteAThreadPollutedBetweenItsReadAndItsUpsert() {
        try (Pipeline p = pipeline(); SqliteMemoryStore other = SqliteMemoryStore.open(home.resolve("mnemo.sqlite"));
                RecordedSession session = p.engine.sessions().start(SessionContext.root("chat-43"))) {
            session.userMessage("first turn");

            faults.interleaveAfter("thread", () -> other.markThreadPolluted("chat-43", p.clock.instant()));
            session.assistantMessage("second turn");

            assertThat(mode(other, "chat-43")).isEqualTo(MemoryMode.POLLUTED);
        }
    }

    @Test
    void threadSync_doesNotReEnableAThreadDisabledBetweenItsReadAndItsUpsert() {
        try (Pipeline p = pipeline(); SqliteMemoryStore other = SqliteMemoryStore.open(home.resolve("mnemo.sqlite"))) {
            String id = p.recordSession("fix the flaky build");
            // The registry row differs from what the scan finds, so the sync writes it.
            other.upsertThread(other.thread(id).orElseThrow().toBuilder().preview("stale preview").build());

            faults.interleaveAfter("thread", () -> other.setThreadMemoryMode(id, MemoryMode.DISABLED,
                    p.clock.instant()));
            int changed = p.engine.admin().syncThreads();

            assertThat(changed).isEqualTo(1);
            assertThat(mode(other, id)).isEqualTo(MemoryMode.DISABLED);
            assertThat(other.thread(id).orElseThrow().preview()).isNotEqualTo("stale preview");
        }
    }

    private Pipeline pipeline() {
        return new Pipeline(home, MemoriesConfig.defaults(), null, null, faults);
    }

    private static MemoryMode mode(SqliteMemoryStore store, String threadId) {
        return store.thread(threadId).orElseThrow().memoryMode();
    }
}
