package dev.mnemo.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mnemo mcp} as a child process under many parallel {@code tools/call} requests, sent as
 * raw JSON-RPC lines by client threads that each wait for their answer: every request gets exactly
 * one answer, the right one, within {@link #CALL_LIMIT} (a lost answer shows as a call that timed
 * out, named in the failure). Variants: a client without roots; a client that declares roots and
 * answers {@code roots/list} only once its whole first batch of calls was sent (so those calls wait
 * in the server and are let go together); and the same on a CPU loaded by busy threads.
 */
@Timeout(240)
class McpParallelCallsIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** How long one call may wait for its answer before it counts as lost. */
    private static final long CALL_LIMIT_SECONDS = 20;
    private static final String CALL_LIMIT = CALL_LIMIT_SECONDS + " s";

    @TempDir
    Path dir;

    @Test
    void parallelCalls_withoutRoots_everyCallIsAnsweredOnce() throws Exception {
        try (Session session = Session.start(home(), dir.resolve("stderr.txt"), false)) {
            Outcome outcome = session.run(32, 1_024);

            outcome.assertAllAnswered(1_024);
            session.assertEndsCleanly();
        }
    }

    @Test
    void parallelCalls_waitingForALateRootsAnswer_everyCallIsAnsweredOnce() throws Exception {
        Path home = home();
        Path project = Files.createDirectories(dir.resolve("repo"));
        for (int run = 0; run < 3; run++) {
            try (Session session = Session.start(home, dir.resolve("stderr-" + run + ".txt"), true)) {
                session.answerRootsOnceSent(32, project);
                Outcome outcome = session.run(32, 352);

                outcome.assertAllAnswered(352);
                assertThat(session.rootsAsked).hasValue(1);
                session.assertEndsCleanly();
            }
        }
    }

    @Test
    void parallelCalls_onALoadedCpu_withALateRootsAnswer_everyCallIsAnsweredOnce() throws Exception {
        Path project = Files.createDirectories(dir.resolve("repo"));
        AtomicBoolean busy = new AtomicBoolean(true);
        List<Thread> burners = new ArrayList<>();
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) { // one busy thread a core
            Thread burner = new Thread(() -> {
                long x = 0;
                while (busy.get()) {
                    x += System.nanoTime() % 7;
                }
                if (x == 42) {
                    System.out.print("");
                }
            }, "busy-" + i);
            burner.setDaemon(true);
            burner.start();
            burners.add(burner);
        }
        try (Session session = Session.start(home(), dir.resolve("stderr.txt"), true)) {
            session.answerRootsOnceSent(24, project);
            Outcome outcome = session.run(24, 1_008);

            outcome.assertAllAnswered(1_008);
            session.assertEndsCleanly();
        } finally {
            busy.set(false);
            for (Thread burner : burners) {
                burner.join();
            }
        }
    }

    @Test
    void aClosedOutput_isSaidOnStandardError_andTheServerStillExits() throws Exception {
        Path stderr = dir.resolve("stderr.txt");
        Process process = new ProcessBuilder(MnemoJar.command(home(), "mcp")).redirectError(stderr.toFile()).start();
        try {
            OutputStream stdin = process.getOutputStream();
            BufferedReader stdout = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8));
            stdin.write((Session.INITIALIZE.formatted("{}") + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
            assertThat(stdout.readLine()).contains("\"serverInfo\"");
            stdout.close(); // no thread reads it: the pipe's end closes, and the server's next write fails
            stdin.write(("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n" + Session.toolCall(2, 0)
                    + "\n").getBytes(StandardCharsets.UTF_8));
            stdin.close();

            assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the server exits").isTrue();
            assertThat(Files.readString(stderr)).contains("cannot write to its output", "not delivered");
        } finally {
            process.destroyForcibly();
        }
    }

    private Path home() throws IOException {
        return MnemoJar.homeWithMemories(dir.resolve("home"));
    }

    /** What a run saw: the calls answered, and those that were not within the limit, or wrongly. */
    record Outcome(int answered, List<String> problems, long millis) {
        void assertAllAnswered(int calls) {
            assertThat(problems).as("calls lost or answered wrongly (of %d, in %d ms)", calls, millis).isEmpty();
            assertThat(answered).isEqualTo(calls);
        }
    }

    /** One {@code mnemo mcp} child and the client side of its stdio. */
    private static final class Session implements AutoCloseable {
        private static final String[][] CALLS = {
            {"memories_search", "{\"queries\":[\"gradle\"]}", "gradle"},
            {"memories_read", "{\"path\":\"MEMORY.md\"}", "Handbook"},
            {"memories_list", "{}", "MEMORY.md"},
        };

        /** The initialize request; its one argument is the client's capabilities. */
        static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":%s,\"clientInfo\":"
                + "{\"name\":\"parallel\",\"version\":\"1\"}}}";

        final Process process;
        final Path stderr;
        final AtomicInteger rootsAsked = new AtomicInteger();
        private final OutputStream stdin;
        private final Map<Long, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
        private final List<String> unexpected = java.util.Collections.synchronizedList(new ArrayList<>());
        private final Thread reader;
        private volatile CountDownLatch firstBatch = new CountDownLatch(0);
        private final CompletableFuture<JsonNode> rootsRequest = new CompletableFuture<>();

        private Session(Process process, Path stderr) {
            this.process = process;
            this.stderr = stderr;
            this.stdin = process.getOutputStream();
            this.reader = new Thread(this::readAnswers, "mcp-client-reader");
            reader.setDaemon(true);
        }

        static Session start(Path home, Path stderr, boolean declaresRoots) throws Exception {
            Process process = new ProcessBuilder(MnemoJar.command(home, "mcp")).redirectError(stderr.toFile()).start();
            Session session = new Session(process, stderr);
            session.reader.start();
            JsonNode init = session.call(1, INITIALIZE.formatted(declaresRoots ? "{\"roots\":{\"listChanged\":false}}" : "{}"));
            assertThat(init.path("result").path("serverInfo").path("name").asText()).isEqualTo("mnemo");
            session.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            return session;
        }

        /** Answers the server's {@code roots/list} with {@code root}, but only once {@code calls} calls were sent. */
        void answerRootsOnceSent(int calls, Path root) {
            firstBatch = new CountDownLatch(calls);
            CountDownLatch batch = firstBatch;
            Thread answerer = new Thread(() -> {
                try {
                    JsonNode id = rootsRequest.get(CALL_LIMIT_SECONDS, TimeUnit.SECONDS);
                    assertThat(batch.await(CALL_LIMIT_SECONDS, TimeUnit.SECONDS)).isTrue();
                    send("{\"jsonrpc\":\"2.0\",\"id\":" + JSON.writeValueAsString(id) + ",\"result\":{\"roots\":"
                            + "[{\"uri\":" + JSON.writeValueAsString(root.toUri().toString())
                            + ",\"name\":\"repo\"}]}}");
                } catch (Exception | AssertionError e) {
                    unexpected.add("the roots/list answer was not sent: " + e);
                }
            }, "roots-answerer");
            answerer.setDaemon(true);
            answerer.start();
        }

        /** {@code calls} tool calls from {@code threads} client threads, each waiting for its answer. */
        Outcome run(int threads, int calls) throws InterruptedException {
            AtomicLong nextId = new AtomicLong(100);
            AtomicBoolean lostOne = new AtomicBoolean(); // then no new calls: the test fails in one CALL_LIMIT
            AtomicInteger answered = new AtomicInteger();
            List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
            List<Thread> clients = new ArrayList<>();
            long started = System.nanoTime();
            for (int t = 0; t < threads; t++) {
                Thread client = new Thread(() -> {
                    long id;
                    while (!lostOne.get() && (id = nextId.getAndIncrement()) < 100 + calls) {
                        int kind = (int) (id % CALLS.length);
                        try {
                            JsonNode answer = call(id, toolCall(id, kind));
                            JsonNode result = answer.path("result");
                            String text = result.path("content").path(0).path("text").asText();
                            if (result.path("isError").asBoolean() || !text.contains(CALLS[kind][2])) {
                                problems.add("call " + id + " (" + CALLS[kind][0] + ") answered " + answer);
                            } else {
                                answered.incrementAndGet();
                            }
                        } catch (TimeoutException e) {
                            lostOne.set(true);
                            problems.add("call " + id + " (" + CALLS[kind][0] + ") had no answer within " + CALL_LIMIT);
                        } catch (Exception e) {
                            problems.add("call " + id + " failed: " + e);
                        }
                    }
                }, "mcp-client-" + t);
                client.start();
                clients.add(client);
            }
            for (Thread client : clients) {
                client.join();
            }
            List<String> all = new ArrayList<>(problems);
            all.addAll(unexpected);
            if (!all.isEmpty()) {
                all.add("the server's standard error: " + errorLines());
            }
            return new Outcome(answered.get(), all, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        }

        /** The server's log lines at WARN and above, the first few. */
        private String errorLines() {
            try {
                return Files.readAllLines(stderr).stream().filter(line -> line.contains("ERROR") || line.contains("WARN"))
                        .limit(5).toList().toString();
            } catch (IOException e) {
                return e.toString();
            }
        }

        static String toolCall(long id, int kind) {
            return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
                    + CALLS[kind][0] + "\",\"arguments\":" + CALLS[kind][1] + "}}";
        }

        /** Sends {@code line} as request {@code id} and waits, bounded, for its answer. */
        JsonNode call(long id, String line) throws Exception {
            CompletableFuture<JsonNode> answer = new CompletableFuture<>();
            pending.put(id, answer);
            send(line);
            firstBatch.countDown();
            return answer.get(CALL_LIMIT_SECONDS, TimeUnit.SECONDS);
        }

        void send(String line) throws IOException {
            synchronized (stdin) {
                stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                stdin.flush();
            }
        }

        /** Every line of standard output: an answer to a pending call, or the server's roots/list. */
        private void readAnswers() {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    JsonNode message = JSON.readTree(line);
                    if (message.has("method")) {
                        if ("roots/list".equals(message.path("method").asText()) && message.has("id")) {
                            rootsAsked.incrementAndGet();
                            rootsRequest.complete(message.path("id"));
                        }
                        continue;
                    }
                    CompletableFuture<JsonNode> waiting = pending.remove(message.path("id").asLong(-1));
                    if (waiting == null) {
                        unexpected.add("an answer no call waits for (twice?): " + line);
                    } else {
                        waiting.complete(message);
                    }
                }
            } catch (IOException e) {
                if (process.isAlive()) {
                    unexpected.add("reading the server's output failed: " + e);
                }
            }
        }

        /** Closes the input: the server exits 0 within the limit, having logged no lost message. */
        void assertEndsCleanly() throws Exception {
            stdin.close();
            assertThat(process.waitFor(CALL_LIMIT_SECONDS, TimeUnit.SECONDS)).as("the server exits").isTrue();
            assertThat(process.exitValue()).isZero();
            reader.join(TimeUnit.SECONDS.toMillis(CALL_LIMIT_SECONDS));
            assertThat(unexpected).isEmpty();
            String log = Files.readString(stderr);
            assertThat(log).doesNotContain("Failed to enqueue", "EmissionException", "cannot write", "did not send");
        }

        @Override
        public void close() throws InterruptedException {
            if (process.isAlive()) {
                process.destroy();
                process.waitFor(30, TimeUnit.SECONDS);
            }
        }
    }
}
