package dev.mnemo.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.Result;
import dev.mnemo.MemoryReceipt;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The receipts of the answers one {@link MnemoLangChain4j} recorded: the newest of each
 * conversation, for {@link MnemoLangChain4j#lastReceipt}, and the receipt put on an answer's
 * {@link AiMessage} under {@link MnemoLangChain4j#RECEIPT}. At most {@link #KEPT} conversations are
 * kept, the least recently answered dropped first; a conversation ended through
 * {@code endConversation} is dropped at once. Thread-safe.
 */
final class Receipts {

    /** How many conversations' newest receipts are kept. */
    static final int KEPT = 1024;

    private final Map<ConversationKey, MemoryReceipt> newest = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<ConversationKey, MemoryReceipt> eldest) {
            return size() > KEPT;
        }
    };

    synchronized void put(ConversationKey key, MemoryReceipt receipt) {
        newest.put(key, receipt);
    }

    synchronized Optional<MemoryReceipt> newest(ConversationKey key) {
        return Optional.ofNullable(newest.get(key));
    }

    synchronized void forget(ConversationKey key) {
        newest.remove(key);
    }

    /** {@code answer} (a {@link Result}, {@link ChatResponse} or {@link AiMessage}) with the receipt on its message. */
    static Object attach(Object answer, MemoryReceipt receipt) {
        if (answer instanceof AiMessage message) {
            return attach(message, receipt);
        }
        if (answer instanceof ChatResponse response) {
            return attach(response, receipt);
        }
        if (answer instanceof Result<?> result && result.finalResponse() != null) {
            return Result.builder().content(result.content())
                    .tokenUsage(result.tokenUsage()).sources(result.sources()).finishReason(result.finishReason())
                    .toolExecutions(result.toolExecutions()).intermediateResponses(result.intermediateResponses())
                    .finalResponse(attach(result.finalResponse(), receipt)).build();
        }
        return answer;
    }

    static ChatResponse attach(ChatResponse response, MemoryReceipt receipt) {
        return response.aiMessage() == null ? response
                : response.toBuilder().aiMessage(attach(response.aiMessage(), receipt)).build();
    }

    /** The message with the receipt among its attributes (a new message: LangChain4j's are immutable). */
    static AiMessage attach(AiMessage message, MemoryReceipt receipt) {
        Map<String, Object> attributes = new HashMap<>(message.attributes());
        attributes.put(MnemoLangChain4j.RECEIPT, receipt);
        return AiMessage.builder().text(message.text()).thinking(message.thinking())
                .toolExecutionRequests(message.toolExecutionRequests()).attributes(attributes).build();
    }

    /** The receipt on {@code message}, if Mnemo put one there. */
    static Optional<MemoryReceipt> of(AiMessage message) {
        return message != null && message.attributes().get(MnemoLangChain4j.RECEIPT) instanceof MemoryReceipt receipt
                ? Optional.of(receipt) : Optional.empty();
    }
}
