package dev.mnemo.llm.openai;

import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ReasoningEffort;
import java.net.URI;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends one request with the reasoning effort its model accepts. The effort is the client's
 * setting or else the request's own; when a server rejects the reasoning parameter
 * ({@link ErrorMapping.ReasoningEffortRejectedException}), the request goes again once without it,
 * and that model name gets no reasoning effort for the rest of the client's life (logged once at
 * INFO, under {@link OpenAiLanguageModel}'s logger). Thread-safe.
 */
final class ReasoningEffortFallback {

    private static final Logger LOG = LoggerFactory.getLogger(OpenAiLanguageModel.class);

    private final WireFormat format;
    private final RetryingSender sender;
    private final URI endpoint;
    private final Optional<ReasoningEffort> configuredEffort;
    /** Model names whose server rejected the reasoning parameter; never sent to them again. */
    private final Set<String> modelsWithoutReasoning = ConcurrentHashMap.newKeySet();

    ReasoningEffortFallback(WireFormat format, RetryingSender sender, URI endpoint,
            Optional<ReasoningEffort> configuredEffort) {
        this.format = format;
        this.sender = sender;
        this.endpoint = endpoint;
        this.configuredEffort = configuredEffort;
    }

    /**
     * Posts {@code request} for {@code model} and returns the body of the server's answer.
     *
     * @throws dev.mnemo.llm.ModelException as {@link RetryingSender#post} does
     */
    String send(ModelRequest request, String model) {
        ReasoningEffort effort = modelsWithoutReasoning.contains(model) ? ReasoningEffort.NONE
                : configuredEffort.orElse(request.reasoningEffort());
        try {
            return sender.post(endpoint, format.encode(request, model, effort).toString());
        } catch (ErrorMapping.ReasoningEffortRejectedException e) {
            if (effort == ReasoningEffort.NONE) {
                throw e;
            }
            if (modelsWithoutReasoning.add(model)) {
                LOG.info("Model {} at {} does not accept a reasoning effort ({}); sending it none from now on",
                        model, endpoint, e.getMessage());
            }
            return sender.post(endpoint, format.encode(request, model, ReasoningEffort.NONE).toString());
        }
    }
}
