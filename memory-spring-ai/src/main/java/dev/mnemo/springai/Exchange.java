package dev.mnemo.springai;

import dev.mnemo.AssistantMessage;
import dev.mnemo.Citations;
import dev.mnemo.MemoryCitation;
import dev.mnemo.MemoryEngines;
import dev.mnemo.MemoryReceipt;
import dev.mnemo.MemorySession;
import dev.mnemo.StrippedText;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;

/**
 * One request on its way through {@link MnemoAdvisor}: the request as advised, and what it holds
 * until its answer is complete: its conversation's turn (so a second request on the conversation is
 * refused) and, with many users, the lease on its user's engine (so the engine is not closed under
 * it). {@link #end()} lets both go; it and {@link #abandon()} may be called more than once, from
 * any thread.
 */
final class Exchange {

    private final ChatClientRequest request;
    private final @Nullable MemorySession session;
    private final MemorySession.@Nullable Turn turn;
    private final MemoryEngines.@Nullable Lease lease;
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile @Nullable StreamedAnswer streamed;

    Exchange(ChatClientRequest request, @Nullable MemorySession session, MemorySession.@Nullable Turn turn,
            MemoryEngines.@Nullable Lease lease) {
        this.request = request;
        this.session = session;
        this.turn = turn;
        this.lease = lease;
    }

    /** A request that reads and records no memory: its answer only has its citation markup removed. */
    static Exchange withoutMemory(ChatClientRequest request) {
        return new Exchange(request, null, null, null);
    }

    ChatClientRequest request() {
        return request;
    }

    /**
     * A whole answer: citation markup removed from every generation, the first one's visible text
     * recorded and its citation counted (with a conversation), and the citation put in the response
     * context under {@link MnemoAdvisor#CITATION}, the session's receipt (with a conversation) under
     * {@link MnemoAdvisor#RECEIPT}.
     */
    ChatClientResponse answer(ChatClientResponse response) {
        ChatResponse chat = response.chatResponse();
        Generation first = chat == null ? null : chat.getResult();
        if (first == null || first.getOutput().getText() == null) {
            return response;
        }
        String raw = first.getOutput().getText();
        String visible;
        Optional<MemoryCitation> citation;
        MemoryReceipt receipt = null;
        if (session != null) {
            AssistantMessage message = session.assistantMessage(raw);
            visible = message.visibleText();
            citation = message.citation();
            receipt = message.receipt();
        } else {
            StrippedText stripped = Citations.strip(raw);
            visible = stripped.visibleText();
            citation = Citations.parse(stripped.bodies());
        }
        ChatResponse shown = CitationText.rewrite(CitationText.withText(chat, visible), 1,
                text -> Citations.strip(text).visibleText());
        ChatClientResponse.Builder out = response.mutate().chatResponse(shown);
        citation.ifPresent(c -> out.context(MnemoAdvisor.CITATION, c));
        if (receipt != null) {
            out.context(MnemoAdvisor.RECEIPT, receipt);
        }
        return out.build();
    }

    /** The filtering (and, with a conversation, the recording) of this request's streamed answer. */
    StreamedAnswer streamedAnswer() {
        StreamedAnswer answer = session != null ? StreamedAnswer.recorded(session.streamAnswer())
                : StreamedAnswer.unrecorded();
        streamed = answer;
        return answer;
    }

    /** The answer is complete: the conversation takes its next request, the engine may close when idle. */
    void end() {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        try {
            if (turn != null) {
                turn.close();
            }
        } finally {
            if (lease != null) {
                lease.close();
            }
        }
    }

    /** The request was cancelled or failed: a streamed answer is recorded as far as it was shown, then {@link #end()}. */
    void abandon() {
        try {
            StreamedAnswer answer = streamed;
            if (answer != null) {
                answer.cutShort();
            }
        } finally {
            end();
        }
    }
}
