package dev.mnemo.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.guardrail.GuardrailRequestParams;
import dev.langchain4j.guardrail.OutputGuardrail;
import dev.langchain4j.guardrail.OutputGuardrailRequest;
import dev.langchain4j.guardrail.OutputGuardrailResult;
import dev.langchain4j.invocation.InvocationContext;
import dev.mnemo.AssistantMessage;
import dev.mnemo.Citations;
import java.util.Optional;

/**
 * Rewrites the model's final answer to its visible text through
 * {@code MemorySession.assistantMessage}, which strips the citation markup, records the visible
 * text and counts the cited memories. The answer kept in the application's {@code ChatMemory}
 * stays as the model wrote it, as Codex keeps it in its history.
 */
final class CitationGuardrail implements OutputGuardrail {

    private final Exchanges exchanges;

    CitationGuardrail(Exchanges exchanges) {
        this.exchanges = exchanges;
    }

    @Override
    public OutputGuardrailResult validate(OutputGuardrailRequest request) {
        InvocationContext invocation = invocation(request);
        AiMessage answer = request.responseFromLLM().aiMessage();
        if (answer.text() == null) {
            return success();
        }
        String raw = answer.text();
        Optional<String> visible = exchanges.withExchange(invocation, invocation.chatMemoryId(), false, exchange -> {
            if (exchange.streamed()) {
                return Optional.empty(); // the visible token stream takes this answer
            }
            if (!exchange.belongsTo(invocation.invocationId())) {
                return Optional.of(Citations.strip(raw).visibleText()); // another call's: shown clean, recorded by none
            }
            exchange.takeAnswer();
            return Optional.of(exchange.assistantMessage(raw).map(AssistantMessage::visibleText)
                    .orElseGet(() -> Citations.strip(raw).visibleText()));
        });
        return visible.filter(text -> !text.equals(raw)).map(this::successWith).orElseGet(this::success);
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
