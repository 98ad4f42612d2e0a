package dev.mnemo.langchain4j;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.mnemo.testkit.OpenAiWireServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A streaming Chat Completions endpoint whose first answer breaks off: some text chunks, then an
 * event that is not JSON, which the client reports as an error as it would a cut connection. Every
 * later request gets a whole answer. ({@link OpenAiWireServer} cannot fail in the middle of a stream.)
 */
final class BrokenStreamServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "broken-stream-server");
        t.setDaemon(true);
        return t;
    });
    private final List<String> shownBeforeBreak;
    private final String after;
    private final AtomicInteger requests = new AtomicInteger();

    private BrokenStreamServer(List<String> shownBeforeBreak, String after) throws IOException {
        this.shownBeforeBreak = List.copyOf(shownBeforeBreak);
        this.after = after;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/v1/chat/completions", this::serve);
        server.start();
    }

    /** The first stream sends {@code shownBeforeBreak} and breaks; every later one answers {@code after}. */
    static BrokenStreamServer start(List<String> shownBeforeBreak, String after) {
        try {
            return new BrokenStreamServer(shownBeforeBreak, after);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = exchange.getResponseBody();
            if (requests.getAndIncrement() == 0) {
                for (String piece : shownBeforeBreak) {
                    event(out, chunk(piece, null).toString());
                }
                event(out, "{\"id\":\"chatcmpl-broken\",\"choices\":[{\"index\":0,\"delta\":{\"content\":");
            } else {
                event(out, chunk(after, null).toString());
                event(out, chunk(null, "stop").toString());
                event(out, "[DONE]");
            }
        }
    }

    private static ObjectNode chunk(String content, String finishReason) {
        ObjectNode choice = JSON.createObjectNode().put("index", 0);
        ObjectNode delta = choice.putObject("delta");
        if (content != null) {
            delta.put("role", "assistant").put("content", content);
        }
        choice.put("finish_reason", finishReason);
        ObjectNode chunk = JSON.createObjectNode().put("id", "chatcmpl-broken").put("object", "chat.completion.chunk")
                .put("created", 1).put("model", "assistant-model");
        chunk.putArray("choices").add(choice);
        return chunk;
    }

    private static void event(OutputStream out, String data) throws IOException {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
