package dev.mnemo.opentelemetry;

import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryOperation;
import dev.mnemo.spi.SecretRedactor;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The listener {@link MnemoTelemetry#listener} returns: one {@code gen_ai.memory.client} span and
 * one {@code gen_ai.client.operation.duration} measurement per {@link MemoryOperation}.
 *
 * <p>An operation of the read path (no run id) is heard on the caller's thread, after it ended: its
 * span is a child of the caller's current context and is back-dated to the operation's start. An
 * operation of a background run is a root span linked to the span that was current on the thread
 * that started the run ({@link #runStarted}); those span contexts are kept until
 * {@link #runFinished}, at most {@value #MAX_OPEN_RUNS} of them (the oldest forgotten first, should
 * a caller never finish its runs).
 */
final class MemorySpans implements MemoryEventListener {

    static final int MAX_OPEN_RUNS = 1024;

    private final Tracer tracer;
    private final DoubleHistogram duration;
    private final boolean captureContent;
    private final SecretRedactor redactor;
    private final Map<String, SpanContext> runs = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, SpanContext> eldest) {
            return size() > MAX_OPEN_RUNS;
        }
    };

    MemorySpans(OpenTelemetry openTelemetry, boolean captureContent, SecretRedactor redactor) {
        this.tracer = GenAi.tracer(openTelemetry);
        this.duration = GenAi.operationDuration(GenAi.meter(openTelemetry));
        this.captureContent = captureContent;
        this.redactor = Objects.requireNonNull(redactor, "redactor");
    }

    @Override
    public void runStarted(String runId) {
        SpanContext starter = Span.current().getSpanContext();
        if (starter.isValid()) {
            synchronized (runs) {
                runs.put(runId, starter);
            }
        }
    }

    @Override
    public void runFinished(String runId) {
        synchronized (runs) {
            runs.remove(runId);
        }
    }

    @Override
    public void memoryOperation(MemoryOperation operation) {
        String name = operation.type().operationName();
        SpanBuilder builder = tracer.spanBuilder(name).setSpanKind(SpanKind.INTERNAL)
                .setStartTimestamp(operation.startedAt())
                .setAttribute(GenAi.OPERATION_NAME, name)
                .setAttribute(GenAi.MEMORY_STORE_ID, operation.storeId());
        if (operation.runId().isPresent()) {
            builder.setNoParent();
            starter(operation.runId().get()).ifPresent(builder::addLink);
        } else {
            builder.setParent(Context.current());
        }
        Span span = builder.startSpan();
        operation.recordId().ifPresent(id -> span.setAttribute(GenAi.MEMORY_RECORD_ID, id));
        span.setAttribute(GenAi.MEMORY_RECORD_COUNT, (long) operation.recordCount());
        span.setAttribute(GenAi.MNEMO_MEMORY_SOURCE, operation.source());
        if (captureContent) {
            operation.query().ifPresent(query -> span.setAttribute(GenAi.MEMORY_QUERY_TEXT, redactor.redact(query)));
            if (!operation.records().isEmpty()) {
                span.setAttribute(GenAi.MEMORY_RECORDS, recordsJson(operation.records()));
            }
        }
        AttributesBuilder measured = Attributes.builder().put(GenAi.OPERATION_NAME, name);
        operation.errorType().ifPresent(error -> {
            span.setAttribute(GenAi.ERROR_TYPE, error);
            span.setStatus(StatusCode.ERROR);
            measured.put(GenAi.ERROR_TYPE, error);
        });
        span.end(operation.startedAt().plus(operation.elapsed()));
        duration.record(operation.elapsed().toNanos() / 1e9, measured.build(), Context.current().with(span));
    }

    private Optional<SpanContext> starter(String runId) {
        synchronized (runs) {
            return Optional.ofNullable(runs.get(runId));
        }
    }

    /**
     * The records as the conventions' memory-records JSON (an array of objects with a
     * {@code content}), each content redacted; a span attribute may hold it as a JSON string.
     */
    private String recordsJson(List<String> records) {
        StringBuilder json = new StringBuilder("[");
        for (String record : records) {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append("{\"content\":");
            quote(redactor.redact(record), json);
            json.append('}');
        }
        return json.append(']').toString();
    }

    private static void quote(String text, StringBuilder json) {
        json.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
