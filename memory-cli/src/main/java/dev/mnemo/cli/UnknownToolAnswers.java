package dev.mnemo.cli;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The transport provider the SDK's server talks through, around the real one (whichever that is):
 * it passes every message on unchanged but one. The SDK answers a {@code tools/call} of a tool it
 * does not serve with a JSON-RPC error whose text, {@code Unknown tool: invalid_tool_name}, reads
 * as if the name were malformed, and offers no hook to answer otherwise; a model then guesses. That
 * answer is replaced, on its way out, by a tool result marked {@code isError} that names the tools
 * there are ({@code unknownTool} words it). It also runs {@code onClose} when the server closes.
 */
final class UnknownToolAnswers implements McpServerTransportProvider {

    /** What the SDK's {@code tools/call} handler answers for a tool name it has no tool for. */
    static final String SDK_UNKNOWN_TOOL = "Unknown tool: invalid_tool_name";
    private static final String SDK_UNKNOWN_TOOL_DATA = "Tool not found: ";

    private final McpServerTransportProvider delegate;
    private final Function<String, CallToolResult> unknownTool;
    private final Runnable onClose;

    /**
     * @param delegate the transport the messages go through
     * @param unknownTool the answer for a call of the named tool, which the server does not serve
     * @param onClose run once the server closes the transport
     */
    UnknownToolAnswers(McpServerTransportProvider delegate, Function<String, CallToolResult> unknownTool,
            Runnable onClose) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.unknownTool = Objects.requireNonNull(unknownTool, "unknownTool");
        this.onClose = Objects.requireNonNull(onClose, "onClose");
    }

    @Override
    public void setSessionFactory(McpServerSession.Factory sessionFactory) {
        delegate.setSessionFactory(transport -> sessionFactory.create(new Answering(transport)));
    }

    @Override
    public Mono<Void> notifyClients(String method, Object params) {
        return delegate.notifyClients(method, params);
    }

    @Override
    public Mono<Void> notifyClient(String sessionId, String method, Object params) {
        return delegate.notifyClient(sessionId, method, params);
    }

    @Override
    public void close() {
        try {
            delegate.close();
        } finally {
            onClose.run();
        }
    }

    @Override
    public Mono<Void> closeGracefully() {
        return delegate.closeGracefully().doFinally(signal -> onClose.run());
    }

    @Override
    public List<String> protocolVersions() {
        return delegate.protocolVersions();
    }

    /** The answer to send instead of {@code message}: itself, unless it is the SDK's unknown-tool error. */
    McpSchema.JSONRPCMessage rewrite(McpSchema.JSONRPCMessage message) {
        if (message instanceof JSONRPCResponse response && response.error() != null
                && Objects.equals(response.error().code(), McpSchema.ErrorCodes.INVALID_PARAMS)
                && SDK_UNKNOWN_TOOL.equals(response.error().message())
                && response.error().data() instanceof String data && data.startsWith(SDK_UNKNOWN_TOOL_DATA)) {
            return JSONRPCResponse.result(response.id(), unknownTool.apply(data.substring(SDK_UNKNOWN_TOOL_DATA.length())));
        }
        return message;
    }

    /** One session's transport, answering unknown tools as a tool error. */
    private final class Answering implements McpServerTransport {
        private final McpServerTransport transport;

        Answering(McpServerTransport transport) {
            this.transport = transport;
        }

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return transport.sendMessage(rewrite(message));
        }

        @Override
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return transport.unmarshalFrom(data, typeRef);
        }

        @Override
        public Mono<Void> closeGracefully() {
            return transport.closeGracefully();
        }

        @Override
        public void close() {
            transport.close();
        }

        @Override
        public List<String> protocolVersions() {
            return transport.protocolVersions();
        }
    }
}
