package dev.mnemo.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.observability.api.event.AiServiceCompletedEvent;
import dev.langchain4j.observability.api.event.AiServiceErrorEvent;
import dev.langchain4j.observability.api.event.AiServiceStartedEvent;
import dev.langchain4j.observability.api.listener.AiServiceCompletedListener;
import dev.langchain4j.observability.api.listener.AiServiceErrorListener;
import dev.langchain4j.observability.api.listener.AiServiceListener;
import dev.langchain4j.observability.api.listener.AiServiceStartedListener;
import dev.langchain4j.service.Result;
import java.util.List;
import java.util.Optional;

/**
 * Records each AiServices call as a turn of its conversation: the user's message when the call
 * starts (resolving the conversation opens it and starts its startup task the first time), the
 * visible answer when it completes unless the guardrail or a visible token stream took it.
 */
final class TurnListeners {

    private final Conversations conversations;
    private final Turns turns;

    TurnListeners(Conversations conversations, Turns turns) {
        this.conversations = conversations;
        this.turns = turns;
    }

    List<AiServiceListener<?>> all() {
        AiServiceStartedListener started = this::started;
        AiServiceCompletedListener completed = this::completed;
        AiServiceErrorListener failed = event -> turns.takeAnsweredByGuardrail(event.invocationContext().invocationId());
        return List.of(started, completed, failed);
    }

    private void started(AiServiceStartedEvent event) {
        conversations.of(event.invocationContext().chatMemoryId()).userMessage(text(event.userMessage()));
    }

    private void completed(AiServiceCompletedEvent event) {
        Object memoryId = event.invocationContext().chatMemoryId();
        if (turns.takeAnsweredByGuardrail(event.invocationContext().invocationId())
                || turns.visibleStreamRunning(memoryId)) {
            return;
        }
        answerText(event.result()).ifPresent(text -> conversations.of(memoryId).assistantMessage(text));
    }

    /** The text of the answer, for results that carry one (not for a structured object or void). */
    static Optional<String> answerText(Optional<Object> result) {
        Object value = result.orElse(null);
        if (value instanceof Result<?> r) {
            value = r.content() instanceof String ? r.content() : r.finalResponse();
        }
        if (value instanceof ChatResponse response) {
            value = response.aiMessage();
        }
        if (value instanceof AiMessage message) {
            value = message.text();
        }
        return value instanceof String text ? Optional.of(text) : Optional.empty();
    }

    private static String text(UserMessage message) {
        if (message == null) {
            return "";
        }
        if (message.hasSingleText()) {
            return message.singleText();
        }
        StringBuilder text = new StringBuilder();
        for (Content content : message.contents()) {
            if (content instanceof TextContent part) {
                text.append(text.length() == 0 ? "" : "\n").append(part.text());
            }
        }
        return text.toString();
    }
}
