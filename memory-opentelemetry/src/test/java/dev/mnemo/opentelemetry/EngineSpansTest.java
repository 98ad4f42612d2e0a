package dev.mnemo.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryTools;
import dev.mnemo.testkit.MnemoTempHome;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A real engine (SQLite store and git workspace in a temp home, the scripted model) with the
 * telemetry listener: what its read path does under a request's span shows in that span's trace.
 */
class EngineSpansTest {

    private static final String SECRET = "sk-proj-Zyxwvutsrqponmlkjihgfedcba9876543210";
    private static final String SUMMARY = "v1\nDeploys use ./deploy.sh with token " + SECRET + "\n";

    private final TestTelemetry otel = new TestTelemetry();
    private final TestTelemetry capturing = new TestTelemetry();

    @RegisterExtension
    final MnemoTempHome mnemo = MnemoTempHome.builder()
            .engine(builder -> builder.listener(MnemoTelemetry.listener(otel.openTelemetry()))
                    .listener(MnemoTelemetry.listener(capturing.openTelemetry(), true)))
            .build();

    @BeforeEach
    void writeSummary() throws IOException {
        Path memories = Files.createDirectories(mnemo.home().resolve("memories"));
        Files.writeString(memories.resolve("memory_summary.md"), SUMMARY);
        Files.writeString(memories.resolve("MEMORY.md"), "# Deploys\n- ./deploy.sh\n");
    }

    @AfterEach
    void closeSdks() {
        otel.close();
        capturing.close();
    }

    @Test
    void buildingInstructions_underARequestSpan_isAChildSearchMemorySpan_namingTheHomeNotItsPath() {
        Span request = requestSpan();
        try (Scope ignored = request.makeCurrent()) {
            assertThat(mnemo.engine().buildDeveloperInstructions()).contains("./deploy.sh");
        } finally {
            request.end();
        }

        SpanData span = single(otel, "search_memory");
        assertThat(span.getParentSpanContext()).isEqualTo(request.getSpanContext());
        assertThat(span.getTraceId()).isEqualTo(request.getSpanContext().getTraceId());
        assertThat(span.getAttributes().get(AttributeKey.stringKey("mnemo.memory.source"))).isEqualTo("instructions");
        assertThat(span.getAttributes().get(AttributeKey.longKey("gen_ai.memory.record.count"))).isPositive();
        assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.memory.store.id")))
                .isEqualTo(mnemo.home().getFileName().toString()).doesNotContain("/");
        assertThat(otel.histogramPoints("gen_ai.client.operation.duration")).isNotEmpty();
    }

    @Test
    void memoriesRead_isASearchMemorySpanForTheFile_withoutItsContent() {
        Span request = requestSpan();
        try (Scope ignored = request.makeCurrent()) {
            assertThat(mnemo.engine().tools().call(MemoryTools.READ, "{\"path\":\"memory_summary.md\"}"))
                    .contains("./deploy.sh");
        } finally {
            request.end();
        }

        SpanData span = single(otel, "search_memory");
        assertThat(span.getParentSpanContext()).isEqualTo(request.getSpanContext());
        assertThat(span.getAttributes().get(AttributeKey.stringKey("mnemo.memory.source"))).isEqualTo("memories_read");
        assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.memory.record.id")))
                .isEqualTo("memory_summary.md");
        assertThat(span.getAttributes().asMap().values()).allSatisfy(
                value -> assertThat(value.toString()).doesNotContain("deploy.sh", SECRET));
    }

    @Test
    void capturedContent_ofARead_isRedacted() {
        mnemo.engine().tools().call(MemoryTools.READ, "{\"path\":\"memory_summary.md\"}");

        String records = single(capturing, "search_memory").getAttributes()
                .get(AttributeKey.stringKey("gen_ai.memory.records"));
        assertThat(records).contains("./deploy.sh").contains("[REDACTED_SECRET]").doesNotContain(SECRET);
    }

    @Test
    void aFailedRead_isAnErrorSpan() {
        mnemo.engine().tools().call(MemoryTools.READ, "{\"path\":\"no-such-file.md\"}");

        SpanData span = single(otel, "search_memory");
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(span.getAttributes().get(AttributeKey.stringKey("error.type"))).isEqualTo("tool_error");
    }

    @Test
    void aNote_isACreateMemorySpan() {
        Span request = requestSpan();
        try (Scope ignored = request.makeCurrent()) {
            mnemo.engine().tools().call(MemoryTools.ADD_AD_HOC_NOTE,
                    "{\"filename\":\"2026-03-02T09-00-00-deploys.md\",\"note\":\"deploys need the VPN\"}");
        } finally {
            request.end();
        }

        SpanData span = single(otel, "create_memory");
        assertThat(span.getParentSpanContext()).isEqualTo(request.getSpanContext());
        assertThat(span.getAttributes().get(AttributeKey.longKey("gen_ai.memory.record.count"))).isEqualTo(1);
        assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.memory.record.id")))
                .endsWith("2026-03-02T09-00-00-deploys.md");
    }

    private Span requestSpan() {
        return otel.openTelemetry().getTracer("test").spanBuilder("POST /chat").startSpan();
    }

    private static SpanData single(TestTelemetry telemetry, String name) {
        List<SpanData> spans = telemetry.spansNamed(name);
        assertThat(spans).as("%s spans among %s", name, telemetry.finishedSpans()).hasSize(1);
        return spans.get(0);
    }
}
