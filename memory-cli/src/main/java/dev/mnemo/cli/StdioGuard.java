package dev.mnemo.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The stdio streams handed to the MCP transport ({@link StdioTransport}), with two repairs. The SDK's
 * transport ended the session at the first line it could not read as a JSON-RPC message; here such
 * a line is answered with a JSON-RPC error (parse error, or invalid request) and never reaches the
 * transport. And the transport closes the session when its input ends, refusing the answers still
 * in flight; here the end of input is held back until every request read so far has been answered
 * (or the output failed), so {@code printf '...' | mnemo mcp} prints every answer (what the server
 * itself asks the client, such as {@code roots/list}, is no answer and is not counted as one).
 *
 * <p>This is no protocol layer: valid messages pass through unchanged, and the SDK answers them.
 */
final class StdioGuard {

    /** How long the end of input waits for the answers still owed; a stuck tool cannot hold the exit longer. */
    static final Duration DRAIN_LIMIT = Duration.ofSeconds(30);

    private final BufferedReader reader;
    private final CountingOutput output;
    private final McpJsonMapper mapper;
    private final ObjectMapper json;
    private final CountDownLatch ended = new CountDownLatch(1);
    private final Object lock = new Object();
    private long owed;     // answers owed: requests passed on plus the errors written here
    private long written;  // answers written to the output
    private boolean broken; // the output failed: no answer owed can come any more

    StdioGuard(InputStream in, OutputStream out, McpJsonMapper mapper, ObjectMapper json) {
        this.reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        this.output = new CountingOutput(out);
        this.mapper = mapper;
        this.json = json;
    }

    /** What the transport reads: the valid messages, one per line. */
    InputStream input() {
        return new GuardedInput();
    }

    /** What the transport writes to; it (and this guard) write a message and its newline while holding this object's lock. */
    OutputStream output() {
        return output;
    }

    /** Blocks until the input has ended and the answers owed were written (or {@link #DRAIN_LIMIT} passed). */
    void awaitEnd() throws InterruptedException {
        ended.await();
    }

    /** The next line the transport may read, or null at the end of input. */
    private String nextMessage() throws IOException {
        StdioTransport.Line line = StdioTransport.nextMessage(reader, mapper, this::reject);
        if (line == null) {
            drain();
            ended.countDown();
            return null;
        }
        if (line.message() instanceof McpSchema.JSONRPCRequest) {
            synchronized (lock) {
                owed++;
            }
        }
        return line.text();
    }

    /** Answers a line that is not a JSON-RPC message: -32700 when it is not JSON, -32600 when it is. */
    private void reject(String line) throws IOException {
        JsonNode node;
        try {
            node = json.readTree(line);
        } catch (IOException e) {
            node = null;
        }
        JsonNode id = node != null && node.has("id") && (node.get("id").isTextual() || node.get("id").isIntegralNumber())
                ? node.get("id") : null;
        ObjectNode answer = json.createObjectNode().put("jsonrpc", McpSchema.JSONRPC_VERSION);
        answer.set("id", id);
        ObjectNode error = answer.putObject("error");
        if (node == null) {
            error.put("code", McpSchema.ErrorCodes.PARSE_ERROR).put("message", "Parse error: the line is not JSON");
        } else {
            error.put("code", McpSchema.ErrorCodes.INVALID_REQUEST)
                    .put("message", "Invalid Request: the line is JSON but not a JSON-RPC 2.0 message");
        }
        byte[] bytes = json.writeValueAsBytes(answer);
        synchronized (lock) {
            owed++;
        }
        synchronized (output) {
            output.write(bytes);
            output.write('\n');
            output.flush();
        }
    }

    /**
     * Waits, bounded, until every answer owed has been written, or the output failed (then no more
     * can be). An interrupt of the reading thread
     * (a scheduler may interrupt it once input ends) does not cut the wait short: the
     * answers still come, and the interrupt is passed on afterwards.
     */
    private void drain() {
        long deadline = System.nanoTime() + DRAIN_LIMIT.toNanos();
        boolean interrupted = false;
        synchronized (lock) {
            long left;
            while (written < owed && !broken && (left = deadline - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Serves the valid lines byte by byte to the transport's reader. */
    private final class GuardedInput extends InputStream {
        private byte[] line = new byte[0];
        private int position;
        private boolean eof;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (length == 0) {
                return 0;
            }
            if (position == line.length) {
                if (eof) {
                    return -1;
                }
                String next = nextMessage();
                if (next == null) {
                    eof = true;
                    return -1;
                }
                line = (next + "\n").getBytes(StandardCharsets.UTF_8);
                position = 0;
            }
            int count = Math.min(length, line.length - position);
            System.arraycopy(line, position, buffer, offset, count);
            position += count;
            return count;
        }
    }

    /**
     * Whether a message written, of which {@code start} is the beginning, answers a request (a
     * response or an error) rather than being a request or notification the server sends: its
     * first top-level field of the two kinds decides. Undecided within {@code start}: an answer.
     */
    boolean isAnswer(byte[] start) {
        try (JsonParser parser = json.getFactory().createParser(start)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                return true;
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                if (field.equals("method")) {
                    return false;
                }
                if (field.equals("result") || field.equals("error")) {
                    return true;
                }
                parser.nextToken();
                parser.skipChildren();
            }
        } catch (IOException cutShort) {
            // the start ends inside a value
        }
        return true;
    }

    /**
     * The real output. Each newline ends one message (the transport escapes newlines inside messages); an
     * answer counts as written once flushed. Writers hold this object's lock, as the transport does.
     */
    private final class CountingOutput extends OutputStream {
        /** How much of a message is kept to tell an answer from a message the server sends. */
        private static final int START_BYTES = 256;

        private final OutputStream out;
        private final ByteArrayOutputStream start = new ByteArrayOutputStream(START_BYTES);
        private int unflushed;

        CountingOutput(OutputStream out) {
            this.out = out;
        }

        @Override
        public synchronized void write(int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                throw failed(e);
            }
            see(b);
        }

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) throws IOException {
            try {
                out.write(bytes, offset, length);
            } catch (IOException e) {
                throw failed(e);
            }
            for (int i = offset; i < offset + length; i++) {
                see(bytes[i]);
            }
        }

        /** Keeps the start of the current message; at its newline, counts it if it is an answer. */
        private void see(int b) {
            if (b == '\n') {
                if (isAnswer(start.toByteArray())) {
                    unflushed++;
                }
                start.reset();
            } else if (start.size() < START_BYTES) {
                start.write(b);
            }
        }

        /** Marks the output broken, so the end of input waits for no answer; returns {@code e}. */
        private IOException failed(IOException e) {
            synchronized (lock) {
                broken = true;
                lock.notifyAll();
            }
            return e;
        }

        @Override
        public synchronized void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                throw failed(e);
            }
            if (unflushed > 0) {
                synchronized (lock) {
                    written += unflushed;
                    lock.notifyAll();
                }
                unflushed = 0;
            }
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}
