package dev.mnemo.springai;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;

/** Replaces the text of a {@link ChatResponse}'s generations, keeping everything else. */
final class CitationText {

    private CitationText() {}

    /** {@code response} with its first generation's text replaced by {@code text}. */
    static ChatResponse withText(ChatResponse response, String text) {
        return rewrite(response, 0, old -> text);
    }

    /**
     * {@code response} with the text of every generation from {@code from} on passed through
     * {@code rewrite}; earlier generations are kept as they are.
     */
    static ChatResponse rewrite(ChatResponse response, int from, UnaryOperator<String> rewrite) {
        List<Generation> generations = new ArrayList<>(response.getResults());
        for (int i = from; i < generations.size(); i++) {
            Generation generation = generations.get(i);
            String text = generation.getOutput().getText();
            if (text != null) {
                generations.set(i, new Generation(generation.getOutput().mutate().content(rewrite.apply(text)).build(),
                        generation.getMetadata()));
            }
        }
        return ChatResponse.builder().from(response).generations(generations).build();
    }
}
