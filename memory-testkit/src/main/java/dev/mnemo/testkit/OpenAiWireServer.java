package dev.mnemo.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * An HTTP server on 127.0.0.1 that speaks OpenAI's Chat Completions wire format
 * ({@code POST /v1/chat/completions}, plain JSON and {@code text/event-stream} streaming) and the
 * Responses API ({@code POST /v1/responses}, plain JSON only) with scripted answers, so real clients — Mnemo's own, Spring AI's, LangChain4j's — can be tested
 * offline. It is a test double for a model endpoint, not a model: it answers what the script says.
 *
 * <pre>{@code
 * try (OpenAiWireServer server = OpenAiWireServer.start()) {
 *     server.enqueue(WireReply.toolCall("call_1", "memories_search", "{\"query\":\"gradle\"}"));
 *     server.enqueue(WireReply.text("Use ./gradlew build.", "Use ", "./gradlew", " build."));
 *     // point the client at server.baseUrl() ("http://127.0.0.1:PORT/v1") ...
 *     assertThat(server.requests().get(0).systemText()).contains("MEMORY_SUMMARY BEGINS");
 * }
 * }</pre>
 *
 * <p>Replies come from the queue filled by {@link #enqueue}, or, when one is given, from a function
 * of the request ({@link #start(Function)}); with neither, the server answers HTTP 500 with an
 * OpenAI-shaped error naming the problem. Every request is kept, in arrival order.
 */
public final class OpenAiWireServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService executor;
    private final Function<WireRequest, WireReply> responder;
    private final Deque<WireReply> queue = new ArrayDeque<>();
    private final List<WireRequest> requests = new CopyOnWriteArrayList<>();
    private final CountDownLatch closed = new CountDownLatch(1);

    private OpenAiWireServer(Function<WireRequest, WireReply> responder) throws IOException {
        this.responder = responder;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        this.executor = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "openai-wire-server");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/v1/chat/completions", exchange -> serve(exchange, false));
        server.createContext("/v1/responses", exchange -> serve(exchange, true));
        server.start();
    }

    /**
     * A server answering from its {@link #enqueue queue}.
     *
     * @return a started server on a free loopback port
     * @throws java.io.UncheckedIOException if no loopback port can be opened
     */
    public static OpenAiWireServer start() {
        return start(null);
    }

    /**
     * A server answering each request with {@code responder}'s reply; replies {@link #enqueue
     * enqueued} go first.
     *
     * @param responder gives the reply to each request the queue does not answer; null to answer
     *     from the queue only
     * @return a started server on a free loopback port
     * @throws java.io.UncheckedIOException if no loopback port can be opened
     */
    public static OpenAiWireServer start(Function<WireRequest, WireReply> responder) {
        try {
            return new OpenAiWireServer(responder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a loopback port for the test server", e);
        }
    }

    /**
     * The API root to give a client, with {@code /v1}: {@code http://127.0.0.1:PORT/v1}.
     *
     * @return the server's base URL
     */
    public URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
    }

    /**
     * Adds a reply for the next request that finds the queue non-empty.
     *
     * @param reply the reply, taken after every reply queued before it; not null
     * @return this server
     */
    public OpenAiWireServer enqueue(WireReply reply) {
        Objects.requireNonNull(reply, "reply");
        synchronized (queue) {
            queue.addLast(reply);
        }
        return this;
    }

    /**
     * Every request received so far, oldest first.
     *
     * @return an immutable copy of the requests; empty before the first one
     */
    public List<WireRequest> requests() {
        return List.copyOf(requests);
    }

    /**
     * How many replies are still queued.
     *
     * @return the number of queued replies no request has taken yet
     */
    public int pending() {
        synchronized (queue) {
            return queue.size();
        }
    }

    @Override
    public void close() {
        closed.countDown();
        server.stop(0);
        executor.shutdownNow();
    }

    private void serve(HttpExchange exchange, boolean responsesApi) throws IOException {
        try (exchange) {
            if (!"POST".equals(exchange.getRequestMethod())) {
                send(exchange, 405, error("only POST is served here", "invalid_request_error"));
                return;
            }
            JsonNode body;
            try {
                body = JSON.readTree(exchange.getRequestBody());
            } catch (IOException e) {
                send(exchange, 400, error("request body is not JSON: " + e.getMessage(), "invalid_request_error"));
                return;
            }
            WireRequest request = new WireRequest(body.toString(), body, exchange.getRequestURI().getPath());
            requests.add(request);
            WireReply reply = nextReply(request);
            while (reply instanceof WireReply.Delayed delayed) {
                if (!pause(delayed.delay())) {
                    return;
                }
                reply = delayed.reply();
            }
            if (reply == null) {
                send(exchange, 500, error("the test server has no scripted reply left for request #" + requests.size(),
                        "server_error"));
            } else if (reply instanceof WireReply.Failure failure) {
                send(exchange, failure.status(), failure.body());
            } else if (reply instanceof WireReply.Stall) {
                awaitClose();
            } else if (responsesApi && request.stream()) {
                send(exchange, 400, error("this test server does not stream the Responses API", "invalid_request_error"));
            } else if (responsesApi) {
                send(exchange, 200, response(request, reply).toString());
            } else if (request.stream()) {
                stream(exchange, request, reply);
            } else {
                send(exchange, 200, completion(request, reply).toString());
            }
        }
    }

    /** Holds a delayed reply back; false when the server is closing meanwhile. */
    private static boolean pause(java.time.Duration delay) {
        try {
            Thread.sleep(delay.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void awaitClose() {
        try {
            closed.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A Responses API answer: {@code output} items (a message, or function calls) and usage. */
    private static ObjectNode response(WireRequest request, WireReply reply) {
        ObjectNode root = JSON.createObjectNode().put("id", "resp_test").put("object", "response")
                .put("created_at", 1_700_000_000L).put("status", "completed").put("model", request.model());
        ArrayNode output = root.putArray("output");
        if (reply instanceof WireReply.Text text) {
            ObjectNode message = output.addObject().put("type", "message").put("id", "msg_test")
                    .put("status", "completed").put("role", "assistant");
            message.putArray("content").addObject().put("type", "output_text").put("text", text.text())
                    .putArray("annotations");
        } else if (reply instanceof WireReply.ToolCalls calls) {
            int n = 0;
            for (WireReply.Call call : calls.calls()) {
                output.addObject().put("type", "function_call").put("id", "fc_test_" + n++).put("call_id", call.id())
                        .put("name", call.name()).put("arguments", call.argumentsJson()).put("status", "completed");
            }
        }
        ObjectNode usage = root.putObject("usage").put("input_tokens", reply.inputTokens());
        usage.putObject("input_tokens_details").put("cached_tokens", 0);
        usage.put("output_tokens", reply.outputTokens());
        usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
        usage.put("total_tokens", reply.inputTokens() + reply.outputTokens());
        return root;
    }

    private WireReply nextReply(WireRequest request) {
        synchronized (queue) {
            if (!queue.isEmpty()) {
                return queue.removeFirst();
            }
        }
        return responder == null ? null : responder.apply(request);
    }

    private static ObjectNode completion(WireRequest request, WireReply reply) {
        ObjectNode root = JSON.createObjectNode().put("id", "chatcmpl-test").put("object", "chat.completion")
                .put("created", 1_700_000_000L).put("model", request.model());
        ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
        ObjectNode message = choice.putObject("message").put("role", "assistant");
        if (reply instanceof WireReply.Text text) {
            message.put("content", text.text());
            choice.put("finish_reason", "stop");
        } else if (reply instanceof WireReply.ToolCalls calls) {
            message.putNull("content");
            ArrayNode array = message.putArray("tool_calls");
            for (WireReply.Call call : calls.calls()) {
                array.addObject().put("id", call.id()).put("type", "function").putObject("function")
                        .put("name", call.name()).put("arguments", call.argumentsJson());
            }
            choice.put("finish_reason", "tool_calls");
        }
        usage(root, reply);
        return root;
    }

    private static void usage(ObjectNode root, WireReply reply) {
        root.putObject("usage").put("prompt_tokens", reply.inputTokens()).put("completion_tokens", reply.outputTokens())
                .put("total_tokens", reply.inputTokens() + reply.outputTokens());
    }

    /** Server-sent events: one chunk per text piece or tool call, a finish chunk, usage if asked, [DONE]. */
    private static void stream(HttpExchange exchange, WireRequest request, WireReply reply) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        List<ObjectNode> deltas = new ArrayList<>();
        String finish;
        if (reply instanceof WireReply.Text text) {
            deltas.add(JSON.createObjectNode().put("role", "assistant").put("content", ""));
            for (String piece : text.chunks()) {
                deltas.add(JSON.createObjectNode().put("content", piece));
            }
            finish = "stop";
        } else {
            List<WireReply.Call> calls = ((WireReply.ToolCalls) reply).calls();
            for (int i = 0; i < calls.size(); i++) {
                WireReply.Call call = calls.get(i);
                ObjectNode delta = JSON.createObjectNode().put("role", "assistant");
                delta.putArray("tool_calls").addObject().put("index", i).put("id", call.id()).put("type", "function")
                        .putObject("function").put("name", call.name()).put("arguments", call.argumentsJson());
                deltas.add(delta);
            }
            finish = "tool_calls";
        }
        for (ObjectNode delta : deltas) {
            event(out, chunk(request).set("choices", JSON.createArrayNode().add(
                    JSON.createObjectNode().put("index", 0).<ObjectNode>set("delta", delta).putNull("finish_reason"))));
        }
        event(out, chunk(request).set("choices", JSON.createArrayNode().add(JSON.createObjectNode().put("index", 0)
                .<ObjectNode>set("delta", JSON.createObjectNode()).put("finish_reason", finish))));
        if (request.body().path("stream_options").path("include_usage").asBoolean(false)) {
            ObjectNode last = chunk(request);
            last.putArray("choices");
            usage(last, reply);
            event(out, last);
        }
        out.write("data: [DONE]\n\n".getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static ObjectNode chunk(WireRequest request) {
        return JSON.createObjectNode().put("id", "chatcmpl-test").put("object", "chat.completion.chunk")
                .put("created", 1_700_000_000L).put("model", request.model());
    }

    private static void event(OutputStream out, JsonNode data) throws IOException {
        out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static String error(String message, String type) {
        ObjectNode root = JSON.createObjectNode();
        root.putObject("error").put("message", message).put("type", type).putNull("param").putNull("code");
        return root.toString();
    }

    private static void send(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }
}
