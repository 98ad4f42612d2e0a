package dev.mnemo.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.guardrail.GuardrailRequestParams;
import dev.langchain4j.guardrail.OutputGuardrail;
import dev.langchain4j.guardrail.OutputGuardrailRequest;
import dev.langchain4j.guardrail.OutputGuardrailResult;
import dev.langchain4j.invocation.InvocationContext;
import dev.mnemo.AssistantMessage;

/**
 * Rewrites the model's final answer to its visible text through
 * {@code MemorySession.assistantMessage}, which strips the citation markup, records the visible
 * text and counts the cited memories. The answer kept in the application's {@code ChatMemory}
 * stays as the model wrote it, as Codex keeps it in its history.
 */
final class CitationGuardrail implements OutputGuardrail {

    private final Conversations conversations;
    private final Turns turns;

    CitationGuardrail(Conversations conversations, Turns turns) {
        this.conversations = conversations;
        this.turns = turns;
    }

    @Override
    public OutputGuardrailResult validate(OutputGuardrailRequest request) {
        InvocationContext invocation = invocation(request);
        Object memoryId = invocation.chatMemoryId();
        AiMessage answer = request.responseFromLLM().aiMessage();
        if (answer.text() == null || turns.visibleStreamRunning(memoryId)) {
            return success(); // nothing to show, or the visible token stream takes this answer
        }
        AssistantMessage shown = conversations.of(memoryId).assistantMessage(answer.text());
        turns.answeredByGuardrail(invocation.invocationId());
        return shown.visibleText().equals(answer.text()) ? success() : successWith(shown.visibleText());
    }

    private static InvocationContext invocation(OutputGuardrailRequest request) {
        GuardrailRequestParams params = request.requestParams();
        if (params == null || params.invocationContext() == null) {
            throw new IllegalStateException("the citation guardrail needs the AiServices invocation context to know"
                    + " the conversation; use it as an AiServices output guardrail");
        }
        return params.invocationContext();
    }
}
