package dev.mnemo.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.observability.api.event.AiServiceCompletedEvent;
import dev.langchain4j.observability.api.event.AiServiceErrorEvent;
import dev.langchain4j.observability.api.event.AiServiceResponseReceivedEvent;
import dev.langchain4j.observability.api.event.AiServiceStartedEvent;
import dev.langchain4j.observability.api.listener.AiServiceCompletedListener;
import dev.langchain4j.observability.api.listener.AiServiceErrorListener;
import dev.langchain4j.observability.api.listener.AiServiceListener;
import dev.langchain4j.observability.api.listener.AiServiceResponseReceivedListener;
import dev.langchain4j.observability.api.listener.AiServiceStartedListener;
import dev.langchain4j.service.Result;
import dev.mnemo.ConversationBusyException;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records each AiServices call as one exchange of its conversation: the user's message when the
 * call starts, the visible answer when it completes unless the guardrail or a visible token stream
 * took it. Without {@code configure}'s service proxy, the started listener claims the conversation
 * itself and the completed or error listener releases it. LangChain4j catches what a listener
 * throws, so a call these listeners cannot claim (its conversation is busy, its memory id names no
 * conversation) is logged and records nothing; the tool provider, when set, refuses it outright.
 */
final class TurnListeners {

    private static final Logger LOG = LoggerFactory.getLogger(TurnListeners.class);

    private final Exchanges exchanges;
    private final boolean claims;

    /**
     * @param claims whether a call no service proxy claimed is claimed here; {@code configure}'s
     *     listeners do not, so a service built around its proxy records nothing before its tool
     *     provider refuses the call
     */
    TurnListeners(Exchanges exchanges, boolean claims) {
        this.exchanges = exchanges;
        this.claims = claims;
    }

    List<AiServiceListener<?>> all() {
        AiServiceStartedListener started = this::started;
        AiServiceCompletedListener completed = this::completed;
        AiServiceErrorListener failed = this::failed;
        AiServiceResponseReceivedListener responded = this::responded;
        return List.of(started, responded, completed, failed);
    }

    private void started(AiServiceStartedEvent event) {
        InvocationContext call = event.invocationContext();
        Exchange exchange;
        try {
            String conversationId = MemoryIds.conversationId(call.chatMemoryId());
            exchange = exchanges.ofInvocation(call).or(() -> exchanges.runningHere(conversationId)).orElse(null);
            if (exchange == null && !claims) {
                return; // not through configure's service: its tool provider refuses the call
            }
            if (exchange == null) {
                exchange = exchanges.begin(call.chatMemoryId(), Exchange.Owner.LISTENER);
            }
        } catch (ConversationBusyException | IllegalArgumentException e) {
            LOG.warn("{}: nothing of call {} of {}.{} is recorded", e.getMessage(), call.invocationId(),
                    call.interfaceName(), call.methodName());
            return;
        }
        if (!exchanges.bind(exchange, call.invocationId())) {
            LOG.warn("conversation '{}' is still answering another call: nothing of call {} is recorded",
                    exchange.conversationId(), call.invocationId());
            return;
        }
        // Not announced here: a stream's call returns before its first request, so an announcement could
        // outlive the call on this thread. The first request finds the exchange by the tenant resolved again.
        exchange.userMessage(text(event.userMessage()));
    }

    /**
     * A model response of the call arrived: the follow-up request of its tool loop, if any, is
     * transformed next on this thread (for a stream, the HTTP client's), so announce the call's
     * exchange there.
     */
    private void responded(AiServiceResponseReceivedEvent event) {
        exchanges.ofInvocation(event.invocationContext()).ifPresent(exchanges::announce);
    }

    private void completed(AiServiceCompletedEvent event) {
        ownExchange(event.invocationContext()).ifPresent(exchange -> {
            if (exchange.streamed()) {
                return; // the visible token stream records the answer and ends the exchange
            }
            try {
                if (exchange.takeAnswer()) {
                    answerText(event.result()).ifPresent(exchange::assistantMessage);
                }
            } finally {
                exchanges.withdraw(exchange);
                if (exchange.owner() == Exchange.Owner.LISTENER) {
                    exchange.end();
                }
            }
        });
    }

    private void failed(AiServiceErrorEvent event) {
        ownExchange(event.invocationContext()).ifPresent(exchange -> {
            exchanges.withdraw(exchange);
            if (!exchange.streamed() && exchange.owner() == Exchange.Owner.LISTENER) {
                exchange.end();
            }
        });
    }

    /** The exchange the started listener bound to this call; none when it could not claim one (logged there). */
    private Optional<Exchange> ownExchange(InvocationContext call) {
        return exchanges.ofInvocation(call);
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
