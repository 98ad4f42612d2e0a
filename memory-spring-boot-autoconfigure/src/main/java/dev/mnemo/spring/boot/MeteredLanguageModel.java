package dev.mnemo.spring.boot;

import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.RateLimitSnapshot;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The pipeline's model, telling {@link ModelCallListener}s the usage of each answered call. */
final class MeteredLanguageModel implements LanguageModel {

    private static final Logger LOG = LoggerFactory.getLogger(MeteredLanguageModel.class);

    private final LanguageModel model;
    private final List<ModelCallListener> listeners;

    private MeteredLanguageModel(LanguageModel model, List<ModelCallListener> listeners) {
        this.model = model;
        this.listeners = List.copyOf(listeners);
    }

    /** {@code model} itself when no one listens. */
    static LanguageModel of(LanguageModel model, List<ModelCallListener> listeners) {
        return listeners.isEmpty() ? model : new MeteredLanguageModel(model, listeners);
    }

    @Override
    public ModelResponse respond(ModelRequest request) {
        ModelResponse response = model.respond(request);
        for (ModelCallListener listener : listeners) {
            try {
                listener.modelCalled(request, response.usage());
            } catch (RuntimeException e) {
                LOG.warn("model call listener {} failed; ignored", listener, e);
            }
        }
        return response;
    }

    @Override
    public Optional<RateLimitSnapshot> rateLimits() {
        return model.rateLimits();
    }

    @Override
    public String toString() {
        return model.toString();
    }
}
