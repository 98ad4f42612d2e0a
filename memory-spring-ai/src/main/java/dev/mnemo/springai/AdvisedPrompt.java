package dev.mnemo.springai;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;

/**
 * The edits {@link MnemoAdvisor} makes to a Spring AI {@link Prompt}, and the one thing it reads
 * from it: the memory instructions appended to the system message, the memory tools added to the
 * tool callbacks, and the text of the last user message. Pure translation between core's strings
 * and tools and Spring AI's prompt types; what the instructions and tools are is core's.
 */
final class AdvisedPrompt {

    private AdvisedPrompt() {}

    /** The instructions appended to the system message (one is added when there is none). */
    static Prompt withInstructions(Prompt prompt, String instructions) {
        if (instructions.isEmpty()) {
            return prompt;
        }
        return prompt.augmentSystemMessage(system -> system.mutate()
                .text(system.getText() == null || system.getText().isEmpty() ? instructions
                        : system.getText() + "\n\n" + instructions)
                .build());
    }

    /** The memory tools added to the request's callbacks; a callback of the same name is replaced. */
    static ChatOptions withMemoryTools(ToolCallingChatOptions options, MnemoToolCallbackProvider memory) {
        Set<String> names = memory.toolCallbacks().stream().map(c -> c.getToolDefinition().name())
                .collect(Collectors.toSet());
        List<ToolCallback> callbacks = new ArrayList<>();
        if (options.getToolCallbacks() != null) {
            options.getToolCallbacks().stream().filter(c -> !names.contains(c.getToolDefinition().name()))
                    .forEach(callbacks::add);
        }
        callbacks.addAll(memory.toolCallbacks());
        return options.mutate().toolCallbacks(callbacks).build();
    }

    /** The text of the prompt's last message when it is the user's. */
    static Optional<String> lastUserText(Prompt prompt) {
        List<org.springframework.ai.chat.messages.Message> messages = prompt.getInstructions();
        if (messages.isEmpty() || !(messages.get(messages.size() - 1) instanceof UserMessage user)) {
            return Optional.empty();
        }
        return Optional.ofNullable(user.getText()).filter(text -> !text.isEmpty());
    }
}
