package dev.mnemo.console;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.Phase1Report;
import dev.mnemo.Phase2Report;
import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.store.sqlite.SqliteMemoryStore;
import dev.mnemo.testkit.ScriptedLanguageModel;
import dev.mnemo.testkit.TestClock;
import dev.mnemo.workspace.git.GitMemoryWorkspace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;

/**
 * A home with a real SQLite store, a real git workspace, a clock the test moves, a scripted model
 * (a test double: it answers by rules, knows nothing) and a console over its engine: what
 * {@code mnemo ui} serves, minus the real model.
 *
 * <p>The scripted extraction remembers, for a conversation that mentions one of the
 * {@linkplain #remember registered words}, the memory registered for it.
 */
final class ConsoleHome implements AutoCloseable {

    static final Instant T0 = Instant.parse("2026-11-01T09:00:00Z");

    final Path home;
    final TestClock clock = new TestClock(T0);
    final ScriptedLanguageModel model;
    /** The store the test opened; null when the engine opened its own ({@link #withThreadLogs}). */
    final SqliteMemoryStore store;
    final GitMemoryWorkspace workspace;
    final MemoryEngine engine;
    final MnemoConsole console;
    private final Map<String, String> memories = new LinkedHashMap<>();
    /** When set, the consolidation agent's model fails with this message. */
    private volatile String consolidationFailure;

    ConsoleHome(Path home) {
        this(home, MemoriesConfig.defaults());
    }

    ConsoleHome(Path home, MemoriesConfig config) {
        this(home, config, null);
    }

    /** With "refresh now" run on {@code refreshExecutor} (null: the console's own thread). */
    ConsoleHome(Path home, MemoriesConfig config, ExecutorService refreshExecutor) {
        this(home, config, refreshExecutor, false);
    }

    /**
     * A home whose engine opens its SQLite store itself, as {@code mnemo ui}'s does, and so keeps
     * thread logs ({@code logs.sqlite}); an engine given its store keeps none.
     */
    static ConsoleHome withThreadLogs(Path home) {
        return new ConsoleHome(home, MemoriesConfig.defaults(), null, true);
    }

    /**
     * A home whose engine is given {@code wrap(store)}: the real SQLite store seen through a
     * wrapper, such as one that counts what the console asks of it.
     */
    static ConsoleHome withStoreSeenThrough(Path home, UnaryOperator<MemoryStore> wrap) {
        return new ConsoleHome(home, MemoriesConfig.defaults(), null, false, wrap);
    }

    private ConsoleHome(Path home, MemoriesConfig config, ExecutorService refreshExecutor, boolean engineOpensStore) {
        this(home, config, refreshExecutor, engineOpensStore, UnaryOperator.identity());
    }

    private ConsoleHome(Path home, MemoriesConfig config, ExecutorService refreshExecutor, boolean engineOpensStore,
            UnaryOperator<MemoryStore> wrap) {
        this.home = home;
        this.model = ScriptedLanguageModel.builder().extraction(this::extract).consolidation(this::consolidate).build();
        this.store = engineOpensStore ? null : SqliteMemoryStore.open(home.resolve("mnemo.sqlite"));
        this.workspace = GitMemoryWorkspace.open(home.resolve("memories"), clock);
        MemoryEngine.Builder engineBuilder = MemoryEngine.builder().home(home).config(config).model(model).clock(clock)
                .workspace(workspace).closeTimeout(Duration.ofSeconds(2));
        if (store != null) {
            engineBuilder.store(wrap.apply(store));
        }
        this.engine = engineBuilder.build();
        // Labelled as a default home is, so that the screenshots look as a user's console does.
        // The tests move the clock by hours to pass the idle window; sessions here outlive that
        // (the idle expiry has its own test, on a console with the default timeout).
        MnemoConsole.Builder builder = MnemoConsole.builder().engine(engine).label("~/.mnemo").clock(clock)
                .sessionIdleTimeout(Duration.ofDays(3650));
        if (refreshExecutor != null) {
            builder.executor(refreshExecutor);
        }
        this.console = builder.build().start();
    }

    /**
     * Three conversations, one of them in the project {@code acme-shop}, and two consolidations:
     * the first of {@code chat-tabs} and {@code chat-shop}, the second adding {@code chat-pytest}.
     */
    ConsoleHome withHistory() {
        remember("tabs", "- The user indents with tabs, never spaces; four columns wide.");
        remember("pytest", "- Tests run with `pytest -q` from the repository root; `-x` stops at the first failure.");
        remember("Postgres", "- The shop's database is PostgreSQL 16; migrations live in `db/migrations`.");
        recordSession("chat-tabs", "Please remember: tabs, never spaces.", "Four columns wide, yes.");
        recordSession(SessionContext.root("chat-shop").inProject("acme-shop"),
                "The shop runs on Postgres 16. Where do migrations go?");
        extractAndConsolidate();
        recordSession("chat-pytest", "How do I run the tests? pytest, right?");
        extractAndConsolidate();
        return this;
    }

    /** The next extraction of a conversation that mentions {@code word} remembers {@code memory}. */
    ConsoleHome remember(String word, String memory) {
        memories.put(word, memory);
        return this;
    }

    private String extract(ModelRequest request) {
        String conversation = request.messages().stream().map(ModelMessage::text).collect(Collectors.joining("\n"));
        for (Map.Entry<String, String> memory : memories.entrySet()) {
            if (conversation.contains(memory.getKey())) {
                return ScriptedLanguageModel.stage1Json(memory.getValue(), "Recap: " + memory.getValue(),
                        memory.getKey());
            }
        }
        return ScriptedLanguageModel.stage1Json("- nothing worth keeping", "Recap: small talk", "small-talk");
    }

    /** From now on, the consolidation agent's model fails with {@code message} (a server error). */
    ConsoleHome failConsolidations(String message) {
        consolidationFailure = message;
        return this;
    }

    private ModelResponse consolidate(ModelRequest request) {
        String failure = consolidationFailure;
        if (failure != null) {
            throw new ModelException(ModelException.Reason.SERVER, failure);
        }
        return ScriptedLanguageModel.writeArtifactsFromRawMemories(request, ScriptedLanguageModel.DEFAULT_USAGE);
    }

    /** Records a finished conversation called {@code threadId} now and returns its id. */
    String recordSession(String threadId, String... userMessages) {
        return recordSession(SessionContext.root(threadId), userMessages);
    }

    /** Records a finished conversation of {@code context} now and returns its id. */
    String recordSession(SessionContext context, String... userMessages) {
        try (RecordedSession session = engine.sessions().start(context)) {
            for (String message : userMessages) {
                session.userMessage(message);
                session.assistantMessage("Noted: " + message);
            }
        }
        return context.threadId();
    }

    /** Past the six-hour idle window and the six-hour cooldown. */
    void idle() {
        clock.advance(Duration.ofHours(7));
    }

    /** Moves past the idle window, extracts every idle conversation and consolidates. */
    Phase2Report extractAndConsolidate() {
        idle();
        Phase1Report phase1 = engine.admin().runPhase1("console-test");
        if (phase1.failed() > 0) {
            throw new IllegalStateException("Phase 1 failed: " + phase1);
        }
        return engine.admin().runPhase2();
    }

    Path memoryRoot() {
        return home.resolve("memories");
    }

    /** Writes a file into the memory folder by hand, as a person (or an attacker's memory) could. */
    void plant(String relativePath, String content) {
        Path file = memoryRoot().resolve(relativePath);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        console.close();
        engine.close();
        workspace.close();
        if (store != null) {
            store.close();
        }
    }
}
