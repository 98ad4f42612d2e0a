package dev.mnemo.springai;

import dev.mnemo.AnswerStream;
import dev.mnemo.CitationStreamFilter;
import dev.mnemo.Citations;
import dev.mnemo.MemoryCitation;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;

/**
 * The citation filtering of one streamed answer (one subscription). Each chunk passes on at once
 * with only its visible part; when the model's stream completes, what the filter still held back
 * and the parsed citation go out in one last chunk. Reactor delivers a stream's signals one at a
 * time, but a cancellation may arrive from another thread while a chunk is on its way: the methods
 * are synchronized, and a chunk arriving after the answer ended is passed on without text.
 */
final class StreamedAnswer {

    /** Either a conversation's {@link AnswerStream} or, without a conversation, a bare filter. */
    private final @Nullable AnswerStream recorded;
    private final @Nullable CitationStreamFilter bare;
    private final StringBuilder emitted = new StringBuilder();
    private Map<String, @Nullable Object> lastContext = Map.of();
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

    /** The chunk with its text replaced by the part that may be shown now (possibly empty). */
    synchronized ChatClientResponse visible(ChatClientResponse chunk) {
        lastContext = chunk.context();
        ChatResponse response = chunk.chatResponse();
        Generation generation = response == null ? null : response.getResult();
        if (generation == null || generation.getOutput().getText() == null) {
            return chunk;
        }
        String shown = ended ? "" : push(generation.getOutput().getText());
        emitted.append(shown);
        return chunk.mutate().chatResponse(CitationText.withText(response, shown)).build();
    }

    /**
     * The model's stream completed: counts the citation (once) and returns a last chunk with the
     * text the filter held back and the citation under {@link MnemoAdvisor#CITATION}, or
     * {@code null} when there is neither.
     */
    @Nullable
    synchronized ChatClientResponse complete() {
        if (ended) {
            return null;
        }
        ended = true;
        String whole;
        Optional<MemoryCitation> citation;
        if (recorded != null) {
            dev.mnemo.AssistantMessage message = recorded.finish();
            whole = message.visibleText();
            citation = message.citation();
        } else {
            whole = emitted + bare.finish();
            citation = Citations.parse(bare.bodies());
        }
        String rest = whole.length() >= emitted.length() ? whole.substring(emitted.length()) : "";
        if (rest.isEmpty() && citation.isEmpty()) {
            return null;
        }
        ChatClientResponse.Builder last = ChatClientResponse.builder()
                .chatResponse(new ChatResponse(java.util.List.of(new Generation(new AssistantMessage(rest)))))
                .context(lastContext);
        citation.ifPresent(c -> last.context(MnemoAdvisor.CITATION, c));
        return last.build();
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

    private String push(String chunk) {
        return recorded != null ? recorded.push(chunk) : bare.push(chunk);
    }
}
