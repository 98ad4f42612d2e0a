package dev.mnemo.opentelemetry;

import dev.mnemo.MemoryEngine;
import dev.mnemo.SecretRedactors;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryOperation;
import dev.mnemo.spi.SecretRedactor;
import io.opentelemetry.api.OpenTelemetry;
import java.util.Objects;
import java.util.Optional;

/**
 * Mnemo in the traces and metrics an application already collects, following OpenTelemetry's
 * GenAI semantic conventions (registry {@code open-telemetry/semantic-conventions-genai}, status
 * Development).
 *
 * <h2>Memory operations</h2>
 * {@link #listener(OpenTelemetry)} gives a {@link MemoryEventListener} for
 * {@link MemoryEngine.Builder#listener}; every {@link MemoryOperation} the engine reports becomes a
 * span of the conventions' type {@code gen_ai.memory.client} ({@code gen-ai-spans.md}, "Memory"):
 * <ul>
 *   <li>name: the operation, as the conventions say ("Span name SHOULD be
 *       {@code {gen_ai.operation.name}}"): {@code search_memory} (developer instructions built, a
 *       memory tool's read, list or search), {@code create_memory} (a note, a stored stage-1
 *       output), {@code update_memory} (a consolidation that changed the memory folder),
 *       {@code delete_memory} (a forget, with the conversation as record id; clearing a home, with
 *       none, which the conventions read as "all records of the store");</li>
 *   <li>kind INTERNAL: the memory runs in the application's process, where the conventions allow
 *       INTERNAL instead of CLIENT;</li>
 *   <li>attributes {@code gen_ai.operation.name}, {@code gen_ai.memory.store.id} (the tenant's id in
 *       a fleet of engines, else the home's label; never a path), {@code gen_ai.memory.record.id}
 *       when the operation concerned one record, {@code gen_ai.memory.record.count}, and
 *       {@code mnemo.memory.source} (Mnemo's own: {@code instructions}, the memory tool's name,
 *       {@code stage1_output}, {@code consolidation}, {@code forget}, {@code clear});
 *       {@code gen_ai.provider.name} is not set, since no external provider handles the operation;</li>
 *   <li>on failure, {@code error.type} (a short code from the engine) and status ERROR;</li>
 *   <li>only with content capture on: the opt-in {@code gen_ai.memory.query.text} and
 *       {@code gen_ai.memory.records} (the conventions' memory-records JSON, as a string), both
 *       passed through a {@link SecretRedactor} first.</li>
 * </ul>
 * A read-path operation's span is a child of the caller's current context (a server request's
 * span), with the operation's own start and end times. A background run's operations (Phase 1,
 * Phase 2, forgets run by the pipeline) are root spans with a link to the span that was current
 * where the run was started. Each operation is also measured in
 * {@code gen_ai.client.operation.duration} (seconds) with {@code gen_ai.operation.name} and, on
 * failure, {@code error.type}: no store id, which would make the metric's cardinality grow with
 * the tenants.
 *
 * <h2>Model calls</h2>
 * {@link #languageModel(LanguageModel, OpenTelemetry, String, String)} wraps the
 * {@link LanguageModel} Mnemo's pipeline runs on (Mnemo's own OpenAI client, for one) so that
 * every call is an inference span:
 * name {@code chat {gen_ai.request.model}}, kind CLIENT, {@code gen_ai.operation.name=chat},
 * {@code gen_ai.provider.name}, {@code gen_ai.request.model}, the token usage, the finish reason
 * and {@code error.type}; with the {@code gen_ai.client.operation.duration} and
 * {@code gen_ai.client.token.usage} metrics. Models that a framework already traces (Spring AI's,
 * LangChain4j's) need no wrapping.
 *
 * <p>Spans and metrics are recorded under the instrumentation scope {@code dev.mnemo}, versioned as
 * this module. Only the OpenTelemetry API is used; without an SDK everything is a no-op.
 */
public final class MnemoTelemetry {

    /** The class name of memory-llm-openai's client, whose calls go to the {@code openai} provider. */
    private static final String OPENAI_CLIENT = "dev.mnemo.llm.openai.OpenAiLanguageModel";

    private MnemoTelemetry() {}

    /**
     * A listener emitting memory spans and metrics to {@code openTelemetry}, capturing no content.
     *
     * @param openTelemetry where the spans and metrics go
     * @return the listener to give the engine's builder
     */
    public static MemoryEventListener listener(OpenTelemetry openTelemetry) {
        return listener(openTelemetry, false);
    }

    /**
     * A listener emitting memory spans and metrics to {@code openTelemetry}.
     *
     * @param openTelemetry where the spans and metrics go
     * @param captureContent whether spans carry the opt-in {@code gen_ai.memory.query.text} and
     *     {@code gen_ai.memory.records}, redacted by Mnemo's built-in redactor
     *     ({@link SecretRedactors#defaults()}); off by default, as the conventions ask, because
     *     memories may hold personal data that no redactor recognises
     * @return the listener to give the engine's builder
     */
    public static MemoryEventListener listener(OpenTelemetry openTelemetry, boolean captureContent) {
        return listener(openTelemetry, captureContent, SecretRedactors.defaults());
    }

    /**
     * As {@link #listener(OpenTelemetry, boolean)}, captured content passed through
     * {@code redactor}: the one given to {@link MemoryEngine.Builder#redactor}, when the engine has
     * its own.
     *
     * @param openTelemetry where the spans and metrics go
     * @param captureContent whether spans carry the opt-in content attributes
     * @param redactor what captured content passes through first
     * @return the listener to give the engine's builder
     */
    public static MemoryEventListener listener(OpenTelemetry openTelemetry, boolean captureContent,
            SecretRedactor redactor) {
        Objects.requireNonNull(openTelemetry, "openTelemetry");
        Objects.requireNonNull(redactor, "redactor");
        return new MemorySpans(openTelemetry, captureContent, redactor);
    }

    /**
     * {@code model} with a GenAI inference span and metrics for every call. The provider
     * ({@code gen_ai.provider.name}) is {@code openai} for memory-llm-openai's client, and not set
     * for another model. The request model is each request's; a request that leaves it to the
     * client's default (as Mnemo's pipeline does unless {@code extract_model} or
     * {@code consolidation_model} is set) gives a span named just {@code chat}: name both with
     * {@link #languageModel(LanguageModel, OpenTelemetry, String, String)}.
     *
     * @param model the model whose calls are traced
     * @param openTelemetry where the spans and metrics go
     * @return {@code model}, traced
     */
    public static LanguageModel languageModel(LanguageModel model, OpenTelemetry openTelemetry) {
        Objects.requireNonNull(model, "model");
        Optional<String> provider = model.getClass().getName().equals(OPENAI_CLIENT) ? Optional.of("openai")
                : Optional.empty();
        return new ModelSpans(model, Objects.requireNonNull(openTelemetry, "openTelemetry"), provider,
                Optional.empty());
    }

    /**
     * {@code model} with a GenAI inference span and metrics for every call.
     *
     * @param model the model whose calls are traced
     * @param openTelemetry where the spans and metrics go
     * @param providerName the {@code gen_ai.provider.name}: one of the conventions' well-known values
     *     ({@code openai}, {@code azure.ai.openai}, {@code anthropic}, ...) where one applies
     * @param defaultModel the model {@code model} asks for when a request names none (for
     *     memory-llm-openai's client, the builder's {@code model(..)} or {@code MNEMO_MODEL}): the
     *     {@code gen_ai.request.model} of those requests
     * @return {@code model}, traced
     * @throws IllegalArgumentException when {@code providerName} or {@code defaultModel} is blank
     */
    public static LanguageModel languageModel(LanguageModel model, OpenTelemetry openTelemetry,
            String providerName, String defaultModel) {
        return new ModelSpans(Objects.requireNonNull(model, "model"),
                Objects.requireNonNull(openTelemetry, "openTelemetry"),
                Optional.of(notBlank(providerName, "providerName")), Optional.of(notBlank(defaultModel, "defaultModel")));
    }

    private static String notBlank(String value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
        return value;
    }
}
