package dev.mnemo.examples;

import dev.mnemo.AssistantMessage;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemorySession;
import dev.mnemo.SessionContext;
import dev.mnemo.StartupTask;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.llm.openai.OpenAiLanguageModel;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A minimal agent with long-term memory, through one {@link MemorySession} per conversation:
 * opening it records the conversation and starts the background memory pipeline; each turn gives
 * the model the session's memory instructions and tools, runs its tool calls through the session
 * (recorded), and hands the answer back to the session, which strips the citation markup and
 * counts the cited memories as used.
 *
 * <p>Run it with a real model: {@code MNEMO_MODEL=gpt-4.1-mini OPENAI_API_KEY=... java ...
 * dev.mnemo.examples.QuickstartAgent}. Without {@code MNEMO_MODEL}, {@link #main} prints what to set.
 */
public final class QuickstartAgent implements AutoCloseable {

    /** The agent's own instructions; the memory instructions are appended. */
    static final String BASE_INSTRUCTIONS = "You are a helpful coding assistant.";
    /** Model calls per user turn, tool calls included. */
    static final int MAX_STEPS = 8;

    private final LanguageModel model;
    private final MemorySession session;
    private final List<ModelMessage> conversation = new ArrayList<>();

    /** Starts a conversation: records it and kicks off the background memory pipeline. */
    public QuickstartAgent(MemoryEngine memory, LanguageModel model, String conversationId) {
        this.model = Objects.requireNonNull(model, "model");
        this.session = memory.openSession(SessionContext.root(conversationId)); // returns at once
    }

    /** The background pipeline run this conversation started. */
    public StartupTask startup() {
        return session.startupTask();
    }

    /** The memory part of the model's instructions as this conversation gives it now. */
    public String memoryInstructions() {
        return session.developerInstructions();
    }

    /** One user turn: the model may call the memory tools before it answers. */
    public AssistantMessage ask(String userText) {
        session.userMessage(userText);
        conversation.add(ModelMessage.user(userText));
        String instructions = BASE_INSTRUCTIONS + "\n\n" + session.developerInstructions();
        for (int step = 0; step < MAX_STEPS; step++) {
            ModelResponse response = model.respond(ModelRequest.builder()
                    .instructions(instructions)
                    .messages(conversation)
                    .tools(session.toolSpecs())
                    .build());
            if (response.toolCalls().isEmpty()) {
                AssistantMessage answer = session.assistantMessage(response.text()); // recorded, citations counted
                conversation.add(ModelMessage.assistant(answer.visibleText()));
                return answer;
            }
            conversation.add(ModelMessage.assistant(response.text(), response.toolCalls()));
            for (ToolCall call : response.toolCalls()) {
                String output = session.callTool(call.id(), call.name(), call.argumentsJson()); // recorded
                conversation.add(ModelMessage.tool(call.id(), output));
            }
        }
        throw new IllegalStateException("the model kept calling tools for " + MAX_STEPS + " steps without answering");
    }

    @Override
    public void close() {
        session.close();
    }

    /** Chats on standard input with the model named by the environment; memory lives in ~/.mnemo. */
    public static void main(String[] args) throws Exception {
        if (System.getenv("MNEMO_MODEL") == null) {
            System.out.println("""
                    QuickstartAgent needs a model. Set:
                      MNEMO_MODEL       the model name, e.g. gpt-4.1-mini (or llama3.1 on Ollama)
                      OPENAI_API_KEY    your key (needed for https://api.openai.com)
                      OPENAI_BASE_URL   another OpenAI-compatible server, e.g. http://localhost:11434/v1
                      MNEMO_MODEL_API   chat (default) or responses
                      MNEMO_CONTEXT_WINDOW  the model's context window in tokens (set it for local models)
                    Memory lives in $MNEMO_HOME, else ~/.mnemo. For an offline run see OfflineWalkthrough.""");
            return;
        }
        LanguageModel model = OpenAiLanguageModel.fromEnvironment();
        try (MemoryEngine memory = MemoryEngine.builder().model(model).build();
                QuickstartAgent agent = new QuickstartAgent(memory, model, UUID.randomUUID().toString())) {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            System.out.print("you> ");
            for (String line = in.readLine(); line != null && !line.isBlank(); line = in.readLine()) {
                System.out.println("agent> " + agent.ask(line).visibleText());
                System.out.print("you> ");
            }
        }
    }
}
