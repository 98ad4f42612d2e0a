package dev.mnemo.cli;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** An OpenAI-compatible {@code /v1/chat/completions} endpoint on the loopback address, answered by a test's handler. */
final class ChatCompletionsServer implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(8);

    private ChatCompletionsServer(HttpHandler handler) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/v1/chat/completions", handler);
        server.start();
    }

    static ChatCompletionsServer start(HttpHandler handler) {
        try {
            return new ChatCompletionsServer(handler);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The API root to put in {@code OPENAI_BASE_URL}. */
    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
