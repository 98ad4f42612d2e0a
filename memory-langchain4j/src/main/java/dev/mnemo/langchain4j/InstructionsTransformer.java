package dev.mnemo.langchain4j;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Adds the conversation's memory instructions to the system message of one outgoing request. The
 * request is rebuilt; the messages the application's {@code ChatMemory} holds are not touched. The
 * instructions are the tool audience's ({@code MemorySession.developerInstructions()}): they name
 * the memory tools and paths inside the memory folder, never a path on this machine, whatever
 * {@code dedicated_tools} says.
 *
 * <p>LangChain4j hands it only the memory id. It finds the exchange of this call on its thread: the
 * one running there (the service proxy's call, a visible stream's start) or the one a listener event
 * of this call announced just before; only a transformer used without either resolves the tenant
 * itself. Never the exchange of another tenant that picked the same memory id.
 */
final class InstructionsTransformer implements BiFunction<ChatRequest, Object, ChatRequest> {

    private final Exchanges exchanges;

    InstructionsTransformer(Exchanges exchanges) {
        this.exchanges = exchanges;
    }

    @Override
    public ChatRequest apply(ChatRequest request, Object memoryId) {
        String instructions = exchanges.withExchange(null, memoryId, true, Exchange::instructions);
        if (instructions.isEmpty()) {
            return request;
        }
        List<ChatMessage> messages = new ArrayList<>(request.messages());
        int system = firstSystemMessage(messages);
        if (system < 0) {
            messages.add(0, SystemMessage.from(instructions));
        } else {
            String text = ((SystemMessage) messages.get(system)).text();
            messages.set(system, SystemMessage.from(text + "\n\n" + instructions));
        }
        return request.toBuilder().messages(messages).build();
    }

    private static int firstSystemMessage(List<ChatMessage> messages) {
        for (int i = 0; i < messages.size(); i++) {
            if (messages.get(i) instanceof SystemMessage) {
                return i;
            }
        }
        return -1;
    }
}
