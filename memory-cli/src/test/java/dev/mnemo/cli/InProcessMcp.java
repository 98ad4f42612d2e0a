package dev.mnemo.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * An in-process {@link McpMemoryServer} behind the {@link StdioGuard} as {@code mnemo mcp} runs it,
 * and the MCP SDK's own client connected to it over a loopback socket ({@link SocketClientTransport}),
 * initialized. Closing closes both.
 */
final class InProcessMcp implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();
    static final McpJsonMapper MAPPER = new JacksonMcpJsonMapper(JSON);

    final McpSyncServer server;
    final McpSyncClient client;

    private InProcessMcp(McpSyncServer server, McpSyncClient client) {
        this.server = server;
        this.client = client;
    }

    /** Starts {@code memory} and connects a client that {@code client} configures (its roots, its consumers). */
    static InProcessMcp start(McpMemoryServer memory, UnaryOperator<McpClient.SyncSpec> client) throws IOException {
        SocketClientTransport transport = new SocketClientTransport(MAPPER);
        StdioGuard stdio = new StdioGuard(transport.serverSide().getInputStream(),
                transport.serverSide().getOutputStream(), MAPPER, JSON);
        McpSyncServer server = memory.start(new StdioTransport(MAPPER, stdio.input(), stdio.output()));
        McpSyncClient connected = client.apply(McpClient.sync(transport).requestTimeout(Duration.ofSeconds(30))
                .clientInfo(new McpSchema.Implementation("in-process-client", "1"))).build();
        connected.initialize();
        return new InProcessMcp(server, connected);
    }

    @Override
    public void close() {
        client.closeGracefully();
        server.close();
    }
}
