package dev.mnemo.springai;

import dev.mnemo.AnswerStream;
import dev.mnemo.CitationStreamFilter;
import dev.mnemo.Citations;
import dev.mnemo.MemoryCitation;
import dev.mnemo.MemoryReceipt;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.metadata.ChatGenerationMetadata;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.Usage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;

/**
 * The citation filtering of one streamed answer (one subscription). Each chunk passes on at once
 * with only its visible part, except the model's closing chunk: a chunk that carries a finish
 * reason is held back until the next chunk with text (a tool round's end) or the end of the stream.
 * When the model's stream completes, one last chunk goes out with what the filter still held back,
 * the parsed citation, the recorded answer's receipt, and the closing chunk's metadata: its finish reason, and the model, id and
 * usage of the model's last response that reported usage (OpenAI sends usage in a chunk of its own
 * after the finish reason). So the stream's last chunk carries what the model's last chunk carried,
 * and only one chunk carries a finish reason.
 *
 * <p>Reactor delivers a stream's signals one at a time, but a cancellation may arrive from another
 * thread while a chunk is on its way: the methods are synchronized, and a chunk arriving after the
 * answer ended is passed on without text.
 */
final class StreamedAnswer {

    /** Either a conversation's {@link AnswerStream} or, without a conversation, a bare filter. */
    private final @Nullable AnswerStream recorded;
    private final @Nullable CitationStreamFilter bare;
    private final StringBuilder emitted = new StringBuilder();
    private Map<String, @Nullable Object> lastContext = Map.of();
    /** The model's closing chunk, filtered, not yet passed on. */
    private @Nullable ChatClientResponse closing;
    /** The metadata of the model's last response, preferring one that reported usage. */
    private @Nullable ChatResponseMetadata lastMetadata;
    private boolean ended;

    private StreamedAnswer(@Nullable AnswerStream recorded, @Nullable CitationStreamFilter bare) {
        this.recorded = recorded;
        this.bare = bare;
    }

    /** Recorded into the conversation, citations counted when the stream completes. */
    static StreamedAnswer recorded(AnswerStream stream) {
        return new StreamedAnswer(stream, null);
    }

    /** Filtered only: nothing recorded, nothing counted. */
    static StreamedAnswer unrecorded() {
        return new StreamedAnswer(null, Citations.streamFilter());
    }

    /**
     * What to pass on for one chunk of the model's stream: the chunk with its text replaced by the
     * part that may be shown now (possibly empty), preceded by a held-back closing chunk when this
     * one shows text; nothing while this chunk is (or follows) the closing chunk.
     */
    synchronized List<ChatClientResponse> visible(ChatClientResponse chunk) {
        lastContext = chunk.context();
        ChatResponse response = chunk.chatResponse();
        if (response == null) {
            return List.of(chunk);
        }
        noteMetadata(response.getMetadata());
        Generation generation = response.getResult();
        String text = generation == null ? null : generation.getOutput().getText();
        String shown = text == null || ended ? "" : push(text);
        emitted.append(shown);
        ChatClientResponse filtered = text == null ? chunk
                : chunk.mutate().chatResponse(CitationText.withText(response, shown)).build();
        if (hasFinishReason(generation)) {
            ChatClientResponse earlier = closing;
            closing = filtered;
            return earlier == null ? List.of() : List.of(earlier);
        }
        if (closing == null) {
            return List.of(filtered);
        }
        if (shown.isEmpty()) {
            return List.of(); // after the closing chunk, without text (usage): its metadata goes into the last chunk
        }
        ChatClientResponse earlier = closing;
        closing = null;
        return List.of(earlier, filtered);
    }

    /**
     * The model's stream completed: counts the citation (once) and returns the last chunk: the
     * closing chunk with the text the filter held back, the citation under
     * {@link MnemoAdvisor#CITATION}, the recorded answer's receipt under {@link MnemoAdvisor#RECEIPT}
     * and the model's metadata. Nothing when there is no closing chunk, no text held back, no
     * citation and no receipt (an unrecorded answer).
     */
    synchronized List<ChatClientResponse> complete() {
        if (ended) {
            return List.of();
        }
        ended = true;
        String whole;
        Optional<MemoryCitation> citation;
        MemoryReceipt receipt = null;
        if (recorded != null) {
            dev.mnemo.AssistantMessage message = recorded.finish();
            whole = message.visibleText();
            citation = message.citation();
            receipt = message.receipt();
        } else {
            whole = emitted + bare.finish();
            citation = Citations.parse(bare.bodies());
        }
        String rest = whole.length() >= emitted.length() ? whole.substring(emitted.length()) : "";
        if (closing == null && rest.isEmpty() && citation.isEmpty() && receipt == null) {
            return List.of();
        }
        ChatClientResponse.Builder last = ChatClientResponse.builder().chatResponse(lastResponse(rest))
                .context(closing != null ? closing.context() : lastContext);
        citation.ifPresent(c -> last.context(MnemoAdvisor.CITATION, c));
        if (receipt != null) {
            last.context(MnemoAdvisor.RECEIPT, receipt);
        }
        closing = null;
        return List.of(last.build());
    }

    /**
     * The stream was cancelled or failed: the answer ends here, recording what was shown. Citations
     * complete by then are counted once; {@link #complete()} afterwards does nothing.
     */
    synchronized void cutShort() {
        if (ended) {
            return;
        }
        ended = true;
        if (recorded != null) {
            recorded.finish();
        }
    }

    /** The closing chunk's generation with {@code rest} after its text, under the model's last metadata. */
    private ChatResponse lastResponse(String rest) {
        Generation held = closing == null || closing.chatResponse() == null ? null : closing.chatResponse().getResult();
        Generation generation;
        if (held != null) {
            String text = held.getOutput().getText() == null ? rest : held.getOutput().getText() + rest;
            generation = new Generation(held.getOutput().mutate().content(text).build(), held.getMetadata());
        } else {
            generation = new Generation(new AssistantMessage(rest), ChatGenerationMetadata.NULL);
        }
        ChatResponse.Builder response = ChatResponse.builder().generations(List.of(generation));
        if (lastMetadata != null) {
            response.metadata(lastMetadata);
        }
        return response.build();
    }

    /** Keeps the newest metadata, unless it reports no usage and an earlier one did. */
    private void noteMetadata(@Nullable ChatResponseMetadata metadata) {
        if (metadata == null) {
            return;
        }
        if (lastMetadata == null || reportsUsage(metadata) || !reportsUsage(lastMetadata)) {
            lastMetadata = metadata;
        }
    }

    private static boolean reportsUsage(ChatResponseMetadata metadata) {
        Usage usage = metadata.getUsage();
        return usage != null && usage.getTotalTokens() != null && usage.getTotalTokens() > 0;
    }

    private static boolean hasFinishReason(@Nullable Generation generation) {
        if (generation == null || generation.getMetadata() == null) {
            return false;
        }
        String reason = generation.getMetadata().getFinishReason();
        return reason != null && !reason.isBlank();
    }

    private String push(String chunk) {
        return recorded != null ? recorded.push(chunk) : bare.push(chunk);
    }
}
