package dev.mnemo.benchmarks;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemorySession;
import dev.mnemo.MemoryTools;
import dev.mnemo.SessionContext;
import dev.mnemo.opentelemetry.MnemoTelemetry;
import dev.mnemo.spi.MemoryEventListener;
import dev.mnemo.spi.MemoryOperation;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.MemoryMode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.export.CollectionRegistration;
import io.opentelemetry.sdk.metrics.export.MetricReader;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What memory-opentelemetry's listener ({@link MnemoTelemetry#listener(OpenTelemetry)}) costs a
 * turn ({@code otel_listener_noop}, {@code otel_listener_sdk}): the memory operations one real turn
 * reports, handed to the listener as the engine hands them, on a no-op OpenTelemetry and on the SDK.
 *
 * <p>The turn is taken in setup from an engine whose listener keeps what it hears: the developer
 * instructions built (the 40 KB summary), a {@code memories_read} and a {@code memories_search},
 * three {@code search_memory} operations. The SDK traces every span ({@code SimpleSpanProcessor},
 * so each ended span is turned into span data and exported on the caller's thread) to an exporter
 * that drops it, and keeps {@code gen_ai.client.operation.duration} in a meter provider whose
 * reader never collects. No span is current, so each operation is a root span. Reference: the
 * same operations handed to a listener that does nothing (the interface's defaults).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class OpenTelemetryListenerBenchmark {

    private List<MemoryOperation> turn;
    private OpenTelemetrySdk sdk;
    private final DroppingExporter exported = new DroppingExporter();
    private MemoryEventListener noop;
    private MemoryEventListener traced;
    private final MemoryEventListener nothing = new MemoryEventListener() {};

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        turn = oneTurn();
        noop = MnemoTelemetry.listener(OpenTelemetry.noop());
        sdk = OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exported))
                        .build())
                .setMeterProvider(SdkMeterProvider.builder().registerMetricReader(new UncollectedReader()).build())
                .build();
        traced = MnemoTelemetry.listener(sdk);
        tell(traced, turn);
        if (exported.spans.sum() != turn.size()) {
            throw new IllegalStateException("the SDK exported " + exported.spans.sum() + " spans for "
                    + turn.size() + " operations");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        sdk.close();
    }

    /** One turn's operations, spans on a no-op OpenTelemetry. */
    @Benchmark
    public void noop() {
        tell(noop, turn);
    }

    /** One turn's operations, spans and the duration metric on the SDK. */
    @Benchmark
    public void sdk() {
        tell(traced, turn);
    }

    /** Reference: one turn's operations to a listener that does nothing with them. */
    @Benchmark
    public void noopReference(Blackhole hole) {
        tell(nothing, turn);
        hole.consume(nothing);
    }

    private static void tell(MemoryEventListener listener, List<MemoryOperation> operations) {
        for (MemoryOperation operation : operations) {
            listener.memoryOperation(operation);
        }
    }

    /** The memory operations of one turn on a real engine: instructions, a read and a search. */
    private static List<MemoryOperation> oneTurn() throws IOException {
        Path home = BenchSupport.scratch("otel-listener");
        BenchSupport.write(home.resolve("memories/memory_summary.md"), ReadPathBenchmarks.summaryText());
        BenchSupport.write(home.resolve("memories/MEMORY.md"), "# Memory\n\n" + ReadPathBenchmarks.summaryText());
        // The read path's operations only: the engine's startup run may report its own (a consolidation).
        List<MemoryOperation> heard = new CopyOnWriteArrayList<>();
        MemoryEventListener keep = new MemoryEventListener() {
            @Override
            public void memoryOperation(MemoryOperation operation) {
                if (operation.runId().isEmpty()) {
                    heard.add(operation);
                }
            }
        };
        try (MemoryEngine engine = MemoryEngine.builder().home(home).model(BenchModel.instant()).listener(keep).build();
                MemorySession session = engine.openSession(SessionContext.root("otel-turn"))) {
            session.developerInstructions();
            session.callTool("c1", MemoryTools.READ, "{\"path\":\"memory_summary.md\"}");
            session.callTool("c2", MemoryTools.SEARCH, "{\"queries\":[\"hermetic build\"]}");
        } finally {
            BenchSupport.deleteRecursively(home);
        }
        if (heard.size() != 3 || heard.stream().anyMatch(o -> o.type() != MemoryOperation.Type.SEARCH)) {
            throw new IllegalStateException("the setup turn reported other operations than expected: "
                    + heard.stream().map(o -> o.type() + " " + o.source()).toList());
        }
        return List.copyOf(heard);
    }

    /** Counts the spans it is given and keeps none. */
    private static final class DroppingExporter implements SpanExporter {
        final LongAdder spans = new LongAdder();

        @Override
        public CompletableResultCode export(Collection<SpanData> batch) {
            spans.add(batch.size());
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode flush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }

    /** A metric reader that is never asked to collect: measurements are aggregated, never exported. */
    private static final class UncollectedReader implements MetricReader {
        @Override
        public void register(CollectionRegistration registration) {}

        @Override
        public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
            return AggregationTemporality.CUMULATIVE;
        }

        @Override
        public MemoryMode getMemoryMode() {
            return MemoryMode.IMMUTABLE_DATA;
        }

        @Override
        public CompletableResultCode forceFlush() {
            return CompletableResultCode.ofSuccess();
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }
}
