package dev.mnemo.internal.engine;

import dev.mnemo.llm.ForwardingLanguageModel;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.spi.MemoryEventListener;

/** The pipeline's model, telling the listeners of each call it answered and what the call spent. */
record ReportingModel(LanguageModel delegate, String phase, MemoryEventListener listener)
        implements ForwardingLanguageModel {

    /** {@code model} reporting its calls as {@code phase}; null stays null (no model configured). */
    static LanguageModel of(LanguageModel model, String phase, MemoryEventListener listener) {
        return model == null ? null : new ReportingModel(model, phase, listener);
    }

    @Override
    public ModelResponse respond(ModelRequest request) {
        ModelResponse response = delegate.respond(request);
        listener.modelCalled(phase, response.usage());
        return response;
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
