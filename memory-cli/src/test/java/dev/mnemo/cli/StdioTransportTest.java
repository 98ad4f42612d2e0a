package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Mono;

/**
 * {@link StdioTransport} on its own: a session whose messages many threads send at once, an output
 * that is slow, fails, or is held while the transport closes. The input stays open (a pipe the test
 * closes last), so only the test ends the session.
 */
@Timeout(60)
class StdioTransportTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final McpJsonMapper MAPPER = new JacksonMcpJsonMapper(JSON);

    private final PipedOutputStream stdin = new PipedOutputStream();
    private final AtomicReference<McpServerTransport> transport = new AtomicReference<>();

    @AfterEach
    void endInput() throws IOException {
        stdin.close();
    }

    /** A transport over {@code out}, its one session made: the session's transport is {@link #transport}. */
    private StdioTransport open(OutputStream out, int capacity) throws IOException {
        StdioTransport provider = new StdioTransport(MAPPER, new PipedInputStream(stdin), out, capacity);
        provider.setSessionFactory(sessionTransport -> {
            transport.set(sessionTransport);
            return new McpServerSession("s-1", Duration.ofSeconds(5), sessionTransport,
                    request -> Mono.error(new UnsupportedOperationException("not in this test")), Map.of(), Map.of());
        });
        return provider;
    }

    private static McpSchema.JSONRPCMessage numbered(int sender, int seq, String text) {
        return new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, "test/numbered",
                Map.of("sender", sender, "seq", seq, "text", text));
    }

    @Test
    void manyThreadsSendingAtOnce_everyMessageIsWrittenWhole_oneALine_inEachSendersOrder() throws Exception {
        int senders = 32;
        int each = 300;
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        // Writes a few bytes at a time, yielding between: lines written by two threads at once would mix.
        OutputStream trickle = new OutputStream() {
            @Override
            public void write(int b) {
                written.write(b);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                for (int i = 0; i < length; i += 7) {
                    written.write(bytes, offset + i, Math.min(7, length - i));
                    Thread.yield();
                }
            }
        };
        StdioTransport provider = open(trickle, 4);
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int s = 0; s < senders; s++) {
            int sender = s;
            Thread thread = new Thread(() -> {
                try {
                    go.await();
                    for (int seq = 0; seq < each; seq++) {
                        String text = "line one\nline two \u00e9 " + "x".repeat((sender * 31 + seq * 17) % 900);
                        transport.get().sendMessage(numbered(sender, seq, text)).block(Duration.ofSeconds(30));
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            thread.start();
            threads.add(thread);
        }
        go.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        provider.closeGracefully().block(Duration.ofSeconds(30));

        assertThat(failures).isEmpty();
        String out = written.toString(StandardCharsets.UTF_8);
        assertThat(out).endsWith("\n");
        String[] lines = out.split("\n", -1);
        assertThat(lines).hasSize(senders * each + 1); // the last is the empty rest after the final newline
        Map<Integer, Integer> next = new HashMap<>();
        for (int i = 0; i < lines.length - 1; i++) {
            JsonNode message = JSON.readTree(lines[i]);
            JsonNode params = message.path("params");
            int sender = params.path("sender").asInt();
            assertThat(params.path("seq").asInt()).as("sender %d's messages in order", sender)
                    .isEqualTo(next.getOrDefault(sender, 0));
            assertThat(params.path("text").asText()).startsWith("line one\nline two \u00e9 ");
            next.put(sender, params.path("seq").asInt() + 1);
        }
        assertThat(next).hasSize(senders).allSatisfy((sender, count) -> assertThat(count).isEqualTo(each));
    }

    @Test
    void aFailedOutput_refusesLaterMessagesWithTheReason_insteadOfWaiting() throws Exception {
        OutputStream broken = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("Broken pipe");
            }
        };
        open(broken, 1);
        McpServerTransport session = transport.get();

        List<Throwable> refused = new ArrayList<>();
        for (int seq = 0; seq < 3 && refused.isEmpty(); seq++) {
            try {
                session.sendMessage(numbered(0, seq, "hello")).block(Duration.ofSeconds(10));
            } catch (IllegalStateException e) {
                refused.add(e);
            }
        }

        assertThat(refused).singleElement().extracting(Throwable::getMessage).asString()
                .contains("did not send the notification test/numbered", "output failed", "Broken pipe");
        assertThatThrownBy(() -> session.sendMessage(numbered(0, 9, "again")).block(Duration.ofSeconds(10)))
                .hasMessageContaining("output failed");
    }

    @Test
    void aGracefulClose_writesWhatWasQueued_thenRefusesNewMessages() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        OutputStream heldBack = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                try {
                    held.await();
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
                written.write(bytes, offset, length);
            }
        };
        StdioTransport provider = open(heldBack, 16);
        for (int seq = 0; seq < 10; seq++) {
            transport.get().sendMessage(numbered(0, seq, "queued")).block(Duration.ofSeconds(10));
        }

        var closed = provider.closeGracefully().toFuture();
        assertThatThrownBy(() -> transport.get().sendMessage(numbered(0, 10, "late")).block(Duration.ofSeconds(10)))
                .hasMessageContaining("the session is closed");
        assertThat(closed).isNotDone();
        held.countDown();
        closed.get();

        assertThat(written.toString(StandardCharsets.UTF_8).split("\n")).hasSize(10)
                .allSatisfy(line -> assertThat(JSON.readTree(line).path("params").path("text").asText())
                        .isEqualTo("queued"));
    }
}
