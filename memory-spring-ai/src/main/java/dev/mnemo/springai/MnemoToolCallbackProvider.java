package dev.mnemo.springai;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemorySession;
import dev.mnemo.MemoryTools;
import java.util.List;
import java.util.Objects;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;

/**
 * Mnemo's memory tools ({@code memories_list}, {@code memories_read}, {@code memories_search},
 * {@code memories_add_ad_hoc_note}) as Spring AI {@link ToolCallback}s, for applications that wire
 * tools themselves instead of using {@link MnemoAdvisor} (which adds them per request on its own).
 *
 * <pre>{@code
 * chatClient.prompt().user(question)
 *         .toolCallbacks(MnemoToolCallbackProvider.forSession(memory.conversation(conversationId)))
 *         .call().content();
 * }</pre>
 *
 * <p>{@link #forSession} records each call and its output in that conversation's rollout;
 * {@link #of} runs the tools without recording anything. Results are the tools' JSON, or a JSON
 * error the model can read; bad arguments never throw.
 */
public final class MnemoToolCallbackProvider implements ToolCallbackProvider {

    private final List<ToolCallback> callbacks;

    private MnemoToolCallbackProvider(List<ToolCallback> callbacks) {
        this.callbacks = List.copyOf(callbacks);
    }

    /**
     * The tools of {@code engine}, run without recording.
     *
     * @param engine the engine whose tools to offer; not null
     * @return a provider of the engine's memory tools
     */
    public static MnemoToolCallbackProvider of(MemoryEngine engine) {
        return of(Objects.requireNonNull(engine, "engine").tools());
    }

    /**
     * {@code tools}, run without recording: for instance the tools of a project,
     * {@code of(engine.tools().inProject(projectKey))}.
     *
     * @param tools the memory tools to offer; not null
     * @return a provider of those tools
     */
    public static MnemoToolCallbackProvider of(MemoryTools tools) {
        Objects.requireNonNull(tools, "tools");
        return new MnemoToolCallbackProvider(tools.specs().stream()
                .map(spec -> (ToolCallback) new MemoryToolCallback(spec,
                        (callId, arguments) -> tools.call(spec.name(), arguments)))
                .toList());
    }

    /**
     * The tools of one conversation: each call and its output are recorded in its rollout.
     *
     * @param session the open conversation whose rollout records each call; not null
     * @return a provider of the session's memory tools
     */
    public static MnemoToolCallbackProvider forSession(MemorySession session) {
        Objects.requireNonNull(session, "session");
        return new MnemoToolCallbackProvider(session.toolSpecs().stream()
                .map(spec -> (ToolCallback) new MemoryToolCallback(spec,
                        (callId, arguments) -> session.callTool(callId, spec.name(), arguments)))
                .toList());
    }

    @Override
    public ToolCallback[] getToolCallbacks() {
        return callbacks.toArray(ToolCallback[]::new);
    }

    /**
     * The callbacks as a list.
     *
     * @return the tool callbacks, unmodifiable, in the tools' order
     */
    public List<ToolCallback> toolCallbacks() {
        return callbacks;
    }
}
