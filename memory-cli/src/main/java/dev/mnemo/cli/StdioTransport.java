package dev.mnemo.cli;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * The MCP stdio transport of {@code mnemo mcp}: one session, newline-delimited JSON-RPC read from
 * one stream and written to another, in place of the SDK's {@code StdioServerTransportProvider}.
 * The SDK's transport hands each outbound message to one Reactor sink with {@code tryEmitNext}, which
 * fails (and the message is lost) when two threads send at once, as parallel tool calls do
 * (modelcontextprotocol/java-sdk#686, #304, #875). Here:
 *
 * <ul>
 *   <li>a sender serialises its message on its own thread and puts the line into a bounded queue,
 *       which one writer thread empties in order: lines never interleave, and none is dropped;</li>
 *   <li>when the queue is full (the client reads slower than the server answers) the sender waits
 *       for room: back-pressure, never loss;</li>
 *   <li>when the output fails, one error line on standard error says so and how many messages were
 *       not delivered; later sends fail at once, with that reason, instead of waiting;</li>
 *   <li>a graceful close writes what was queued before it, then stops the writer; a message sent
 *       after the close fails with a reason rather than vanishing.</li>
 * </ul>
 *
 * <p>Session handling follows the SDK's transport: the session is made when the server sets its
 * factory, one reader thread hands each line read to {@link McpServerSession#handle} in order, and
 * the end of input closes the session gracefully. Lines that are not JSON-RPC are {@link StdioGuard}'s
 * business: given its streams, this transport sees valid messages only (any other line is logged
 * and skipped, not fatal as in the SDK).
 */
final class StdioTransport implements McpServerTransportProvider {

    /** How many serialised messages may wait for the writer before senders wait for room. */
    static final int QUEUE_CAPACITY = 64;

    /** How long a graceful close waits for the writer to write what was queued. */
    static final Duration CLOSE_LIMIT = Duration.ofSeconds(10);

    private static final Logger LOG = LoggerFactory.getLogger(StdioTransport.class);

    private final McpJsonMapper mapper;
    private final InputStream input;
    private final OutputStream output;
    private final int capacity;
    private volatile McpServerSession session;

    /** A transport reading {@code input} and writing {@code output}, one message per line, in UTF-8. */
    StdioTransport(McpJsonMapper mapper, InputStream input, OutputStream output) {
        this(mapper, input, output, QUEUE_CAPACITY);
    }

    StdioTransport(McpJsonMapper mapper, InputStream input, OutputStream output, int capacity) {
        this.mapper = Objects.requireNonNull(mapper, "mapper");
        this.input = Objects.requireNonNull(input, "input");
        this.output = Objects.requireNonNull(output, "output");
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
    }

    @Override
    public synchronized void setSessionFactory(McpServerSession.Factory sessionFactory) {
        if (session != null) {
            throw new IllegalStateException("a stdio transport serves one session, and it was made already");
        }
        SessionTransport transport = new SessionTransport();
        session = sessionFactory.create(transport);
        transport.start(session);
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        McpServerSession current = session;
        if (current == null) {
            return Mono.error(new IllegalStateException("No session to notify"));
        }
        return current.sendNotification(method, params)
                .doOnError(e -> LOG.error("Failed to send the notification {}: {}", method, e.getMessage()));
    }

    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        return Mono.defer(() -> {
            McpServerSession current = session;
            if (current == null) {
                return Mono.error(new IllegalStateException("No session to notify"));
            }
            if (!current.getId().equals(sessionId)) {
                return Mono.error(new IllegalStateException("The session is " + current.getId()
                        + ", not the notification's target " + sessionId));
            }
            return current.sendNotification(method, params);
        });
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.defer(() -> {
            McpServerSession current = session;
            return current == null ? Mono.empty() : current.closeGracefully();
        });
    }

    /** A line read and the JSON-RPC message it holds. */
    record Line(String text, McpSchema.JSONRPCMessage message) {}

    /** Called with a line that is not a JSON-RPC message. */
    interface BadLine {
        void skip(String line) throws IOException;
    }

    /**
     * The next JSON-RPC message {@code reader} holds, or null at the end of input: blank lines are
     * passed over, and each line that is not a JSON-RPC message goes to {@code badLine}.
     */
    static Line nextMessage(BufferedReader reader, McpJsonMapper mapper, BadLine badLine) throws IOException {
        String text;
        while ((text = reader.readLine()) != null) {
            if (text.isBlank()) {
                continue;
            }
            try {
                return new Line(text, McpSchema.deserializeJsonRpcMessage(mapper, text));
            } catch (IOException | RuntimeException e) {
                badLine.skip(text);
            }
        }
        return null;
    }

    /** Which message {@code message} is, for a log line: the answer to a request, or a request or notification. */
    static String describe(McpSchema.JSONRPCMessage message) {
        if (message instanceof McpSchema.JSONRPCResponse response) {
            return "the answer to request " + response.id();
        }
        if (message instanceof McpSchema.JSONRPCRequest request) {
            return "the request " + request.method() + " (" + request.id() + ")";
        }
        if (message instanceof McpSchema.JSONRPCNotification notification) {
            return "the notification " + notification.method();
        }
        return "a message";
    }

    /** The one session's transport: a reader thread, and a writer thread behind a bounded queue. */
    private final class SessionTransport implements McpServerTransport {

        private enum State { OPEN, CLOSING, FAILED }

        private final ReentrantLock lock = new ReentrantLock(true); // fair: senders waiting for room go in turn
        private final Condition queued = lock.newCondition();
        private final Condition room = lock.newCondition();
        private final ArrayDeque<byte[]> queue = new ArrayDeque<>();
        private final CompletableFuture<Void> writerDone = new CompletableFuture<>();
        private final Sinks.Many<McpSchema.JSONRPCMessage> inbound = Sinks.many().unicast().onBackpressureBuffer();
        private State state = State.OPEN;
        private String failure; // why the output failed, once it did

        void start(McpServerSession owner) {
            // One thread emits (the reader), so the sink never sees concurrent emissions.
            inbound.asFlux().flatMap(owner::handle).subscribe(ignored -> {}, error ->
                    LOG.error("The MCP session stopped handling messages: {}", error.toString()));
            daemon("mnemo-mcp-writer", this::writeLoop).start();
            daemon("mnemo-mcp-reader", () -> readLoop(owner)).start();
        }

        private Thread daemon(String name, Runnable body) {
            Thread thread = new Thread(body, name);
            thread.setDaemon(true);
            return thread;
        }

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.fromRunnable(() -> enqueue(message, serialise(message)));
        }

        private byte[] serialise(McpSchema.JSONRPCMessage message) {
            String line;
            try {
                line = mapper.writeValueAsString(message);
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot write " + describe(message) + " as JSON: " + e.getMessage(), e);
            }
            // One message per line: a raw line break (JSON strings carry theirs escaped) would split it.
            line = line.replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n");
            return (line + "\n").getBytes(StandardCharsets.UTF_8);
        }

        /** Queues {@code line}, waiting while the queue is full; refuses once the transport closes or fails. */
        private void enqueue(McpSchema.JSONRPCMessage message, byte[] line) {
            lock.lock();
            try {
                while (state == State.OPEN && queue.size() >= capacity) {
                    room.awaitUninterruptibly();
                }
                if (state != State.OPEN) {
                    throw new IllegalStateException("mnemo mcp did not send " + describe(message) + ": "
                            + (state == State.FAILED ? "its output failed (" + failure + ")" : "the session is closed"));
                }
                queue.add(line);
                queued.signal();
            } finally {
                lock.unlock();
            }
        }

        /** The writer: each queued line whole, in order; flushed whenever the queue runs empty. */
        private void writeLoop() {
            try {
                while (true) {
                    byte[] line;
                    boolean more;
                    lock.lock();
                    try {
                        while (queue.isEmpty() && state == State.OPEN) {
                            queued.awaitUninterruptibly();
                        }
                        line = queue.poll();
                        if (line == null) {
                            return; // closing, and everything queued was written
                        }
                        more = !queue.isEmpty();
                        room.signal();
                    } finally {
                        lock.unlock();
                    }
                    if (!write(line, more)) {
                        return;
                    }
                }
            } finally {
                writerDone.complete(null);
            }
        }

        /** Writes one line (StdioGuard's own answers hold the output's lock too); false once the output failed. */
        private boolean write(byte[] line, boolean more) {
            try {
                synchronized (output) {
                    output.write(line);
                    if (!more) {
                        output.flush();
                    }
                }
                return true;
            } catch (IOException | RuntimeException e) {
                int lost;
                lock.lock();
                try {
                    state = State.FAILED;
                    failure = e.toString();
                    lost = queue.size() + 1;
                    queue.clear();
                    room.signalAll();
                } finally {
                    lock.unlock();
                }
                LOG.error("mnemo mcp cannot write to its output ({}): {} message(s) not delivered, and later ones"
                        + " are refused; the client sees no more answers", e, lost);
                return false;
            }
        }

        /** The reader: each line, in order, to the session; at the end of input, a graceful close. */
        private void readLoop(McpServerSession owner) {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(input, StandardCharsets.UTF_8))) {
                Line line;
                while ((line = nextMessage(reader, mapper, bad ->
                        LOG.warn("Skipping an input line that is not a JSON-RPC message ({} characters)", bad.length())))
                        != null) {
                    McpSchema.JSONRPCMessage message = line.message();
                    Sinks.EmitResult result = inbound.tryEmitNext(message);
                    if (result.isFailure()) {
                        LOG.error("The MCP session no longer takes messages ({}); {} and what follows are not handled",
                                result, describe(message));
                        break;
                    }
                }
            } catch (IOException | RuntimeException e) {
                if (isOpen()) {
                    LOG.error("mnemo mcp cannot read its input: {}", e.toString());
                } else {
                    LOG.debug("The input failed after the session closed: {}", e.toString());
                }
            } finally {
                inbound.tryEmitComplete();
                owner.closeGracefully().subscribe(ignored -> {}, error ->
                        LOG.warn("Closing the MCP session at the end of input failed: {}", error.toString()));
            }
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return mapper.convertValue(data, typeRef);
        }

        /** Stops taking messages, writes those queued, and completes when they are written (at most {@link #CLOSE_LIMIT}). */
        @Override
        public Mono<Void> closeGracefully() {
            return Mono.defer(() -> {
                stopTaking();
                return Mono.fromFuture(writerDone.copy());
            }).timeout(CLOSE_LIMIT, Mono.fromRunnable(() -> LOG.warn("mnemo mcp closed before its output took every"
                    + " queued message within {}", CLOSE_LIMIT)));
        }

        /** Stops taking messages; the writer still writes those queued, then ends. */
        @Override
        public void close() {
            stopTaking();
        }

        private boolean isOpen() {
            lock.lock();
            try {
                return state == State.OPEN;
            } finally {
                lock.unlock();
            }
        }

        private void stopTaking() {
            lock.lock();
            try {
                if (state == State.OPEN) {
                    state = State.CLOSING;
                }
                queued.signalAll();
                room.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }
}
