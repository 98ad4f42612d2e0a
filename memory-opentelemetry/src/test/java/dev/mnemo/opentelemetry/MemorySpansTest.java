package dev.mnemo.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryOperation;
import dev.mnemo.spi.MemoryOperation.Type;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MemorySpansTest {

    private static final Instant STARTED = Instant.parse("2026-03-02T09:00:00Z");
    private static final String OPENAI_KEY = "sk-proj-Abcdefghijklmnopqrstuvwxyz0123456789";
    private static final String GITHUB_TOKEN = "ghp_" + "a1b2c3d4e5".repeat(4);

    private final TestTelemetry otel = new TestTelemetry();

    @AfterEach
    void closeSdk() {
        otel.close();
    }

    @Test
    void searchSpan_isInternalChildOfTheCurrentSpan_withTheConventionsAttributes() {
        MemoryEventListener listener = MnemoTelemetry.listener(otel.openTelemetry());
        Span request = otel.openTelemetry().getTracer("test").spanBuilder("GET /chat").startSpan();
        try (Scope ignored = request.makeCurrent()) {
            listener.memoryOperation(operation(Type.SEARCH, "memories_read", Optional.of("MEMORY.md"), 1,
                    Optional.empty(), Optional.empty()));
        } finally {
            request.end();
        }

        SpanData span = only("search_memory");
        assertThat(span.getKind()).isEqualTo(SpanKind.INTERNAL);
        assertThat(span.getParentSpanContext()).isEqualTo(request.getSpanContext());
        assertThat(span.getAttributes().asMap()).containsOnly(
                entry("gen_ai.operation.name", "search_memory"),
                entry("gen_ai.memory.store.id", "acme"),
                entry("gen_ai.memory.record.id", "MEMORY.md"),
                Map.entry(AttributeKey.longKey("gen_ai.memory.record.count"), 1L),
                entry("mnemo.memory.source", "memories_read"));
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        assertThat(span.getInstrumentationScopeInfo().getName()).isEqualTo("dev.mnemo");
        assertThat(span.getInstrumentationScopeInfo().getVersion()).isNotBlank().doesNotContain("${");
    }

    @Test
    void spanCoversTheOperationsOwnStartAndDuration() {
        MnemoTelemetry.listener(otel.openTelemetry()).memoryOperation(operation(Type.CREATE, "memories_add_ad_hoc_note",
                Optional.of("extensions/ad_hoc/notes/n.md"), 1, Optional.empty(), Optional.empty()));

        SpanData span = only("create_memory");
        assertThat(span.getStartEpochNanos()).isEqualTo(TimeUnit.SECONDS.toNanos(STARTED.getEpochSecond()));
        assertThat(span.getEndEpochNanos() - span.getStartEpochNanos()).isEqualTo(Duration.ofMillis(250).toNanos());
    }

    @Test
    void eachOperationTypeIsASpanNamedByItsOperation() {
        MemoryEventListener listener = MnemoTelemetry.listener(otel.openTelemetry());
        for (Type type : Type.values()) {
            listener.memoryOperation(operation(type, "x", Optional.empty(), 2, Optional.empty(), Optional.empty()));
        }

        assertThat(otel.finishedSpans()).extracting(SpanData::getName)
                .containsExactly("search_memory", "create_memory", "update_memory", "delete_memory");
        assertThat(otel.finishedSpans()).allSatisfy(span -> assertThat(span.getAttributes()
                .get(AttributeKey.stringKey("gen_ai.operation.name"))).isEqualTo(span.getName()));
    }

    @Test
    void clearingAHome_isADeleteWithoutRecordId() {
        MnemoTelemetry.listener(otel.openTelemetry()).memoryOperation(
                operation(Type.DELETE, "clear", Optional.empty(), 0, Optional.empty(), Optional.empty()));

        SpanData span = only("delete_memory");
        assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.memory.record.id"))).isNull();
        assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.memory.store.id"))).isEqualTo("acme");
    }

    @Test
    void failedOperation_hasErrorTypeAndErrorStatus_inSpanAndMetric() {
        MnemoTelemetry.listener(otel.openTelemetry()).memoryOperation(operation(Type.SEARCH, "memories_read",
                Optional.of("missing.md"), 0, Optional.empty(), Optional.of("tool_error")));

        SpanData span = only("search_memory");
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(span.getAttributes().get(AttributeKey.stringKey("error.type"))).isEqualTo("tool_error");
        assertThat(otel.histogramPoints("gen_ai.client.operation.duration")).singleElement()
                .satisfies(point -> assertThat(point.getAttributes()).isEqualTo(Attributes.builder()
                        .put("gen_ai.operation.name", "search_memory").put("error.type", "tool_error").build()));
    }

    @Test
    void durationMetric_isRecordedInSeconds_withoutTheStoreId() {
        MemoryEventListener listener = MnemoTelemetry.listener(otel.openTelemetry());
        listener.memoryOperation(operation(Type.SEARCH, "instructions", Optional.empty(), 3, Optional.empty(),
                Optional.empty()));
        listener.memoryOperation(operation(Type.SEARCH, "memories_search", Optional.empty(), 1, Optional.empty(),
                Optional.empty()));

        assertThat(otel.metric("gen_ai.client.operation.duration")).hasValueSatisfying(
                metric -> assertThat(metric.getUnit()).isEqualTo("s"));
        HistogramPointData point = otel.histogramPoints("gen_ai.client.operation.duration").get(0);
        assertThat(point.getAttributes()).isEqualTo(Attributes.builder()
                .put("gen_ai.operation.name", "search_memory").build());
        assertThat(point.getCount()).isEqualTo(2);
        assertThat(point.getSum()).isEqualTo(0.5);
    }

    @Test
    void backgroundOperation_isARootSpanLinkedToTheSpanThatStartedItsRun() {
        MemoryEventListener listener = MnemoTelemetry.listener(otel.openTelemetry());
        Span starter = otel.openTelemetry().getTracer("test").spanBuilder("POST /sessions").startSpan();
        try (Scope ignored = starter.makeCurrent()) {
            listener.runStarted("run-1");
        } finally {
            starter.end();
        }
        Span unrelated = otel.openTelemetry().getTracer("test").spanBuilder("executor work").startSpan();
        try (Scope ignored = unrelated.makeCurrent()) {
            listener.memoryOperation(background(Type.CREATE, "stage1_output", "run-1"));
        } finally {
            unrelated.end();
        }

        SpanData span = only("create_memory");
        assertThat(span.getParentSpanContext().isValid()).isFalse();
        assertThat(span.getLinks()).singleElement()
                .satisfies(link -> assertThat(link.getSpanContext()).isEqualTo(starter.getSpanContext()));
    }

    @Test
    void backgroundOperation_afterItsRunFinished_orOfARunStartedOutsideAnySpan_hasNoLink() {
        MemoryEventListener listener = MnemoTelemetry.listener(otel.openTelemetry());
        Span starter = otel.openTelemetry().getTracer("test").spanBuilder("start").startSpan();
        try (Scope ignored = starter.makeCurrent()) {
            listener.runStarted("run-1");
        } finally {
            starter.end();
        }
        listener.runFinished("run-1");
        listener.runStarted("run-2");
        listener.memoryOperation(background(Type.UPDATE, "consolidation", "run-1"));
        listener.memoryOperation(background(Type.UPDATE, "consolidation", "run-2"));

        assertThat(otel.spansNamed("update_memory")).hasSize(2)
                .allSatisfy(span -> assertThat(span.getLinks()).isEmpty());
    }

    @Test
    void openRunsAreBounded_theOldestForgottenFirst() {
        MemoryEventListener listener = MnemoTelemetry.listener(otel.openTelemetry());
        Span starter = otel.openTelemetry().getTracer("test").spanBuilder("start").startSpan();
        try (Scope ignored = starter.makeCurrent()) {
            for (int run = 0; run <= MemorySpans.MAX_OPEN_RUNS; run++) {
                listener.runStarted("run-" + run);
            }
        } finally {
            starter.end();
        }
        listener.memoryOperation(background(Type.CREATE, "stage1_output", "run-0"));
        listener.memoryOperation(background(Type.CREATE, "stage1_output", "run-1"));

        List<SpanData> spans = otel.spansNamed("create_memory");
        assertThat(spans.get(0).getLinks()).isEmpty();
        assertThat(spans.get(1).getLinks()).extracting(link -> link.getSpanContext())
                .containsExactly(starter.getSpanContext());
    }

    @Test
    void noQueryOrRecordContent_byDefault() {
        MnemoTelemetry.listener(otel.openTelemetry()).memoryOperation(operation(Type.SEARCH, "memories_search",
                Optional.empty(), 1, Optional.of("deploy key " + OPENAI_KEY), Optional.empty(),
                List.of("the staging password is hunter2")));

        SpanData span = only("search_memory");
        assertThat(span.getAttributes().asMap().keySet()).extracting(AttributeKey::getKey)
                .doesNotContain("gen_ai.memory.query.text", "gen_ai.memory.records");
        assertThat(span.getAttributes().asMap().values()).allSatisfy(value -> assertThat(value.toString())
                .doesNotContain("deploy key", "hunter2", OPENAI_KEY));
    }

    @Test
    void capturedContent_isRedacted() {
        MnemoTelemetry.listener(otel.openTelemetry(), true).memoryOperation(operation(Type.SEARCH,
                "memories_search", Optional.empty(), 1, Optional.of("deploy key " + OPENAI_KEY), Optional.empty(),
                List.of("push with " + GITHUB_TOKEN + "\nthen \"tag\"")));

        SpanData span = only("search_memory");
        assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.memory.query.text")))
                .isEqualTo("deploy key [REDACTED_SECRET]");
        assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.memory.records")))
                .isEqualTo("[{\"content\":\"push with [REDACTED_SECRET]\\nthen \\\"tag\\\"\"}]");
    }

    @Test
    void capturedContent_goesThroughTheGivenRedactor() {
        MnemoTelemetry.listener(otel.openTelemetry(), true, text -> text.replace("acme", "[CUSTOMER]"))
                .memoryOperation(operation(Type.SEARCH, "memories_search", Optional.empty(), 0,
                        Optional.of("acme invoices"), Optional.empty()));

        assertThat(only("search_memory").getAttributes().get(AttributeKey.stringKey("gen_ai.memory.query.text")))
                .isEqualTo("[CUSTOMER] invoices");
    }

    private SpanData only(String name) {
        assertThat(otel.finishedSpans()).extracting(SpanData::getName).contains(name);
        List<SpanData> named = otel.spansNamed(name);
        assertThat(named).hasSize(1);
        return named.get(0);
    }

    private static Map.Entry<AttributeKey<?>, Object> entry(String key, String value) {
        return Map.entry(AttributeKey.stringKey(key), value);
    }

    private static MemoryOperation operation(Type type, String source, Optional<String> recordId, int count,
            Optional<String> query, Optional<String> error) {
        return operation(type, source, recordId, count, query, error, List.of());
    }

    private static MemoryOperation operation(Type type, String source, Optional<String> recordId, int count,
            Optional<String> query, Optional<String> error, List<String> records) {
        return new MemoryOperation(type, source, "acme", recordId, count, query, records, STARTED,
                Duration.ofMillis(250), error, Optional.empty());
    }

    private static MemoryOperation background(Type type, String source, String runId) {
        return new MemoryOperation(type, source, "acme", Optional.empty(), 1, Optional.empty(), List.of(), STARTED,
                Duration.ofMillis(250), Optional.empty(), Optional.of(runId));
    }
}
