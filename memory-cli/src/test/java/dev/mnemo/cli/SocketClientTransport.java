package dev.mnemo.cli;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The MCP SDK's client talking to an in-process {@link McpMemoryServer} over a loopback socket, in
 * the stdio transport's framing (one JSON-RPC message per line): {@code mnemo mcp} as a client
 * meets it, without a child process. {@link #serverSide()} is the socket the server's transport
 * reads and writes.
 */
final class SocketClientTransport implements McpClientTransport {

    private final McpJsonMapper mapper;
    private final Socket client;
    private final Socket server;
    private final OutputStream out;

    SocketClientTransport(McpJsonMapper mapper) throws IOException {
        this.mapper = mapper;
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            this.client = new Socket(InetAddress.getLoopbackAddress(), listener.getLocalPort());
            this.server = listener.accept();
        }
        this.out = client.getOutputStream();
    }

    /** The server's end. */
    Socket serverSide() {
        return server;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        Thread reader = new Thread(() -> read(handler), "mcp-test-client-reader");
        reader.setDaemon(true);
        reader.start();
        return Mono.empty();
    }

    private void read(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(client.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                handler.apply(Mono.just(McpSchema.deserializeJsonRpcMessage(mapper, line))).subscribe();
            }
        } catch (IOException closed) {
            // the test closed the client
        }
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return Mono.fromRunnable(() -> {
            try {
                synchronized (out) {
                    out.write((mapper.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(() -> {
            try {
                client.close();
                server.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return mapper.convertValue(data, typeRef);
    }
}
