package dev.mnemo.langchain4j;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import dev.mnemo.llm.ToolSpec;
import java.util.UUID;

/**
 * The memory tools of the conversation an AiServices call belongs to. Each executor runs the call
 * through {@code MemorySession.callTool} of the conversation LangChain4j names at execution time,
 * so the call and its output are recorded in that conversation's rollout.
 */
final class MemoryToolProvider implements ToolProvider {

    private final Conversations conversations;
    private final ToolExecutor executor;

    MemoryToolProvider(Conversations conversations) {
        this.conversations = conversations;
        this.executor = this::execute;
    }

    @Override
    public ToolProviderResult provideTools(ToolProviderRequest request) {
        ToolProviderResult.Builder tools = ToolProviderResult.builder();
        for (ToolSpec spec : conversations.of(request.chatMemoryId()).toolSpecs()) {
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

    private String execute(ToolExecutionRequest request, Object memoryId) {
        // Some providers send no call id; the rollout still pairs the call with its output.
        String callId = request.id() == null || request.id().isBlank() ? "call_" + UUID.randomUUID() : request.id();
        String arguments = request.arguments() == null ? "{}" : request.arguments();
        return conversations.of(memoryId).callTool(callId, request.name(), arguments);
    }
}
