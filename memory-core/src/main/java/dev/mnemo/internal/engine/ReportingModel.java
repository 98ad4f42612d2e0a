package dev.mnemo.internal.engine;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.RateLimitSnapshot;
import dev.mnemo.spi.MemoryEventListener;
import java.util.Optional;
import java.util.OptionalInt;

/** The pipeline's model, telling the listeners of each call it answered and what the call spent. */
record ReportingModel(LanguageModel model, String phase, MemoryEventListener listener) implements LanguageModel {

    /** {@code model} reporting its calls as {@code phase}; null stays null (no model configured). */
    static LanguageModel of(LanguageModel model, String phase, MemoryEventListener listener) {
        return model == null ? null : new ReportingModel(model, phase, listener);
    }

    @Override
    public ModelResponse respond(ModelRequest request) {
        ModelResponse response = model.respond(request);
        listener.modelCalled(phase, response.usage());
        return response;
    }

    @Override
    public Optional<RateLimitSnapshot> rateLimits() {
        return model.rateLimits();
    }

    @Override
    public OptionalInt contextWindowTokens() {
        return model.contextWindowTokens();
    }

    @Override
    public dev.mnemo.llm.TokenCounter tokenCounter() {
        return model.tokenCounter();
    }

    @Override
    public String toString() {
        return model.toString();
    }
}
