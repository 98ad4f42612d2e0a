package dev.mnemo.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A model endpoint on the loopback address for driving a real coding agent (Codex CLI, Claude Code)
 * in a test: every request is recorded, and a {@link Script} answers it, mostly with a server-sent
 * event stream as the model APIs do. Several agent sessions may talk to one server at once; a script
 * that tells them apart by what their requests carry needs no state.
 */
final class ScriptedModelServer implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();

    /** One request as it came: method, path with query, and the body as JSON (missing when not JSON). */
    record Request(String method, String path, JsonNode body) {

        /** The whole body as text, for searching it. */
        String text() {
            return body.toString();
        }
    }

    /** One answer: status, content type and bytes. */
    record Reply(int status, String contentType, byte[] body) {

        /** A {@code text/event-stream} of already rendered {@link #event events}. */
        static Reply stream(List<String> events) {
            return new Reply(200, "text/event-stream", String.join("", events).getBytes(StandardCharsets.UTF_8));
        }

        static Reply json(JsonNode body) {
            return new Reply(200, "application/json", body.toString().getBytes(StandardCharsets.UTF_8));
        }

        static Reply notFound() {
            return new Reply(404, "text/plain", "no such endpoint in the scripted model".getBytes(StandardCharsets.UTF_8));
        }
    }

    /** What the scripted model answers to one request. */
    @FunctionalInterface
    interface Script {
        Reply answer(Request request) throws IOException;
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(8);
    private final Script script;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();

    private ScriptedModelServer(Script script) throws IOException {
        this.script = script;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    /** Starts serving on a free loopback port. */
    static ScriptedModelServer start(Script script) {
        try {
            return new ScriptedModelServer(script);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code http://127.0.0.1:PORT}, without a path. */
    String origin() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every request so far, in arrival order. */
    List<Request> requests() {
        return List.copyOf(requests);
    }

    /** What went wrong while answering (a script that threw), empty when nothing did. */
    List<String> failures() {
        return List.copyOf(failures);
    }

    /** One server-sent event: {@code event: NAME} and its JSON {@code data}. */
    static String event(String name, JsonNode data) {
        return "event: " + name + "\ndata: " + data + "\n\n";
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] bytes = exchange.getRequestBody().readAllBytes();
            JsonNode body;
            try {
                body = bytes.length == 0 ? MissingNode.getInstance() : JSON.readTree(bytes);
            } catch (IOException notJson) {
                body = JSON.getNodeFactory().textNode(new String(bytes, StandardCharsets.UTF_8));
            }
            Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().toString(), body);
            requests.add(request);
            Reply reply;
            try {
                reply = script.answer(request);
            } catch (RuntimeException | IOException e) {
                failures.add(request.method() + " " + request.path() + ": " + e);
                reply = new Reply(500, "text/plain", String.valueOf(e).getBytes(StandardCharsets.UTF_8));
            }
            exchange.getResponseHeaders().add("Content-Type", reply.contentType());
            exchange.sendResponseHeaders(reply.status(), reply.body().length == 0 ? -1 : reply.body().length);
            if (reply.body().length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(reply.body());
                }
            }
        }
    }
}
