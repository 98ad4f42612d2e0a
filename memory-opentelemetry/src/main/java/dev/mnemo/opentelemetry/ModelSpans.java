package dev.mnemo.opentelemetry;

import dev.mnemo.llm.ForwardingLanguageModel;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongHistogram;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@link LanguageModel} {@link MnemoTelemetry#languageModel} returns: every call of the wrapped
 * model in a GenAI inference span ({@code chat {model}}, kind CLIENT, a child of the current
 * context and current while the model works), with the {@code gen_ai.client.operation.duration}
 * and {@code gen_ai.client.token.usage} metrics. Every other method is the wrapped model's.
 */
final class ModelSpans implements ForwardingLanguageModel {

    private final LanguageModel model;
    private final Optional<String> provider;
    private final Optional<String> defaultModel;
    private final Tracer tracer;
    private final DoubleHistogram duration;
    private final LongHistogram tokens;

    /**
     * @param provider the {@code gen_ai.provider.name}, when known
     * @param defaultModel the model the client asks for when a request names none, when known
     */
    ModelSpans(LanguageModel model, OpenTelemetry openTelemetry, Optional<String> provider,
            Optional<String> defaultModel) {
        this.model = Objects.requireNonNull(model, "model");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.defaultModel = Objects.requireNonNull(defaultModel, "defaultModel");
        this.tracer = GenAi.tracer(openTelemetry);
        var meter = GenAi.meter(openTelemetry);
        this.duration = GenAi.operationDuration(meter);
        this.tokens = GenAi.tokenUsage(meter);
    }

    @Override
    public LanguageModel delegate() {
        return model;
    }

    @Override
    public ModelResponse respond(ModelRequest request) {
        Objects.requireNonNull(request, "request");
        Optional<String> requestModel = Optional.of(request.model()).filter(name -> !name.isEmpty()).or(() -> defaultModel);
        AttributesBuilder common = Attributes.builder().put(GenAi.OPERATION_NAME, GenAi.CHAT);
        provider.ifPresent(name -> common.put(GenAi.PROVIDER_NAME, name));
        requestModel.ifPresent(name -> common.put(GenAi.REQUEST_MODEL, name));
        Attributes identity = common.build();

        SpanBuilder builder = tracer.spanBuilder(requestModel.map(name -> GenAi.CHAT + " " + name).orElse(GenAi.CHAT))
                .setSpanKind(SpanKind.CLIENT).setAllAttributes(identity);
        if (request.outputSchema().isPresent()) {
            builder.setAttribute(GenAi.OUTPUT_TYPE, "json");
        }
        Span span = builder.startSpan();
        long started = System.nanoTime();
        try (Scope ignored = span.makeCurrent()) {
            ModelResponse response = model.respond(request);
            answered(span, identity, response.usage());
            span.setAttribute(GenAi.FINISH_REASONS,
                    List.of(response.finishReason().name().toLowerCase(Locale.ROOT)));
            duration.record(seconds(started), identity, Context.current());
            return response;
        } catch (RuntimeException | Error e) {
            String errorType = errorType(e);
            span.setAttribute(GenAi.ERROR_TYPE, errorType);
            span.setStatus(StatusCode.ERROR);
            duration.record(seconds(started), identity.toBuilder().put(GenAi.ERROR_TYPE, errorType).build(),
                    Context.current().with(span));
            throw e;
        } finally {
            span.end();
        }
    }

    private void answered(Span span, Attributes identity, TokenUsage usage) {
        span.setAttribute(GenAi.INPUT_TOKENS, usage.inputTokens());
        span.setAttribute(GenAi.OUTPUT_TOKENS, usage.outputTokens());
        if (usage.cachedInputTokens() > 0) {
            span.setAttribute(GenAi.CACHE_READ_INPUT_TOKENS, usage.cachedInputTokens());
        }
        if (usage.reasoningTokens() > 0) {
            span.setAttribute(GenAi.REASONING_OUTPUT_TOKENS, usage.reasoningTokens());
        }
        tokens.record(usage.inputTokens(), identity.toBuilder().put(GenAi.TOKEN_TYPE, "input").build());
        tokens.record(usage.outputTokens(), identity.toBuilder().put(GenAi.TOKEN_TYPE, "output").build());
    }

    /**
     * A {@link ModelException}'s reason in lower case ({@code rate_limited}, {@code timeout}, ...),
     * else the exception's class name: low-cardinality codes, as the conventions ask.
     */
    private static String errorType(Throwable e) {
        return e instanceof ModelException failure ? failure.reason().name().toLowerCase(Locale.ROOT)
                : e.getClass().getName();
    }

    private static double seconds(long startedNanos) {
        return (System.nanoTime() - startedNanos) / 1e9;
    }

    @Override
    public String toString() {
        return "traced " + model;
    }
}
