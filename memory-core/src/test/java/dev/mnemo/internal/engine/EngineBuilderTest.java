package dev.mnemo.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.MemoryConfigurationException;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryTools;
import dev.mnemo.llm.ToolSpec;
import dev.mnemo.spi.MemoryStore;
import dev.mnemo.spi.MemoryStoreProvider;
import dev.mnemo.spi.MemoryWorkspace;
import dev.mnemo.spi.MemoryWorkspaceProvider;
import java.io.IOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EngineBuilderTest {

    /** Homes the test providers were asked to open, in order. */
    static final List<Path> OPENED = new CopyOnWriteArrayList<>();

    @TempDir
    Path dir;

    @Test
    void build_discoversTheOnlyStoreAndWorkspaceProviderAndOpensThemUnderHome() throws IOException {
        OPENED.clear();
        Path home = dir.resolve("home");
        try (MemoryEngine engine = builder(Map.of(), services(StoreA.class, WorkspaceA.class)).home(home).build()) {
            assertThat(engine.config().maxRolloutsPerStartup()).isEqualTo(2);
        }
        assertThat(OPENED).containsExactly(home, home.resolve("memories"));
    }

    @Test
    void build_withNoStoreProviderListsWhatToAdd() throws IOException {
        assertThatThrownBy(() -> builder(Map.of(), services(WorkspaceA.class)).home(dir).build())
                .isInstanceOf(MemoryConfigurationException.class)
                .hasMessageContaining("no MemoryStoreProvider found")
                .hasMessageContaining("dev.mnemo:memory-store-sqlite")
                .hasMessageContaining("MemoryEngine.builder().store(..)");
    }

    @Test
    void build_withTwoStoreProvidersNamesBoth() throws IOException {
        assertThatThrownBy(() -> builder(Map.of(), services(StoreA.class, StoreB.class, WorkspaceA.class))
                .home(dir).build())
                .isInstanceOf(MemoryConfigurationException.class)
                .hasMessageContaining("2 MemoryStoreProviders")
                .hasMessageContaining("a (" + StoreA.class.getName() + ")")
                .hasMessageContaining("b (" + StoreB.class.getName() + ")");
    }

    @Test
    void build_explicitPartsNeedNoDiscovery() throws IOException {
        try (MemoryEngine engine = builder(Map.of(), services())
                .home(dir).store(fake(MemoryStore.class, dir)).workspace(fakeWorkspace(dir.resolve("memories")))
                .build()) {
            assertThat(engine.threads()).isNotNull();
        }
    }

    @Test
    void build_closesTheDiscoveredStoreWhenTheWorkspaceCannotBeFound() throws IOException {
        OPENED.clear();
        CLOSED.clear();
        assertThatThrownBy(() -> builder(Map.of(), services(StoreA.class)).home(dir).build())
                .isInstanceOf(MemoryConfigurationException.class)
                .hasMessageContaining("MemoryWorkspaceProvider");
        assertThat(CLOSED).containsExactly(dir);
    }

    @Test
    void home_defaultsToMnemoHomeEnvironmentVariable() throws IOException {
        OPENED.clear();
        Path envHome = dir.resolve("from-env");
        builder(Map.of("MNEMO_HOME", envHome.toString()), services(StoreA.class, WorkspaceA.class)).build().close();
        assertThat(OPENED.get(0)).isEqualTo(envHome);
    }

    @Test
    void home_fallsBackToDotMnemoInUserHome() throws IOException {
        OPENED.clear();
        new EngineBuilder(Map.of(), dir.toString(), services(StoreA.class, WorkspaceA.class)).build().close();
        assertThat(OPENED.get(0)).isEqualTo(dir.resolve(".mnemo"));
    }

    @Test
    void build_readsConfigTomlFromHomeAndReportsItsErrors() throws IOException {
        Files.writeString(dir.resolve("config.toml"), "[memories]\nmax_rollouts_per_startup = 5\n");
        try (MemoryEngine engine = builder(Map.of(), services(StoreA.class, WorkspaceA.class)).home(dir).build()) {
            assertThat(engine.config().maxRolloutsPerStartup()).isEqualTo(5);
        }
        Files.writeString(dir.resolve("config.toml"), "[memories]\nmax_rollouts_per_startup = \"5\"\n");
        assertThatThrownBy(() -> builder(Map.of(), services(StoreA.class, WorkspaceA.class)).home(dir).build())
                .isInstanceOf(MemoryConfigurationException.class)
                .hasMessageContaining("config.toml");
    }

    @Test
    void builderMethods_rejectNullNamingTheArgument() {
        assertThatThrownBy(() -> MemoryEngine.builder().model(null)).hasMessage("model");
        assertThatThrownBy(() -> MemoryEngine.builder().clock(null)).hasMessage("clock");
        assertThatThrownBy(() -> MemoryEngine.builder().home(null)).hasMessage("home");
    }

    @Test
    void closedEngine_refusesWork() throws IOException {
        MemoryEngine engine = builder(Map.of(), services(StoreA.class, WorkspaceA.class)).home(dir).build();
        engine.close();
        engine.close(); // idempotent
        assertThatThrownBy(() -> engine.admin().status()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void tools_madeOnFirstUse_areTheSameSetForEveryCallerOnEveryThread() throws Exception {
        try (MemoryEngine engine = builder(Map.of(), services(StoreA.class, WorkspaceA.class)).home(dir).build()) {
            List<MemoryTools> seen = new CopyOnWriteArrayList<>();
            List<Thread> threads = List.of(new Thread(() -> seen.add(engine.tools())),
                    new Thread(() -> seen.add(engine.tools())));
            threads.forEach(Thread::start);
            seen.add(engine.tools());
            for (Thread thread : threads) {
                thread.join();
            }

            assertThat(seen).hasSize(3).allSatisfy(tools -> assertThat(tools).isSameAs(engine.tools()));
            assertThat(engine.tools().specs()).extracting(ToolSpec::name).contains(MemoryTools.LIST, MemoryTools.READ);
        }
    }

    @Test
    void tools_confinedToProject_keepToIt_whileToolsInAProjectStillSearchTheWholeFolder() throws Exception {
        Path memories = Files.createDirectories(dir.resolve("memories"));
        for (String key : List.of("/src/app", "/src/web")) {
            Path folder = Files.createDirectories(memories.resolve("projects").resolve(dev.mnemo.ProjectKeys.slug(key)));
            Files.writeString(folder.resolve("MEMORY.md"), "- the build of " + key + "\n");
        }
        try (MemoryEngine engine = builder(Map.of(), services(StoreA.class, WorkspaceA.class)).home(dir).build()) {
            String confined = engine.tools().confinedToProject("/src/app").call(MemoryTools.SEARCH,
                    "{\"queries\":[\"the build\"]}");
            String inProject = engine.tools().inProject("/src/app").call(MemoryTools.SEARCH,
                    "{\"queries\":[\"the build\"]}");

            assertThat(confined).contains("/src/app").doesNotContain("/src/web");
            assertThat(inProject).contains("/src/app", "/src/web");
        }
    }

    // ---- test providers ---------------------------------------------------------------------------

    static final List<Path> CLOSED = new CopyOnWriteArrayList<>();

    public static final class StoreA implements MemoryStoreProvider {
        @Override
        public String name() {
            return "a";
        }

        @Override
        public MemoryStore open(Path home) {
            OPENED.add(home);
            return fake(MemoryStore.class, home);
        }
    }

    public static final class StoreB implements MemoryStoreProvider {
        @Override
        public String name() {
            return "b";
        }

        @Override
        public MemoryStore open(Path home) {
            return fake(MemoryStore.class, home);
        }
    }

    public static final class WorkspaceA implements MemoryWorkspaceProvider {
        @Override
        public String name() {
            return "w";
        }

        @Override
        public MemoryWorkspace open(Path memoryRoot) {
            OPENED.add(memoryRoot);
            return fakeWorkspace(memoryRoot);
        }
    }

    /** A part that records close() and refuses everything else: these tests only wire parts. */
    static <T> T fake(Class<T> type, Path where) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            if (method.isDefault()) {
                return InvocationHandler.invokeDefault(proxy, method, args); // what an SPI promises without code
            }
            switch (method.getName()) {
                case "close" -> {
                    CLOSED.add(where);
                    return null;
                }
                case "root" -> {
                    return where;
                }
                case "toString" -> {
                    return "fake " + type.getSimpleName();
                }
                case "hashCode" -> {
                    return System.identityHashCode(proxy);
                }
                case "equals" -> {
                    return proxy == args[0];
                }
                default -> throw new UnsupportedOperationException("fake part: " + method.getName());
            }
        }));
    }

    static MemoryWorkspace fakeWorkspace(Path root) {
        return fake(MemoryWorkspace.class, root);
    }

    private EngineBuilder builder(Map<String, String> env, ClassLoader services) {
        return new EngineBuilder(env, dir.resolve("user-home").toString(), services);
    }

    /** A class loader whose META-INF/services name exactly the given providers. */
    private ClassLoader services(Class<?>... providers) throws IOException {
        Path root = Files.createTempDirectory(dir, "services");
        Path services = Files.createDirectories(root.resolve("META-INF/services"));
        for (Class<?> provider : providers) {
            Class<?> api = provider.getInterfaces()[0];
            Path file = services.resolve(api.getName());
            String existing = Files.exists(file) ? Files.readString(file) : "";
            Files.writeString(file, existing + provider.getName() + "\n");
        }
        ClassLoader isolated = new ClassLoader(getClass().getClassLoader()) {
            @Override
            public java.util.Enumeration<URL> getResources(String name) throws IOException {
                // Only our services files: hide any provider registered on the real class path.
                return findResources(name);
            }
        };
        return new URLClassLoader(new URL[] {root.toUri().toURL()}, isolated);
    }
}
