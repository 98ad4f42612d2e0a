package dev.mnemo.opentelemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongHistogram;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Tracer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Properties;

/**
 * The names of OpenTelemetry's GenAI semantic conventions that Mnemo emits, and the instruments
 * both of its instrumentations share. The conventions are the registry's
 * ({@code open-telemetry/semantic-conventions-genai}, status Development): spans in
 * {@code docs/gen-ai/gen-ai-spans.md}, metrics in {@code docs/gen-ai/gen-ai-metrics.md}.
 */
final class GenAi {

    /** The instrumentation scope every span and metric is recorded under. */
    static final String SCOPE = "dev.mnemo";
    static final String SCOPE_VERSION = scopeVersion();

    static final AttributeKey<String> OPERATION_NAME = AttributeKey.stringKey("gen_ai.operation.name");
    static final AttributeKey<String> PROVIDER_NAME = AttributeKey.stringKey("gen_ai.provider.name");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");

    static final AttributeKey<String> MEMORY_STORE_ID = AttributeKey.stringKey("gen_ai.memory.store.id");
    static final AttributeKey<String> MEMORY_RECORD_ID = AttributeKey.stringKey("gen_ai.memory.record.id");
    static final AttributeKey<Long> MEMORY_RECORD_COUNT = AttributeKey.longKey("gen_ai.memory.record.count");
    static final AttributeKey<String> MEMORY_QUERY_TEXT = AttributeKey.stringKey("gen_ai.memory.query.text");
    static final AttributeKey<String> MEMORY_RECORDS = AttributeKey.stringKey("gen_ai.memory.records");
    /** Not a convention's: what in Mnemo did the operation ({@code instructions}, a memory tool, ...). */
    static final AttributeKey<String> MNEMO_MEMORY_SOURCE = AttributeKey.stringKey("mnemo.memory.source");

    static final AttributeKey<String> REQUEST_MODEL = AttributeKey.stringKey("gen_ai.request.model");
    static final AttributeKey<String> OUTPUT_TYPE = AttributeKey.stringKey("gen_ai.output.type");
    static final AttributeKey<List<String>> FINISH_REASONS =
            AttributeKey.stringArrayKey("gen_ai.response.finish_reasons");
    static final AttributeKey<Long> INPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.input_tokens");
    static final AttributeKey<Long> OUTPUT_TOKENS = AttributeKey.longKey("gen_ai.usage.output_tokens");
    static final AttributeKey<Long> CACHE_READ_INPUT_TOKENS =
            AttributeKey.longKey("gen_ai.usage.cache_read.input_tokens");
    static final AttributeKey<Long> REASONING_OUTPUT_TOKENS =
            AttributeKey.longKey("gen_ai.usage.reasoning.output_tokens");
    static final AttributeKey<String> TOKEN_TYPE = AttributeKey.stringKey("gen_ai.token.type");

    /** The inference operation Mnemo's model calls are: a chat completion. */
    static final String CHAT = "chat";

    /** {@code gen_ai.client.operation.duration}'s bucket boundaries, in seconds, as the conventions advise. */
    private static final List<Double> DURATION_BUCKETS = List.of(0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28,
            2.56, 5.12, 10.24, 20.48, 40.96, 81.92);
    /** {@code gen_ai.client.token.usage}'s bucket boundaries, as the conventions advise. */
    private static final List<Long> TOKEN_BUCKETS = List.of(1L, 4L, 16L, 64L, 256L, 1024L, 4096L, 16384L, 65536L,
            262144L, 1048576L, 4194304L, 16777216L, 67108864L);

    private GenAi() {}

    static Tracer tracer(OpenTelemetry openTelemetry) {
        return openTelemetry.getTracerProvider().tracerBuilder(SCOPE).setInstrumentationVersion(SCOPE_VERSION)
                .build();
    }

    static Meter meter(OpenTelemetry openTelemetry) {
        return openTelemetry.getMeterProvider().meterBuilder(SCOPE).setInstrumentationVersion(SCOPE_VERSION).build();
    }

    /** {@code gen_ai.client.operation.duration}: a histogram in seconds. */
    static DoubleHistogram operationDuration(Meter meter) {
        return meter.histogramBuilder("gen_ai.client.operation.duration").setUnit("s")
                .setDescription("GenAI operation duration.").setExplicitBucketBoundariesAdvice(DURATION_BUCKETS)
                .build();
    }

    /** {@code gen_ai.client.token.usage}: a histogram of tokens, one record per token type. */
    static LongHistogram tokenUsage(Meter meter) {
        return meter.histogramBuilder("gen_ai.client.token.usage").ofLongs().setUnit("{token}")
                .setDescription("Number of input and output tokens used.")
                .setExplicitBucketBoundariesAdvice(TOKEN_BUCKETS).build();
    }

    private static String scopeVersion() {
        Properties properties = new Properties();
        try (InputStream in = GenAi.class.getResourceAsStream("scope.properties")) {
            if (in == null) {
                throw new IllegalStateException("dev/mnemo/opentelemetry/scope.properties is missing from the jar");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties.getProperty("version");
    }
}
