package dev.mnemo.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import dev.mnemo.ConversationBusyException;
import dev.mnemo.llm.ToolSpec;
import java.util.List;
import java.util.UUID;

/**
 * The memory tools of the conversation an AiServices call belongs to. Each executor runs the call
 * through {@code MemorySession.callTool} of the call's conversation, so the call and its output are
 * recorded in that conversation's rollout.
 *
 * <p>LangChain4j asks for the tools once per call, on the calling thread, before the first model
 * request: where a call that must not run is refused with an exception the caller sees (the
 * listeners cannot throw). The provider {@code configure} sets also refuses calls that did not come
 * through the service proxy {@code configure}'s builder builds.
 */
final class MemoryToolProvider implements ToolProvider {

    private final Exchanges exchanges;
    private final boolean requireProxy;
    private final ToolExecutor executor = new Executor();

    MemoryToolProvider(Exchanges exchanges, boolean requireProxy) {
        this.exchanges = exchanges;
        this.requireProxy = requireProxy;
    }

    @Override
    public ToolProviderResult provideTools(ToolProviderRequest request) {
        InvocationContext call = request.invocationContext();
        UUID invocationId = call == null ? null : call.invocationId();
        String conversationId = MemoryIds.conversationId(request.chatMemoryId());
        if (requireProxy && exchanges.ofInvocation(call).or(() -> exchanges.runningHere(conversationId))
                .map(Exchange::owner).orElse(null) != Exchange.Owner.PROXY) {
            throw new IllegalStateException("this AI service was set up with MnemoLangChain4j.configure(..) but"
                    + " built from another builder: build it from the AiServices that configure(..) returns, whose"
                    + " build() claims each conversation for one call at a time and keeps citation markup out of"
                    + " streamed answers");
        }
        List<ToolSpec> specs = exchanges.withExchange(call, request.chatMemoryId(), false, exchange -> {
            if (!exchange.belongsTo(invocationId)) {
                throw new ConversationBusyException(exchange.conversationId());
            }
            return exchange.toolSpecs();
        });
        ToolProviderResult.Builder tools = ToolProviderResult.builder();
        for (ToolSpec spec : specs) {
            tools.add(specification(spec), executor);
        }
        return tools.build();
    }

    /** A Mnemo tool spec as LangChain4j's; its strictness is left to the model's setting. */
    static ToolSpecification specification(ToolSpec spec) {
        return ToolSpecification.builder()
                .name(spec.name())
                .description(spec.description())
                .parameters(JsonSchemas.object("tool " + spec.name(), spec.parametersJsonSchema()))
                .build();
    }

    /** Runs a memory tool call in the conversation LangChain4j names at execution time. */
    private final class Executor implements ToolExecutor {

        @Override
        public String execute(ToolExecutionRequest request, Object memoryId) {
            // Some providers send no call id; the rollout still pairs the call with its output.
            String callId = request.id() == null || request.id().isBlank() ? "call_" + UUID.randomUUID() : request.id();
            String arguments = request.arguments() == null ? "{}" : request.arguments();
            return exchanges.withExchange(null, memoryId, false,
                    exchange -> exchange.callTool(callId, request.name(), arguments));
        }

        /**
         * LangChain4j 1.19 hands the invocation too: the call then runs in the exchange bound to it,
         * on whatever thread (tools executed concurrently run on an executor's).
         */
        @Override
        public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext call) {
            Exchange own = exchanges.ofInvocation(call).orElse(null);
            if (own == null) {
                return ToolExecutor.super.executeWithContext(request, call);
            }
            try (Exchanges.Scope here = exchanges.enter(own)) {
                return ToolExecutor.super.executeWithContext(request, call);
            }
        }
    }
}
