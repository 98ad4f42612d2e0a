package dev.mnemo.examples;

import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.mnemo.MemoryEngine;
import dev.mnemo.langchain4j.MnemoLangChain4j;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.UUID;

/**
 * A LangChain4j {@code AiServices} assistant with Mnemo's long-term memory: one
 * {@link MnemoLangChain4j#configure} call on the builder gives it the memory instructions, the
 * memory tools, citation stripping and a recorded rollout per conversation; the memory pipeline runs
 * on the same {@code ChatModel}. This is the code {@code docs/langchain4j.md} shows.
 *
 * <p>Run it with a real model: {@code MNEMO_MODEL=gpt-4.1-mini OPENAI_API_KEY=... java ...
 * dev.mnemo.examples.LangChain4jAssistant} ({@code OPENAI_BASE_URL} for any OpenAI-compatible
 * server), then type questions, one per line.
 */
public final class LangChain4jAssistant {

    /** The assistant; LangChain4j implements it. */
    public interface Assistant {
        @SystemMessage("You are a helpful coding assistant.")
        String chat(@MemoryId String conversationId, @UserMessage String text);
    }

    private LangChain4jAssistant() {}

    /** The assistant over {@code chatModel}, with the memory of {@code memory}. */
    public static Assistant create(MemoryEngine memory, ChatModel chatModel) {
        return MnemoLangChain4j.create(memory).configure(AiServices.builder(Assistant.class)
                        .chatModel(chatModel)
                        .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20)))
                .build();
    }

    /** Mnemo's pipeline runs on the assistant's own model. */
    public static MemoryEngine memory(ChatModel chatModel) {
        return MemoryEngine.builder().model(MnemoLangChain4j.languageModel(chatModel)).build(); // $MNEMO_HOME or ~/.mnemo
    }

    public static void main(String[] args) throws IOException {
        String model = System.getenv("MNEMO_MODEL");
        if (model == null || model.isBlank()) {
            System.out.println("Set MNEMO_MODEL (e.g. gpt-4.1-mini) and OPENAI_API_KEY; OPENAI_BASE_URL for another"
                    + " OpenAI-compatible server.");
            return;
        }
        ChatModel chatModel = OpenAiChatModel.builder()
                .baseUrl(Objects.requireNonNullElse(System.getenv("OPENAI_BASE_URL"), "https://api.openai.com/v1"))
                .apiKey(Objects.requireNonNullElse(System.getenv("OPENAI_API_KEY"), "none"))
                .modelName(model)
                .build();
        String conversationId = UUID.randomUUID().toString();
        try (MemoryEngine memory = memory(chatModel)) {
            Assistant assistant = create(memory, chatModel);
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (!line.isBlank()) {
                    System.out.println(assistant.chat(conversationId, line));
                }
            }
        }
    }
}
