package dev.mnemo.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryTools;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The OpenTelemetry part of the auto-configuration: a listener on the engine only with
 * memory-opentelemetry on the class path and an {@code OpenTelemetry} bean; content captured only
 * with {@code mnemo.telemetry.capture-content=true}.
 */
class OpenTelemetryConfigurationTest {

    @TempDir
    Path home;

    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(spans)).build())
            .build();

    @AfterEach
    void closeSdk() {
        sdk.close();
    }

    ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(MnemoAutoConfiguration.class))
                .withPropertyValues("mnemo.home=" + home, "mnemo.tenancy=shared");
    }

    @Test
    void withAnOpenTelemetryBean_theEnginesMemoryOperationsAreSpans_withoutContent() {
        runner().withBean(OpenTelemetry.class, () -> sdk).run(context -> {
            assertThat(context).hasNotFailed().hasBean("mnemoOpenTelemetryListener");

            context.getBean(MemoryEngine.class).tools().call(MemoryTools.SEARCH, "{\"queries\":[\"deploy\"]}");

            SpanData span = spans.getFinishedSpanItems().get(0);
            assertThat(span.getName()).isEqualTo("search_memory");
            assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.memory.query.text"))).isNull();
        });
    }

    @Test
    void captureContent_addsTheQuery() {
        runner().withBean(OpenTelemetry.class, () -> sdk).withPropertyValues("mnemo.telemetry.capture-content=true")
                .run(context -> {
                    context.getBean(MemoryEngine.class).tools().call(MemoryTools.SEARCH, "{\"queries\":[\"deploy\"]}");

                    assertThat(spans.getFinishedSpanItems().get(0).getAttributes()
                            .get(AttributeKey.stringKey("gen_ai.memory.query.text"))).isEqualTo("deploy");
                });
    }

    @Test
    void withoutAnOpenTelemetryBean_noListener() {
        runner().run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("mnemoOpenTelemetryListener"));
    }

    @Test
    void withoutOpenTelemetryOnTheClassPath_theApplicationStartsWithoutTheListener() {
        runner().withClassLoader(new FilteredClassLoader("io.opentelemetry.", "dev.mnemo.opentelemetry."))
                .run(context -> {
                    assertThat(context).hasNotFailed().doesNotHaveBean("mnemoOpenTelemetryListener");
                    assertThat(context.getBean(MemoryEngine.class)).isNotNull();
                });
    }
}
