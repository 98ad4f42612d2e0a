package dev.mnemo.llm;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * A language model that wraps another to count, trace or record its calls. Everything but
 * {@link #respond} is the wrapped model's answer, so a wrapper never hides the model's rate limits,
 * context window or tokenizer from the pipeline that sizes its work by them.
 */
public interface ForwardingLanguageModel extends LanguageModel {

    /**
     * The model this one wraps.
     *
     * @return the wrapped model
     */
    LanguageModel delegate();

    @Override
    default Optional<RateLimitSnapshot> rateLimits() {
        return delegate().rateLimits();
    }

    @Override
    default OptionalInt contextWindowTokens() {
        return delegate().contextWindowTokens();
    }

    @Override
    default TokenCounter tokenCounter() {
        return delegate().tokenCounter();
    }
}
