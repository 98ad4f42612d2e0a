package dev.mnemo.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TokenCounterTest {

    @Test
    void estimate_countsFourUtf8BytesPerTokenRoundedUp() {
        TokenCounter counter = TokenCounter.estimate();
        assertThat(counter.count("")).isZero();
        assertThat(counter.count("a")).isEqualTo(1);
        assertThat(counter.count("abcd")).isEqualTo(1);
        assertThat(counter.count("abcde")).isEqualTo(2);
        // "é" is two bytes, "€" three, an emoji four.
        assertThat(counter.count("é€")).isEqualTo(2);
        assertThat(counter.count("\uD83D\uDE00")).isEqualTo(1);
    }

    @Test
    void estimateTokens_agreesWithTheCounterAndTokensOfBytes() {
        String text = "Mnemo keeps memories — über alles ✓";
        assertThat(TokenCounter.estimateTokens(text)).isEqualTo(TokenCounter.estimate().count(text));
        assertThat(TokenCounter.tokensOfBytes(0)).isZero();
        assertThat(TokenCounter.tokensOfBytes(9)).isEqualTo(3);
        assertThatThrownBy(() -> TokenCounter.tokensOfBytes(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
    }

    @Test
    void aLanguageModel_countsWithTheEstimateUnlessItSaysOtherwise() {
        LanguageModel model = request -> {
            throw new UnsupportedOperationException("not called");
        };
        assertThat(model.tokenCounter()).isSameAs(TokenCounter.estimate());
    }
}
