package dev.mnemo.llm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ForwardingLanguageModelTest {

    /** A model that knows its window, limits and tokenizer: none of them the defaults. */
    private static final TokenCounter WORDS = text -> text.isBlank() ? 0 : text.trim().split("\\s+").length;
    private static final RateLimitSnapshot NEARLY_SPENT =
            new RateLimitSnapshot(OptionalDouble.of(97.0), OptionalDouble.empty(), false);

    private static final LanguageModel KNOWN = new LanguageModel() {
        @Override
        public ModelResponse respond(ModelRequest request) {
            return ModelResponse.ofText("answer", TokenUsage.ZERO);
        }

        @Override
        public Optional<RateLimitSnapshot> rateLimits() {
            return Optional.of(NEARLY_SPENT);
        }

        @Override
        public OptionalInt contextWindowTokens() {
            return OptionalInt.of(32_000);
        }

        @Override
        public TokenCounter tokenCounter() {
            return WORDS;
        }
    };

    private record Counting(LanguageModel delegate, AtomicInteger calls) implements ForwardingLanguageModel {
        @Override
        public ModelResponse respond(ModelRequest request) {
            calls.incrementAndGet();
            return delegate.respond(request);
        }
    }

    @Test
    void aWrapperReportsTheWrappedModelsWindowLimitsAndTokenizer() {
        LanguageModel wrapped = new Counting(KNOWN, new AtomicInteger());

        assertThat(wrapped.contextWindowTokens()).hasValue(32_000);
        assertThat(wrapped.rateLimits()).contains(NEARLY_SPENT);
        assertThat(wrapped.tokenCounter()).isSameAs(WORDS);
    }

    @Test
    void wrappersStackWithoutLosingWhatTheInnermostModelKnows() {
        AtomicInteger calls = new AtomicInteger();
        LanguageModel twice = new Counting(new Counting(KNOWN, calls), calls);

        assertThat(twice.contextWindowTokens()).hasValue(32_000);
        assertThat(twice.tokenCounter().count("three small words")).isEqualTo(3);
        assertThat(twice.respond(ModelRequest.builder().instructions("hi").build()).text()).isEqualTo("answer");
        assertThat(calls).hasValue(2);
    }
}
