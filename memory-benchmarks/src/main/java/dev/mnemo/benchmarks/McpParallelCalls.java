package dev.mnemo.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * {@code mcp_calls_parallel}: answers per second of {@code mnemo mcp} (the CLI's MCP server, a child
 * process started as {@link McpInitializeCold} starts it, with the CDS archive) to
 * {@code tools/call} requests of {@code memories_search} and {@code memories_read} in turn, with
 * {@value #IN_FLIGHT} requests in flight: the client writes a request whenever fewer than that wait
 * for their answer, and one reader thread takes the answers as they come. Reference: the same calls
 * on the same server one at a time (each sent when the last was answered), so the ratio (reference
 * rate over this rate, lower is better) says what 16 callers gain over one on this machine's two
 * cores. Each count of {@link #CALLS} calls comes after {@link #WARM_UP} unmeasured ones; the home
 * holds the 40 KB summary and a MEMORY.md of the same size.
 */
final class McpParallelCalls {

    static final int IN_FLIGHT = 16;
    static final int WARM_UP = 2_000;
    static final int CALLS = 4_000;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] TOOLS = {
        "\"name\":\"memories_search\",\"arguments\":{\"queries\":[\"hermetic\"]}",
        "\"name\":\"memories_read\",\"arguments\":{\"path\":\"memory_summary.md\"}",
    };

    private McpParallelCalls() {}

    /** Runs the metric when {@code selected} accepts {@code McpParallelCalls.calls}; summary lines. */
    static List<String> measure(Predicate<String> selected, boolean quick) throws IOException {
        List<String> lines = new ArrayList<>();
        if (!selected.test("McpParallelCalls.calls")) {
            return lines;
        }
        Path jar = McpInitializeCold.cliJar("mcp_calls_parallel");
        if (jar == null) {
            return lines;
        }
        Path scratch = BenchSupport.scratch("mcp-calls");
        try {
            Path home = scratch.resolve("home");
            BenchSupport.write(home.resolve("memories/memory_summary.md"), ReadPathBenchmarks.summaryText());
            BenchSupport.write(home.resolve("memories/MEMORY.md"), "# Memory\n\n" + ReadPathBenchmarks.summaryText());
            List<String> command = List.of(ProcessHandle.current().info().command().orElse("java"), "-Xlog:disable",
                    "-Xlog:all=warning:stderr", "-XX:SharedArchiveFile=" + jar.resolveSibling("mnemo-mcp.jsa"), "-jar",
                    jar.toString(), "--home", home.toString(), "mcp");
            int calls = quick ? CALLS / 4 : CALLS;
            try (Server server = Server.start(command)) {
                server.run(IN_FLIGHT, WARM_UP);
                server.run(1, WARM_UP / 4);
                double sequential = server.run(1, calls);
                double parallel = server.run(IN_FLIGHT, calls);
                lines.add(String.format(Locale.ROOT, "mcp_calls_parallel %.0f answers_per_s %.0f %.2f", parallel,
                        sequential, sequential / parallel));
            }
        } finally {
            BenchSupport.deleteRecursively(scratch);
        }
        return lines;
    }

    /** One {@code mnemo mcp} child, initialised, and the client side of its stdio. */
    private static final class Server implements AutoCloseable {
        private final Process process;
        private final OutputStream stdin;
        private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
        private final Thread reader;
        private long nextId = 1;

        private Server(Process process) {
            this.process = process;
            this.stdin = process.getOutputStream();
            this.reader = new Thread(this::readAnswers, "mcp-bench-reader");
            reader.setDaemon(true);
            reader.start();
        }

        static Server start(List<String> command) throws IOException {
            Server server = new Server(new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start());
            CompletableFuture<JsonNode> init = server.send(McpInitializeCold.INITIALIZE.strip());
            if (!join(init).path("result").has("serverInfo")) {
                throw new IllegalStateException("mnemo mcp did not answer initialize");
            }
            server.write("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            return server;
        }

        /** Sends {@code calls} tool calls, at most {@code inFlight} unanswered at once; answers per second. */
        double run(int inFlight, int calls) {
            Semaphore slots = new Semaphore(inFlight);
            List<CompletableFuture<JsonNode>> answers = new ArrayList<>(calls);
            long start = System.nanoTime();
            for (int i = 0; i < calls; i++) {
                slots.acquireUninterruptibly();
                long id = ++nextId;
                CompletableFuture<JsonNode> answer = send("{\"jsonrpc\":\"2.0\",\"id\":" + id
                        + ",\"method\":\"tools/call\",\"params\":{" + TOOLS[i % TOOLS.length] + "}}");
                answer.whenComplete((a, e) -> slots.release());
                answers.add(answer);
            }
            for (CompletableFuture<JsonNode> answer : answers) {
                JsonNode result = join(answer).path("result");
                if (result.isMissingNode() || result.path("isError").asBoolean(false)) {
                    throw new IllegalStateException("a tool call failed: " + answer.join());
                }
            }
            return calls / ((System.nanoTime() - start) / 1e9);
        }

        private synchronized CompletableFuture<JsonNode> send(String request) {
            CompletableFuture<JsonNode> answer = new CompletableFuture<>();
            try {
                pending.put(JSON.readTree(request).path("id").asLong(), answer);
                write(request);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write to mnemo mcp", e);
            }
            return answer;
        }

        private void write(String line) throws IOException {
            synchronized (stdin) {
                stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                stdin.flush();
            }
        }

        private void readAnswers() {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    JsonNode answer = JSON.readTree(line);
                    CompletableFuture<JsonNode> waiting = answer.has("id") ? pending.remove(answer.path("id").asLong())
                            : null;
                    if (waiting != null) {
                        waiting.complete(answer);
                    }
                }
            } catch (IOException e) {
                pending.values().forEach(p -> p.completeExceptionally(e));
            }
        }

        private static JsonNode join(CompletableFuture<JsonNode> answer) {
            try {
                return answer.get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("no answer from mnemo mcp within 60 s", e);
            }
        }

        @Override
        public void close() {
            try {
                stdin.close();
                if (!process.waitFor(30, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (IOException e) {
                process.destroyForcibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
