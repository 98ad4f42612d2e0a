package dev.mnemo.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * An OpenAI-shaped HTTP server on 127.0.0.1 for tests: answers each request with the next scripted
 * {@link Reply} and records what the client sent.
 */
final class FakeOpenAiServer implements AutoCloseable {

    /** What the client sent. */
    record Recorded(String method, String path, String query, Headers headers, String body) {
        JsonNode json() {
            try {
                return OpenAiLanguageModel.JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        String header(String name) {
            return headers.getFirst(name);
        }
    }

    /** One scripted answer; {@code hang} makes the server never answer until closed. */
    record Reply(int status, Map<String, String> headers, String body, boolean hang) {
        static Reply json(int status, String body) {
            return new Reply(status, Map.of(), body, false);
        }

        static Reply fixture(int status, String resource) {
            return json(status, FakeOpenAiServer.fixture(resource));
        }

        static Reply hanging() {
            return new Reply(200, Map.of(), "", true);
        }

        Reply withHeader(String name, String value) {
            Map<String, String> h = new LinkedHashMap<>(headers);
            h.put(name, value);
            return new Reply(status, h, body, hang);
        }
    }

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final ConcurrentLinkedDeque<Reply> replies = new ConcurrentLinkedDeque<>();
    private final List<Recorded> requests = new CopyOnWriteArrayList<>();
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile Function<Recorded, Reply> responder;

    private FakeOpenAiServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    static FakeOpenAiServer start() {
        try {
            return new FakeOpenAiServer();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The text of a test resource under {@code dev/mnemo/llm/openai/}. */
    static String fixture(String name) {
        try (InputStream in = FakeOpenAiServer.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no test fixture " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The API root, like {@code https://api.openai.com/v1}. */
    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
    }

    FakeOpenAiServer enqueue(Reply reply) {
        replies.add(reply);
        return this;
    }

    /** Answers every request computed from what was sent, instead of from the queue. */
    FakeOpenAiServer respondWith(Function<Recorded, Reply> responder) {
        this.responder = responder;
        return this;
    }

    List<Recorded> requests() {
        return List.copyOf(requests);
    }

    Recorded lastRequest() {
        return requests.get(requests.size() - 1);
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Recorded recorded = new Recorded(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                    exchange.getRequestURI().getRawQuery(), exchange.getRequestHeaders(), body);
            requests.add(recorded);
            Function<Recorded, Reply> r = responder;
            Reply reply = r != null ? r.apply(recorded) : replies.poll();
            if (reply == null) {
                reply = Reply.json(500, "{\"error\":{\"message\":\"the test scripted no reply\",\"type\":\"test\"}}");
            }
            if (reply.hang()) {
                closing.await();
                return;
            }
            byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            reply.headers().forEach(exchange.getResponseHeaders()::set);
            exchange.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        closing.countDown();
        server.stop(0);
        executor.shutdownNow();
    }
}
