package dev.mnemo.testkit;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit extension for testing an agent built on Mnemo offline: before each test it makes a fresh
 * Mnemo home in a temp folder and builds a {@link MemoryEngine} on it with a
 * {@link ScriptedLanguageModel} (a test double, not a model) and a {@link TestClock}; after the test
 * it closes the engine and deletes the home.
 *
 * <pre>{@code
 * @RegisterExtension
 * MnemoTempHome mnemo = MnemoTempHome.builder()
 *         .model(ScriptedLanguageModel.builder().chatReply("Run ./gradlew test --offline.").build())
 *         .build();
 *
 * @Test
 * void agentRemembersHowToRunTheTests() {
 *     try (MemorySession past = mnemo.engine().openSession(SessionContext.root("past"))) { ... }
 *     mnemo.clock().advance(Duration.ofHours(7));        // past the idle window, without sleeping
 *     try (MemorySession now = mnemo.engine().openSession(SessionContext.root("now"))) {
 *         now.startupTask().completion().join();         // Phase 1 and Phase 2 ran on the scripted model
 *         assertThat(now.developerInstructions()).contains("MEMORY_SUMMARY BEGINS");
 *     }
 * }
 * }</pre>
 *
 * <p>The engine finds its store and workspace as in production: the defaults on the test class
 * path ({@code memory-store-sqlite}, {@code memory-workspace-git}), unless
 * {@link Builder#engine(UnaryOperator)} wires others. Register it on an instance field: with JUnit's
 * default per-method lifecycle each test then gets its own extension, home, clock and model, so
 * {@link ScriptedLanguageModel#requests()} holds only the current test's requests.
 */
public final class MnemoTempHome implements BeforeEachCallback, AfterEachCallback {

    /** Where the clock stands when a test starts, unless {@link Builder#startingAt} says otherwise. */
    public static final Instant DEFAULT_START = Instant.parse("2026-03-02T09:00:00Z");

    private final ScriptedLanguageModel model;
    private final Instant start;
    private final MemoriesConfig config;
    private final UnaryOperator<MemoryEngine.Builder> customizer;

    private Path home;
    private TestClock clock;
    private MemoryEngine engine;

    private MnemoTempHome(Builder builder) {
        this.model = builder.model;
        this.start = builder.start;
        this.config = builder.config;
        this.customizer = builder.customizer;
    }

    /**
     * A temp home with the default scripted model, clock start and settings.
     *
     * @return a new extension, to register with {@code @RegisterExtension}
     */
    public static MnemoTempHome create() {
        return builder().build();
    }

    /**
     * Starts an extension whose model, clock start, settings or engine wiring you choose.
     *
     * @return a new builder holding the defaults
     */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void beforeEach(ExtensionContext context) throws IOException {
        home = Files.createTempDirectory("mnemo-home-");
        clock = new TestClock(start);
        engine = open();
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        try {
            if (engine != null) {
                engine.close();
            }
        } finally {
            engine = null;
            deleteRecursively(home);
        }
    }

    /**
     * The engine of the current test, on {@link #home()}.
     *
     * @return the open engine
     * @throws IllegalStateException if called outside a test
     */
    public MemoryEngine engine() {
        return requireStarted(engine);
    }

    /**
     * Closes the current engine and builds a new one on the same home and clock, as a process
     * restart would; the new one is what {@link #engine()} returns from then on.
     *
     * @return the new engine
     * @throws IllegalStateException if called outside a test
     */
    public MemoryEngine restart() {
        requireStarted(engine).close();
        engine = open();
        return engine;
    }

    /**
     * The home folder of the current test (its {@code memories/} folder holds the memory files).
     *
     * @return the test's temporary home, deleted after the test
     * @throws IllegalStateException if called outside a test
     */
    public Path home() {
        return requireStarted(home);
    }

    /**
     * The clock the engine reads; advance it to let idle windows, leases and cooldowns pass.
     *
     * @return the test's clock, new for each test
     * @throws IllegalStateException if called outside a test
     */
    public TestClock clock() {
        return requireStarted(clock);
    }

    /**
     * The scripted model behind both phases (and, if your agent uses it, your chat).
     *
     * @return the model, shared by every test of this extension
     */
    public ScriptedLanguageModel model() {
        return model;
    }

    private MemoryEngine open() {
        MemoryEngine.Builder builder = MemoryEngine.builder().home(home).model(model).clock(clock);
        if (config != null) {
            builder.config(config);
        }
        return customizer.apply(builder).build();
    }

    private static <T> T requireStarted(T value) {
        if (value == null) {
            throw new IllegalStateException("MnemoTempHome is used outside a test: register it with @RegisterExtension "
                    + "on an instance field and call it from a test method");
        }
        return value;
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(path);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** What a {@link MnemoTempHome} builds; every setting has a default. */
    public static final class Builder {

        private ScriptedLanguageModel model;
        private Instant start = DEFAULT_START;
        private MemoriesConfig config;
        private UnaryOperator<MemoryEngine.Builder> customizer = UnaryOperator.identity();

        private Builder() {}

        /**
         * The scripted model for both phases; default {@link ScriptedLanguageModel#create()}.
         *
         * @param model the model every engine of the extension uses; not null
         * @return this builder
         */
        public Builder model(ScriptedLanguageModel model) {
            this.model = Objects.requireNonNull(model, "model");
            return this;
        }

        /**
         * Where the test clock stands when each test starts; default {@link #DEFAULT_START}.
         *
         * @param start the clock's instant at the start of each test; not null
         * @return this builder
         */
        public Builder startingAt(Instant start) {
            this.start = Objects.requireNonNull(start, "start");
            return this;
        }

        /**
         * The engine's settings; default: those of the (empty) home, i.e. Mnemo's defaults.
         *
         * @param config the settings every engine is built with; not null
         * @return this builder
         */
        public Builder config(MemoriesConfig config) {
            this.config = Objects.requireNonNull(config, "config");
            return this;
        }

        /**
         * Further wiring of each engine (a store, a workspace, a listener, an executor...), applied
         * after home, model and clock are set.
         *
         * @param customizer takes the engine builder and returns the builder to build; not null
         * @return this builder
         */
        public Builder engine(UnaryOperator<MemoryEngine.Builder> customizer) {
            this.customizer = Objects.requireNonNull(customizer, "customizer");
            return this;
        }

        /**
         * The extension, to register with {@code @RegisterExtension}.
         *
         * @return a new extension with these settings
         */
        public MnemoTempHome build() {
            if (model == null) {
                model = ScriptedLanguageModel.create();
            }
            return new MnemoTempHome(this);
        }
    }
}
