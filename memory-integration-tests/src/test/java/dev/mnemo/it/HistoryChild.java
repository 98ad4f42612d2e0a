package dev.mnemo.it;

import dev.mnemo.MemoryEngine;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A separate JVM recording user messages into a shared home, for the two-process history test.
 * Usage: {@code HistoryChild <home> <threadId> <count> <markerDir>}: opens the engine, writes
 * {@code ready-<threadId>}, waits for {@code go}, records {@code count} user messages of varied
 * length, then writes {@code done-<threadId>}.
 */
public final class HistoryChild {

    private HistoryChild() {}

    public static void main(String[] args) throws Exception {
        Path home = Path.of(args[0]);
        String threadId = args[1];
        int count = Integer.parseInt(args[2]);
        Path markers = Path.of(args[3]);
        try (MemoryEngine engine = MemoryEngine.builder().home(home).config(TestHomes.config()).build();
                RecordedSession session = engine.sessions().start(SessionContext.root(threadId))) {
            Files.createDirectories(markers);
            Files.writeString(markers.resolve("ready-" + threadId), "");
            while (!Files.exists(markers.resolve("go"))) {
                Thread.sleep(5); // waiting for the other process, not for time to pass
            }
            for (int i = 0; i < count; i++) {
                session.userMessage(message(threadId, i));
            }
        }
        Files.writeString(markers.resolve("done-" + threadId), "");
    }

    /** The {@code i}-th message of {@code threadId}: its number, then 0 to 299 filler characters. */
    static String message(String threadId, int i) {
        return threadId + " #" + i + " " + "abcdefghij".repeat(30).substring(0, (i * 37) % 300);
    }
}
