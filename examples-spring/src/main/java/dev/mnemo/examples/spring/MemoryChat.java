package dev.mnemo.examples.spring;

import dev.mnemo.springai.MnemoAdvisor;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Flux;

/**
 * A chat with long-term memory. The one line of Mnemo here adds the starter's {@code MnemoAdvisor}
 * to this client, as any Spring AI advisor is added: every answer sees the memory summary, may
 * call the memory tools, comes back without citation markup, and the conversation is recorded for
 * the background pipeline to learn from. Other clients of the application (a classifier, a
 * summariser) pay nothing for memory.
 */
@Service
public class MemoryChat {

    private final ChatClient chat;

    public MemoryChat(ChatClient.Builder builder, MnemoAdvisor memory) {
        this.chat = builder.defaultSystem("You are a concise assistant for this project.")
                .defaultAdvisors(memory)                        // this client remembers
                .build();
    }

    /** The answer to one question in a conversation. */
    public String ask(String conversationId, String question) {
        return chat.prompt().user(question)
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversationId))   // the memory's thread
                .call().content();                               // citations stripped, turn recorded
    }

    /** The same answer as it is written, chunk by chunk. */
    public Flux<String> stream(String conversationId, String question) {
        return chat.prompt().user(question)
                .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, conversationId))
                .stream().content();
    }
}
