package dev.mnemo.it;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.store.sqlite.SqliteMemoryStore;
import dev.mnemo.workspace.git.GitMemoryWorkspace;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * A home folder with a real SQLite store, a real git workspace, a scripted model and a clock the
 * test moves: what an agent application would build, minus the real model.
 */
class Pipeline implements AutoCloseable {

    static final Instant T0 = Instant.parse("2026-11-01T09:00:00Z");
    private static final SecureRandom RANDOM = new SecureRandom();

    final Path home;
    final MutableClock clock = new MutableClock(T0);
    final ScriptedModel model = new ScriptedModel();
    final SqliteMemoryStore store;
    final GitMemoryWorkspace workspace;
    final MemoryEngine engine;

    Pipeline(Path home) {
        this(home, MemoriesConfig.defaults(), null);
    }

    Pipeline(Path home, MemoriesConfig config, ConsolidationAgent agent) {
        this(home, config, agent, null);
    }

    Pipeline(Path home, MemoriesConfig config, ConsolidationAgent agent, MemoryEventListener listener) {
        this(home, config, agent, listener, new FaultyStore());
    }

    /** With the engine's store calls going through {@code faults} (nothing fails until it is armed). */
    Pipeline(Path home, MemoriesConfig config, ConsolidationAgent agent, MemoryEventListener listener,
            FaultyStore faults) {
        this(home, config, agent, listener, faults, null);
    }

    /** With the engine running its background work on {@code executor} (null: its own threads). */
    Pipeline(Path home, MemoriesConfig config, ConsolidationAgent agent, MemoryEventListener listener,
            FaultyStore faults, java.util.concurrent.ExecutorService executor) {
        this(home, config, agent, listener, faults, executor, null);
    }

    /** With {@code otherModel} as the engine's model instead of the scripted {@link #model}. */
    static Pipeline withModel(Path home, MemoriesConfig config, dev.mnemo.llm.LanguageModel otherModel) {
        return new Pipeline(home, config, null, null, new FaultyStore(), null, otherModel);
    }

    /**
     * How long closing waits for the engine's background work. Long enough for a consolidation that
     * a forget started to finish on a loaded two-core machine (with 200 ms it could still be writing
     * the memory folder after the test, and the temporary folder could not be deleted); a test whose
     * work is held on purpose pays it once.
     */
    static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);

    private Pipeline(Path home, MemoriesConfig config, ConsolidationAgent agent, MemoryEventListener listener,
            FaultyStore faults, java.util.concurrent.ExecutorService executor, dev.mnemo.llm.LanguageModel otherModel) {
        this.home = home;
        this.store = SqliteMemoryStore.open(home.resolve("mnemo.sqlite"));
        this.workspace = GitMemoryWorkspace.open(home.resolve("memories"), clock);
        MemoryEngine.Builder builder = MemoryEngine.builder().home(home).config(config)
                .model(otherModel == null ? model : otherModel).clock(clock)
                .store(faults.around(store)).workspace(workspace).closeTimeout(CLOSE_TIMEOUT);
        if (agent != null) {
            builder.consolidationAgent(agent);
        }
        if (executor != null) {
            builder.executor(executor);
        }
        if (listener != null) {
            builder.listener(listener);
        }
        this.engine = builder.build();
    }

    Path memoryRoot() {
        return home.resolve("memories");
    }

    /** Records a finished session now and returns its id (a UUIDv7 stamped with the clock). */
    String recordSession(String... userMessages) {
        return recordSession(SessionContext.root(uuidV7(clock.instant())), userMessages);
    }

    /** Records a finished session of {@code context} now and returns its id. */
    String recordSession(SessionContext context, String... userMessages) {
        String id = context.threadId();
        try (RecordedSession session = engine.sessions().start(context)) {
            for (String message : userMessages) {
                session.userMessage(message);
                session.assistantMessage("Done: " + message);
            }
        }
        return id;
    }

    /** Moves past the six-hour idle window. */
    void idle() {
        clock.advance(Duration.ofHours(7));
    }

    static String uuidV7(Instant at) {
        long ms = at.toEpochMilli();
        long msb = (ms << 16) | 0x7000L | (RANDOM.nextInt() & 0x0FFFL);
        long lsb = (RANDOM.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb).toString();
    }

    @Override
    public void close() {
        engine.close();
        workspace.close();
        store.close();
    }
}
