package dev.mnemo.eval;

import dev.mnemo.AssistantMessage;
import dev.mnemo.MemorySession;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.llm.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** How a probe is put to the answering model: one question, then its tool calls until it answers. */
final class Answering {

    /** The answering agent's own instructions; memory or transcripts are appended. */
    static final String BASE_INSTRUCTIONS = EvalPrompts.load("probe_answer_system.md");
    static final int MAX_STEPS = 8;

    private static final Logger LOG = LoggerFactory.getLogger(Answering.class);

    /** An answer, and what it cost. */
    record Answer(String text, TokenUsage usage) {}

    private final LanguageModel model;
    private final String scenarioId;

    Answering(LanguageModel model, String scenarioId) {
        this.model = model;
        this.scenarioId = scenarioId;
    }

    /**
     * With memory: the session's memory instructions after {@code instructions}, its memory tools,
     * and the answer as the user sees it (citation markup stripped, cited memories counted).
     */
    Answer withMemory(MemorySession session, String instructions, String question) {
        Answer raw = toolLoop(instructions + "\n\n" + session.developerInstructions(), session.toolSpecs(), question,
                call -> session.callTool(call.id(), call.name(), call.argumentsJson()));
        AssistantMessage shown = session.assistantMessage(raw.text());
        return new Answer(shown.visibleText(), raw.usage());
    }

    /** Without memory tools: whatever {@code instructions} hold is all the model has. */
    Answer without(String instructions, String question) {
        return toolLoop(instructions, List.of(), question, null);
    }

    private Answer toolLoop(String instructions, List<ToolSpec> tools, String question,
            Function<ToolCall, String> runTool) {
        List<ModelMessage> messages = new ArrayList<>(List.of(ModelMessage.user(question)));
        TokenUsage usage = TokenUsage.ZERO;
        for (int step = 0; step < MAX_STEPS; step++) {
            ModelResponse response = model.respond(ModelRequest.builder().instructions(instructions).messages(messages)
                    .tools(tools).build());
            usage = usage.plus(response.usage());
            if (response.toolCalls().isEmpty() || runTool == null) {
                return new Answer(response.text(), usage);
            }
            messages.add(ModelMessage.assistant(response.text(), response.toolCalls()));
            for (ToolCall call : response.toolCalls()) {
                messages.add(ModelMessage.tool(call.id(), runTool.apply(call)));
            }
        }
        LOG.warn("eval: {} kept calling tools for {} steps; graded as no answer", scenarioId, MAX_STEPS);
        return new Answer("", usage);
    }
}
