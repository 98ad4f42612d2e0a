package dev.mnemo.opentelemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.List;
import java.util.Optional;

/** The real OpenTelemetry SDK, exporting to memory: what the tests read spans and metrics from. */
final class TestTelemetry implements AutoCloseable {

    final InMemorySpanExporter spans = InMemorySpanExporter.create();
    final InMemoryMetricReader metrics = InMemoryMetricReader.create();
    final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
            .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .build();

    OpenTelemetry openTelemetry() {
        return sdk;
    }

    List<SpanData> finishedSpans() {
        return spans.getFinishedSpanItems();
    }

    List<SpanData> spansNamed(String name) {
        return finishedSpans().stream().filter(span -> span.getName().equals(name)).toList();
    }

    Optional<MetricData> metric(String name) {
        return metrics.collectAllMetrics().stream().filter(metric -> metric.getName().equals(name)).findFirst();
    }

    List<HistogramPointData> histogramPoints(String name) {
        return metric(name).map(metric -> List.copyOf(metric.getHistogramData().getPoints())).orElse(List.of());
    }

    @Override
    public void close() {
        sdk.close();
    }
}
