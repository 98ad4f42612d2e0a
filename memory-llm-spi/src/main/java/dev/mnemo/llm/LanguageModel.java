package dev.mnemo.llm;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * A language model Mnemo can call: one blocking request in, one response out.
 *
 * <p>Implementations must be thread-safe: Phase 1 calls {@link #respond} from several threads at
 * once. Failures are reported as {@link ModelException} with a {@link ModelException.Reason}.
 */
public interface LanguageModel {

    /**
     * Sends one request and waits for the complete response.
     *
     * @param request what to ask
     * @return the complete response
     * @throws ModelException when the model cannot answer; {@link ModelException#retryable()} tells
     *     whether the same request may succeed later
     */
    ModelResponse respond(ModelRequest request);

    /**
     * The most recent rate-limit figures the model's server reported, used by the startup task's
     * guard; empty when the server reports none (the guard then lets the pipeline run).
     *
     * @return the latest figures, or empty
     */
    default Optional<RateLimitSnapshot> rateLimits() {
        return Optional.empty();
    }

    /**
     * The model's context window in tokens, when known. Phase 1 sizes a rollout to 70 % of it
     * (150,000 tokens when unknown, as Codex does).
     *
     * @return the window in tokens, or empty when unknown
     */
    default OptionalInt contextWindowTokens() {
        return OptionalInt.empty();
    }

    /**
     * How this model counts tokens. The default is {@link TokenCounter#estimate()}, four UTF-8
     * bytes to a token; a client that knows its model's tokenizer may return an exact counter.
     *
     * @return the counter; thread-safe
     */
    default TokenCounter tokenCounter() {
        return TokenCounter.estimate();
    }
}
