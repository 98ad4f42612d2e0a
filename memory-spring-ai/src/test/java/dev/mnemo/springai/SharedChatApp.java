package dev.mnemo.springai;

import dev.mnemo.MemoryEngine;
import dev.mnemo.testkit.ChatScript;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireRequest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One {@link ChatApp} (wire server, temporary home, Spring context) for every test class of this
 * module, started on first use and closed when the test run ends. Test classes declare
 * {@code @ExtendWith(SharedChatApp.Resolver.class)} and take it as a parameter.
 */
final class SharedChatApp implements AutoCloseable {

    /** Hands the shared application to test methods and lifecycle methods. */
    static final class Resolver implements ParameterResolver {
        @Override
        public boolean supportsParameter(ParameterContext parameter, ExtensionContext extension) {
            return parameter.getParameter().getType() == SharedChatApp.class;
        }

        @Override
        public Object resolveParameter(ParameterContext parameter, ExtensionContext extension) {
            return get(extension);
        }
    }

    static final String SUMMARY = "v1\nThe project builds with ./gradlew build; deploys go out on Thursdays.";

    final ChatScript script = ChatScript.create();
    final OpenAiWireServer server = OpenAiWireServer.start(script);
    final Path home;
    final ConfigurableApplicationContext context;

    private SharedChatApp() throws IOException {
        home = Files.createTempDirectory("mnemo-spring-ai-test");
        Files.createDirectories(home.resolve("memories"));
        Files.writeString(home.resolve("memories/memory_summary.md"), SUMMARY);
        context = ChatApp.start(server, home);
    }

    private static SharedChatApp get(ExtensionContext extension) {
        return extension.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .computeIfAbsent(SharedChatApp.class, k -> {
                    try {
                        return new SharedChatApp();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }, SharedChatApp.class);
    }

    ChatClient chat() {
        return context.getBean(ChatClient.class);
    }

    MemoryEngine engine() {
        return context.getBean(MemoryEngine.class);
    }

    ChatApp app() {
        return context.getBean(ChatApp.class);
    }

    /** The requests of the conversation under test, without the background pipeline's. */
    List<WireRequest> chatRequests() {
        return server.requests().stream().filter(r -> !ChatScript.isPhase1(r) && !ChatScript.isConsolidation(r))
                .toList();
    }

    WireRequest lastChatRequest() {
        List<WireRequest> requests = chatRequests();
        return requests.get(requests.size() - 1);
    }

    @Override
    public void close() throws IOException {
        try {
            context.close();
        } finally {
            server.close();
            try (Stream<Path> files = Files.walk(home)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
