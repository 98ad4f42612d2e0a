package dev.mnemo.internal.engine;

import dev.mnemo.HistoryConfig;
import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryConfigurationException;
import dev.mnemo.MemoryEngine;
import dev.mnemo.internal.config.TomlConfigLoader;
import dev.mnemo.internal.logs.LogsConfig;
import dev.mnemo.internal.rollout.FileSessionStore;
import dev.mnemo.spi.OwnerOnlyFiles;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.spi.ConsolidationAgent;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.MemoryStoreProvider;
import dev.mnemo.spi.MemoryWorkspace;
import dev.mnemo.spi.MemoryWorkspaceProvider;
import dev.mnemo.spi.RolloutSource;
import dev.mnemo.spi.SecretRedactor;
import dev.mnemo.spi.SessionStore;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.function.Function;

/** {@link MemoryEngine.Builder}: collects parts, then validates and wires them in {@link #build()}. */
public final class EngineBuilder implements MemoryEngine.Builder {

    /** The environment variable naming the default home folder. */
    public static final String HOME_ENV = "MNEMO_HOME";
    /** A conversation unused this long is closed; the next request continues its rollout. */
    static final Duration DEFAULT_CONVERSATION_IDLE_TIMEOUT = Duration.ofMinutes(30);
    /** Beyond this many open conversations the least recently used are closed. */
    static final int DEFAULT_MAX_OPEN_CONVERSATIONS = 10_000;

    /** Providers found through Mnemo's own class loader, by service type (see {@link #providers}). */
    private static final ConcurrentHashMap<Class<?>, List<ServiceLoader.Provider<?>>> OWN_LOADER_PROVIDERS =
            new ConcurrentHashMap<>();

    /**
     * The tenant whose engine the current thread's factory call builds ({@link #forTenant}): engines
     * built meanwhile on this thread are that tenant's.
     */
    private static final ThreadLocal<String> BUILDING_FOR_TENANT = new ThreadLocal<>();

    private final Map<String, String> environment;
    private final String userHome;
    private final ClassLoader serviceClassLoader;

    private Path home;
    private MemoriesConfig config;
    private LanguageModel model;
    private LanguageModel extractionModel;
    private LanguageModel consolidationModel;
    private ConsolidationAgent consolidationAgent;
    private MemoryStore store;
    private MemoryWorkspace workspace;
    private final List<RolloutSource> rolloutSources = new ArrayList<>();
    private SessionStore sessionStore;
    private SecretRedactor redactor;
    private final List<MemoryEventListener> listeners = new ArrayList<>();
    private Clock clock = Clock.systemUTC();
    private Clock wallClock;
    private ExecutorService executor;
    private Duration closeTimeout = Duration.ofSeconds(10);
    private Duration conversationIdleTimeout = DEFAULT_CONVERSATION_IDLE_TIMEOUT;
    private int maxOpenConversations = DEFAULT_MAX_OPEN_CONVERSATIONS;
    private HistoryConfig historyConfig;
    private boolean goalTools;
    private boolean readOnly;
    /** The store id set by {@link #storeId}; null for the default (the tenant's, else the home's name). */
    private String storeId;

    public EngineBuilder() {
        this(System.getenv(), System.getProperty("user.home"), EngineBuilder.class.getClassLoader());
    }

    /**
     * For tests: a builder that sees {@code environment} and {@code userHome} instead of the
     * process's, and discovers providers through {@code serviceClassLoader}.
     */
    EngineBuilder(Map<String, String> environment, String userHome, ClassLoader serviceClassLoader) {
        this.environment = Map.copyOf(environment);
        this.userHome = userHome;
        this.serviceClassLoader = serviceClassLoader;
    }

    @Override
    public EngineBuilder home(Path home) {
        this.home = Objects.requireNonNull(home, "home");
        return this;
    }

    @Override
    public EngineBuilder config(MemoriesConfig config) {
        this.config = Objects.requireNonNull(config, "config");
        return this;
    }

    @Override
    public EngineBuilder model(LanguageModel model) {
        this.model = Objects.requireNonNull(model, "model");
        return this;
    }

    @Override
    public EngineBuilder extractionModel(LanguageModel model) {
        this.extractionModel = Objects.requireNonNull(model, "extractionModel");
        return this;
    }

    @Override
    public EngineBuilder consolidationModel(LanguageModel model) {
        this.consolidationModel = Objects.requireNonNull(model, "consolidationModel");
        return this;
    }

    @Override
    public EngineBuilder consolidationAgent(ConsolidationAgent agent) {
        this.consolidationAgent = Objects.requireNonNull(agent, "consolidationAgent");
        return this;
    }

    @Override
    public EngineBuilder store(MemoryStore store) {
        this.store = Objects.requireNonNull(store, "store");
        return this;
    }

    @Override
    public EngineBuilder workspace(MemoryWorkspace workspace) {
        this.workspace = Objects.requireNonNull(workspace, "workspace");
        return this;
    }

    @Override
    public EngineBuilder rolloutSource(RolloutSource source) {
        rolloutSources.add(Objects.requireNonNull(source, "rolloutSource"));
        return this;
    }

    @Override
    public EngineBuilder sessionStore(SessionStore sessionStore) {
        this.sessionStore = Objects.requireNonNull(sessionStore, "sessionStore");
        return this;
    }

    @Override
    public EngineBuilder redactor(SecretRedactor redactor) {
        this.redactor = Objects.requireNonNull(redactor, "redactor");
        return this;
    }

    @Override
    public EngineBuilder listener(MemoryEventListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    @Override
    public EngineBuilder clock(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    @Override
    public EngineBuilder wallClock(Clock clock) {
        this.wallClock = Objects.requireNonNull(clock, "wallClock");
        return this;
    }

    @Override
    public EngineBuilder executor(ExecutorService executor) {
        this.executor = Objects.requireNonNull(executor, "executor");
        return this;
    }

    @Override
    public EngineBuilder conversationIdleTimeout(Duration idle) {
        Objects.requireNonNull(idle, "conversationIdleTimeout");
        if (idle.isNegative() || idle.isZero()) {
            throw new IllegalArgumentException("conversationIdleTimeout must be positive, was " + idle);
        }
        this.conversationIdleTimeout = idle;
        return this;
    }

    @Override
    public EngineBuilder maxOpenConversations(int conversations) {
        if (conversations < 1) {
            throw new IllegalArgumentException("maxOpenConversations must be at least 1, was " + conversations);
        }
        this.maxOpenConversations = conversations;
        return this;
    }

    @Override
    public EngineBuilder historyConfig(HistoryConfig history) {
        this.historyConfig = Objects.requireNonNull(history, "historyConfig");
        return this;
    }

    @Override
    public EngineBuilder goalTools(boolean enabled) {
        this.goalTools = enabled;
        return this;
    }

    @Override
    public EngineBuilder readOnly(boolean readOnly) {
        this.readOnly = readOnly;
        return this;
    }

    @Override
    public EngineBuilder storeId(String storeId) {
        Objects.requireNonNull(storeId, "storeId");
        if (storeId.isBlank()) {
            throw new IllegalArgumentException("storeId must not be blank, was '" + storeId + "'");
        }
        this.storeId = storeId;
        return this;
    }

    @Override
    public EngineBuilder closeTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "closeTimeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("closeTimeout must not be negative, was " + timeout);
        }
        this.closeTimeout = timeout;
        return this;
    }

    @Override
    public MemoryEngine build() {
        // 1. Where everything lives, and the settings: config.toml, read once, for the tables not
        //    given ([logs] always comes from it).
        Path resolvedHome = resolveHome();
        TomlConfigLoader.ConfigFile configToml = TomlConfigLoader.read(resolvedHome.resolve("config.toml"));
        MemoriesConfig resolvedConfig = config != null ? config : configToml.memories();
        HistoryConfig resolvedHistory = historyConfig != null ? historyConfig : configToml.history();
        Duration logsRetention = LogsConfig.from(configToml).retention();
        Path memoryRoot = resolvedHome.resolve("memories");
        if (workspace != null && !workspace.root().toAbsolutePath().normalize().equals(memoryRoot)) {
            // The workspace may live elsewhere; the read path and tools follow the workspace.
            memoryRoot = workspace.root().toAbsolutePath().normalize();
        }
        // 2. The home, created 0700 when missing (a read-only engine creates nothing); then the parts
        //    not given explicitly: discovered, each exactly once on the class path.
        if (!readOnly) {
            createHome(resolvedHome);
        }
        Path storeHome = resolvedHome;
        boolean ownsStore = store == null;
        MemoryStore resolvedStore;
        if (!ownsStore) {
            resolvedStore = store;
        } else {
            MemoryStoreProvider provider = discover(MemoryStoreProvider.class, "store", MemoryStoreProvider::name);
            resolvedStore = readOnly ? provider.openReadOnly(storeHome) : provider.open(storeHome);
        }
        boolean ownsWorkspace = workspace == null;
        MemoryWorkspace resolvedWorkspace;
        try {
            Path root = memoryRoot;
            resolvedWorkspace = ownsWorkspace
                    ? discover(MemoryWorkspaceProvider.class, "workspace", MemoryWorkspaceProvider::name).open(root)
                    : workspace;
        } catch (RuntimeException e) {
            if (ownsStore) {
                resolvedStore.close();
            }
            throw e;
        }
        // 3. Wire.
        EngineParts parts = new EngineParts(resolvedHome, memoryRoot, resolvedConfig,
                extractionModel != null ? extractionModel : model,
                consolidationModel != null ? consolidationModel : model,
                consolidationAgent, resolvedStore, ownsStore, resolvedWorkspace, ownsWorkspace,
                List.copyOf(rolloutSources),
                sessionStore != null ? sessionStore : new FileSessionStore(resolvedHome.resolve("sessions"), clock),
                redactor, List.copyOf(listeners), clock, wallClock != null ? wallClock : clock, executor, closeTimeout,
                conversationIdleTimeout, maxOpenConversations, resolvedHistory, logsRetention, goalTools, readOnly,
                storeId != null ? storeId : BUILDING_FOR_TENANT.get());
        return new DefaultMemoryEngine(parts);
    }

    /**
     * Calls {@code factory} for {@code tenantId}: an engine it builds with this builder, on this
     * thread, serves that tenant and names it as its store id. How {@link TenantEngines} tells the
     * engines an application's factory builds which tenant they are.
     */
    static <T> T forTenant(String tenantId, Function<String, T> factory) {
        String outer = BUILDING_FOR_TENANT.get();
        BUILDING_FOR_TENANT.set(Objects.requireNonNull(tenantId, "tenantId"));
        try {
            return factory.apply(tenantId);
        } finally {
            if (outer == null) {
                BUILDING_FOR_TENANT.remove();
            } else {
                BUILDING_FOR_TENANT.set(outer);
            }
        }
    }

    /** The home at 0700 when this build creates it; an existing home keeps its mode. */
    private static void createHome(Path home) {
        if (Files.isDirectory(home)) {
            return;
        }
        try {
            OwnerOnlyFiles.createFolders(home);
        } catch (java.io.IOException e) {
            throw new MemoryConfigurationException("cannot create the home " + home + ": " + e.getMessage(), e);
        }
    }

    private Path resolveHome() {
        if (home != null) {
            return home.toAbsolutePath().normalize();
        }
        String fromEnv = environment.get(HOME_ENV);
        if (fromEnv != null && !fromEnv.isBlank()) {
            try {
                return Path.of(fromEnv).toAbsolutePath().normalize();
            } catch (InvalidPathException e) {
                throw new MemoryConfigurationException(HOME_ENV + " is not a valid path: '" + fromEnv + "'", e);
            }
        }
        if (userHome == null || userHome.isBlank()) {
            throw new MemoryConfigurationException(
                    "no home folder: set MemoryEngine.builder().home(..), or " + HOME_ENV + ", or the user.home property");
        }
        Path resolved = Path.of(userHome, ".mnemo").toAbsolutePath().normalize();
        if (Files.exists(resolved) && !Files.isDirectory(resolved)) {
            throw new MemoryConfigurationException("home " + resolved + " exists and is not a folder");
        }
        return resolved;
    }

    private <P> P discover(Class<P> type, String what, Function<P, String> name) {
        List<P> found = new ArrayList<>();
        for (ServiceLoader.Provider<?> provider : providers(type)) {
            found.add(type.cast(provider.get())); // a new instance each build, as ServiceLoader gives
        }
        if (found.size() == 1) {
            return found.get(0);
        }
        List<String> names = found.stream().map(p -> name.apply(p) + " (" + p.getClass().getName() + ")").toList();
        if (found.isEmpty()) {
            throw new MemoryConfigurationException("no " + what + " given and no " + type.getSimpleName()
                    + " found on the class path; add the default module (" + defaultModule(what)
                    + ") or call MemoryEngine.builder()." + what + "(..)");
        }
        throw new MemoryConfigurationException("no " + what + " given and " + found.size() + " "
                + type.getSimpleName() + "s found on the class path: " + names + "; choose one with MemoryEngine.builder()."
                + what + "(..)");
    }

    /**
     * The providers of {@code type} visible through the service class loader. For Mnemo's own
     * loader the class path is scanned once per JVM and the providers (not their instances) kept:
     * scanning every jar's {@code META-INF/services} was a quarter of a warm {@link #build()}, and
     * that loader's class path does not change while the JVM runs (a jar an agent appends to the
     * system class path later is not seen). Any other loader is scanned on every build.
     */
    private List<ServiceLoader.Provider<?>> providers(Class<?> type) {
        if (serviceClassLoader != EngineBuilder.class.getClassLoader()) {
            return scan(type, serviceClassLoader);
        }
        return ownLoaderProviders(type);
    }

    /** The providers of {@code type} on Mnemo's own class loader, scanned once per JVM. */
    private static List<ServiceLoader.Provider<?>> ownLoaderProviders(Class<?> type) {
        return OWN_LOADER_PROVIDERS.computeIfAbsent(type, t -> scan(t, EngineBuilder.class.getClassLoader()));
    }

    /**
     * The first provider of {@code type} on Mnemo's own class loader, from the same per-JVM scan
     * {@link #build()} uses: what the engine's thread logs open beside a store it discovered.
     */
    static <P> Optional<P> firstOwnLoaderProvider(Class<P> type) {
        List<ServiceLoader.Provider<?>> found = ownLoaderProviders(type);
        return found.isEmpty() ? Optional.empty() : Optional.of(type.cast(found.get(0).get()));
    }

    private static List<ServiceLoader.Provider<?>> scan(Class<?> type, ClassLoader loader) {
        return ServiceLoader.load(type, loader).stream().<ServiceLoader.Provider<?>>map(p -> p).toList();
    }

    private static String defaultModule(String what) {
        return what.equals("store") ? "dev.mnemo:memory-store-sqlite" : "dev.mnemo:memory-workspace-git";
    }
}
