package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.ProjectKeys;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpLoggableSession;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;

/**
 * {@link McpScope} against a client whose answer to {@code roots/list} the test gives when it
 * chooses: the session behind the SDK's exchange is the client, as the server sees it.
 */
@Timeout(30)
class McpScopeTest {

    @TempDir
    Path dir;

    /** The client as the server's exchange sees it: {@code roots/list} answered by {@link #answer}. */
    static final class Client implements McpLoggableSession {
        final CountDownLatch asked = new CountDownLatch(1);
        final AtomicInteger rootsRequests = new AtomicInteger();
        final CompletableFuture<McpSchema.ListRootsResult> answer = new CompletableFuture<>();

        @Override
        @SuppressWarnings("unchecked")
        public <T> Mono<T> sendRequest(String method, Object params, TypeRef<T> type) {
            assertThat(method).isEqualTo(McpSchema.METHOD_ROOTS_LIST);
            rootsRequests.incrementAndGet();
            asked.countDown();
            return (Mono<T>) Mono.fromFuture(answer);
        }

        @Override
        public Mono<Void> sendNotification(String method, Object params) {
            return Mono.empty();
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }

        @Override
        public void close() {}

        @Override
        public void setMinLoggingLevel(McpSchema.LoggingLevel level) {}

        @Override
        public boolean isNotificationForLevelAllowed(McpSchema.LoggingLevel level) {
            return false;
        }

        McpSyncServerExchange exchange() {
            return new McpSyncServerExchange(new McpAsyncServerExchange("s-1", this,
                    McpSchema.ClientCapabilities.builder().roots(true).build(),
                    new McpSchema.Implementation("test-client", "1"), McpTransportContext.EMPTY));
        }
    }

    /** Starts {@code thread} and returns once it is parked (waiting for the roots, or its turn). */
    private static Thread startParked(Thread thread) {
        thread.start();
        while (thread.isAlive() && thread.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        return thread;
    }

    @Test
    void aToolCallWhileTheFirstAsksForRoots_waitsForThem_andTheClientIsAskedOnce() throws Exception {
        Path repo = Files.createDirectories(dir.resolve("web"));
        McpScope scope = McpScope.of(dir.resolve("memories"), Optional.empty());
        Client client = new Client();
        Thread first = new Thread(() -> scope.beforeToolCall(client.exchange()));
        AtomicReference<Optional<String>> secondSaw = new AtomicReference<>();
        Thread second = new Thread(() -> {
            scope.beforeToolCall(client.exchange());
            secondSaw.set(scope.project());
        });

        first.start();
        assertThat(client.asked.await(10, TimeUnit.SECONDS)).isTrue();
        startParked(second); // parked until the roots arrive
        client.answer.complete(new McpSchema.ListRootsResult(List.of(
                new McpSchema.Root(repo.toUri().toString(), "web")), null));
        first.join();
        second.join();

        assertThat(secondSaw.get()).contains(ProjectKeys.forDirectory(repo));
        assertThat(client.rootsRequests).hasValue(1);
    }

    @Test
    void callsWaitingForTheRoots_areLetGoOneByOne_inTheOrderTheyArrived() throws Exception {
        McpScope scope = McpScope.of(dir.resolve("memories"), Optional.empty());
        Client client = new Client();
        Thread first = new Thread(() -> scope.beforeToolCall(client.exchange()));
        first.start();
        assertThat(client.asked.await(10, TimeUnit.SECONDS)).isTrue();
        int waiters = 6;
        int[] turns = new int[waiters];
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < waiters; i++) {
            int arrival = i;
            threads.add(startParked(new Thread(() -> turns[arrival] = scope.beforeToolCall(client.exchange()))));
        }

        client.answer.complete(new McpSchema.ListRootsResult(List.of(), null));
        first.join();
        for (Thread waiter : threads) {
            waiter.join();
        }

        assertThat(turns).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(scope.beforeToolCall(client.exchange())).isZero();
        assertThat(client.rootsRequests).hasValue(1);
    }

    @Test
    void aFailedRootsAnswer_leavesTheToolsGlobal_andTheWaitingCallsGo() throws Exception {
        McpScope scope = McpScope.of(dir.resolve("memories"), Optional.empty());
        Client client = new Client();
        Thread first = new Thread(() -> scope.beforeToolCall(client.exchange()));
        first.start();
        assertThat(client.asked.await(10, TimeUnit.SECONDS)).isTrue();
        Thread second = startParked(new Thread(() -> scope.beforeToolCall(client.exchange())));

        client.answer.completeExceptionally(new IllegalStateException("the client went away"));
        first.join();
        second.join();

        assertThat(scope.project()).isEmpty();
        assertThat(client.rootsRequests).hasValue(1);
    }

    @Test
    void withAFixedProject_theClientIsNeverAsked_andRootsChangesAreIgnored() {
        McpScope scope = McpScope.of(dir.resolve("memories"), Optional.of("acme/web"));
        Client client = new Client();

        scope.beforeToolCall(client.exchange());
        scope.rootsChanged(List.of(new McpSchema.Root(dir.toUri().toString(), "elsewhere")));

        assertThat(client.rootsRequests).hasValue(0);
        assertThat(scope.project()).contains("acme/web");
    }

    @Test
    void theFirstFileRoot_namesTheProject_andOtherSchemesAreSkipped() {
        assertThat(McpScope.projectOf(List.of(new McpSchema.Root("https://example.com/repo", "web"),
                new McpSchema.Root(dir.toUri().toString(), "local")))).contains(ProjectKeys.forDirectory(dir));
        assertThat(McpScope.projectOf(List.of(new McpSchema.Root("https://example.com/repo", "web")))).isEmpty();
        assertThat(McpScope.projectOf(List.of())).isEmpty();
    }
}
