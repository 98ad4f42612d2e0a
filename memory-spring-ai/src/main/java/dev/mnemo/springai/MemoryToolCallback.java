package dev.mnemo.springai;

import dev.mnemo.llm.ToolSpec;
import java.util.UUID;
import java.util.function.BiFunction;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * One Mnemo tool as a Spring AI {@link ToolCallback}: the definition is the {@link ToolSpec}'s
 * name, description and JSON schema; a call goes to {@code invoker} with a call id.
 *
 * <p>Spring AI's tool loop does not hand a callback the model's id for the call, so each call gets
 * an id of its own ({@code call_mnemo_<random>}), unique within a rollout, which pairs the recorded
 * call with its recorded output.
 */
final class MemoryToolCallback implements ToolCallback {

    private final ToolDefinition definition;
    private final BiFunction<String, String, String> invoker;

    /** @param invoker takes the call id and the JSON arguments, returns the tool's JSON result */
    MemoryToolCallback(ToolSpec spec, BiFunction<String, String, String> invoker) {
        this.definition = ToolDefinition.builder().name(spec.name()).description(spec.description())
                .inputSchema(spec.parametersJsonSchema()).build();
        this.invoker = invoker;
    }

    @Override
    public ToolDefinition getToolDefinition() {
        return definition;
    }

    @Override
    public String call(String toolInput) {
        String arguments = toolInput == null || toolInput.isBlank() ? "{}" : toolInput;
        return invoker.apply(newCallId(), arguments);
    }

    /** The application's tool context carries nothing a memory tool needs; it is ignored. */
    @Override
    public String call(String toolInput, ToolContext toolContext) {
        return call(toolInput);
    }

    static String newCallId() {
        return "call_mnemo_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    @Override
    public String toString() {
        return "MemoryToolCallback[" + definition.name() + "]";
    }
}
