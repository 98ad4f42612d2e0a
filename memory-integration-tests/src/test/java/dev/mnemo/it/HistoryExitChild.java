package dev.mnemo.it;

import dev.mnemo.MemoryEngine;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A JVM whose {@code <conversations>} conversations, each on its own thread, record
 * {@code <lines>} user messages each, and which then exits at once with its engine and sessions
 * still open, as a script that never closes them does. Conversations typing in parallel queue
 * their history lines faster than the one writer writes them, so lines are still queued at the
 * exit. Usage: {@code HistoryExitChild <home> <conversations> <lines>}.
 */
public final class HistoryExitChild {

    private HistoryExitChild() {}

    @SuppressWarnings("resource") // never closed, on purpose
    public static void main(String[] args) throws InterruptedException {
        int conversations = Integer.parseInt(args[1]);
        int lines = Integer.parseInt(args[2]);
        MemoryEngine engine = MemoryEngine.builder().home(Path.of(args[0])).build();
        List<Thread> typing = new ArrayList<>();
        for (int c = 0; c < conversations; c++) {
            RecordedSession session = engine.sessions().start(SessionContext.root("exit-without-close-" + c));
            int conversation = c;
            Thread thread = new Thread(() -> {
                for (int i = 0; i < lines; i++) {
                    session.userMessage("conversation " + conversation + ", message " + i + " typed before the exit");
                }
            });
            thread.start();
            typing.add(thread);
        }
        for (Thread thread : typing) {
            thread.join();
        }
        System.exit(0);
    }
}
