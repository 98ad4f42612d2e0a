package dev.mnemo.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class ContextOverflowTest {

    @Test
    void openAiMessage_namesWindowAndRequest() {
        ContextOverflow overflow = ContextOverflow.parse("This model's maximum context length is 8192 tokens. However, "
                + "your messages resulted in 10,240 tokens. Please reduce the length of the messages.");

        assertThat(overflow.windowTokens()).hasValue(8192);
        assertThat(overflow.requestTokens()).hasValue(10_240);
        assertThat(overflow.shrinkFactor()).isCloseTo(0.9 * 8192 / 10_240, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void vllmMessage_requestedTokensAreRead() {
        ContextOverflow overflow = ContextOverflow.parse("This model's maximum context length is 4096 tokens. However, "
                + "you requested 5000 tokens (4000 in the messages, 1000 in the completion).");

        assertThat(overflow.windowTokens()).hasValue(4096);
        assertThat(overflow.requestTokens()).hasValue(5000);
    }

    @Test
    void llamaCppAndAnthropicMessages_areRead() {
        ContextOverflow llama = ContextOverflow.parse(
                "request (12000 tokens) exceeds the available context size (8192 tokens), try increasing it");
        ContextOverflow anthropic = ContextOverflow.parse("prompt is too long: 210000 tokens > 200000 maximum");

        assertThat(llama.windowTokens()).hasValue(8192);
        assertThat(llama.requestTokens()).hasValue(12_000);
        assertThat(anthropic.windowTokens()).hasValue(200_000);
        assertThat(anthropic.requestTokens()).hasValue(210_000);
    }

    @Test
    void messageWithoutFigures_halves() {
        ContextOverflow overflow = ContextOverflow.parse("Your input exceeds the context window of this model.");

        assertThat(overflow.windowTokens()).isEmpty();
        assertThat(overflow.shrinkFactor()).isEqualTo(ContextOverflow.DEFAULT_SHRINK_FACTOR);
    }

    @Test
    void requestNotLargerThanWindow_halvesInsteadOfGrowing() {
        assertThat(new ContextOverflow(OptionalLong.of(8192), OptionalLong.of(8000)).shrinkFactor())
                .isEqualTo(ContextOverflow.DEFAULT_SHRINK_FACTOR);
    }

    @Test
    void of_otherReasons_isEmpty() {
        assertThat(ContextOverflow.of(new ModelException(ModelException.Reason.SERVER, "maximum context length is 1 tokens")))
                .isEmpty();
        assertThat(ContextOverflow.of(new ModelException(ModelException.Reason.CONTEXT_WINDOW_EXCEEDED, "too long")))
                .isPresent();
    }
}
