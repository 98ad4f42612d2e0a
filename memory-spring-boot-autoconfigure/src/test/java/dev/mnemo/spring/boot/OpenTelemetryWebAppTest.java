package dev.mnemo.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.springai.MnemoAdvisor;
import dev.mnemo.testkit.ChatScript;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * A Spring Boot web application with an {@code OpenTelemetry} bean and a server span around each
 * request (as an instrumentation makes them): the memory its {@code ChatClient} reads, through the
 * advisor's instructions and the model's memory tool calls, shows as {@code search_memory} spans
 * under that request's span. Nothing of Mnemo's telemetry is configured by the application.
 */
class OpenTelemetryWebAppTest {

    static final String SUMMARY = "v1\nReleases are cut from the release branch on Thursdays.";
    static final InMemorySpanExporter SPANS = InMemorySpanExporter.create();
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    static Path home;

    static ChatScript script;
    static OpenAiWireServer server;
    static ConfigurableApplicationContext context;

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean(destroyMethod = "close")
        OpenTelemetrySdk openTelemetry() {
            return OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(SPANS)).build()).build();
        }

        /** A server span per request, current while the request is handled. */
        @Bean
        Filter requestSpans(OpenTelemetry openTelemetry) {
            return (request, response, chain) -> {
                Span span = openTelemetry.getTracer("test-http-server")
                        .spanBuilder(((HttpServletRequest) request).getMethod() + " "
                                + ((HttpServletRequest) request).getRequestURI())
                        .setSpanKind(SpanKind.SERVER).startSpan();
                try (Scope ignored = span.makeCurrent()) {
                    chain.doFilter(request, response);
                } finally {
                    span.end();
                }
            };
        }

        @Bean
        AskController askController(ChatClient.Builder chat, MnemoAdvisor memory) {
            return new AskController(chat.defaultAdvisors(memory).build());
        }
    }

    @RestController
    static class AskController {
        private final ChatClient chat;

        AskController(ChatClient chat) {
            this.chat = chat;
        }

        @PostMapping("/ask")
        String ask(@RequestBody String question) {
            return chat.prompt().user(question).advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "web-1")).call()
                    .content();
        }
    }

    @BeforeAll
    static void start() throws Exception {
        script = ChatScript.create();
        server = OpenAiWireServer.start(script);
        Files.createDirectories(home.resolve("memories"));
        Files.writeString(home.resolve("memories/memory_summary.md"), SUMMARY);
        context = new SpringApplicationBuilder(App.class).properties("server.port=0", "spring.main.banner-mode=off",
                "spring.ai.openai.base-url=" + server.baseUrl(), "spring.ai.openai.api-key=test-key",
                "spring.ai.openai.chat.model=gpt-test", "spring.ai.openai.max-retries=0",
                "mnemo.tenancy=shared", "mnemo.home=" + home, "mnemo.pipeline.schedule.enabled=false").run();
    }

    @AfterAll
    static void stop() {
        if (context != null) {
            context.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void memoryReadForARequest_showsAsSearchMemorySpans_underTheRequestsSpan_withoutTheMemoryText() throws Exception {
        script.enqueue(WireReply.toolCall("call_1", "memories_read", "{\"path\":\"memory_summary.md\"}"));
        script.enqueue(WireReply.text("On Thursdays."));

        HttpResponse<String> answer = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + context.getEnvironment().getProperty("local.server.port") + "/ask"))
                .POST(HttpRequest.BodyPublishers.ofString("When do we release?")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("On Thursdays.");
        List<SpanData> finished = SPANS.getFinishedSpanItems();
        SpanData request = finished.stream().filter(span -> span.getName().equals("POST /ask")).findFirst()
                .orElseThrow();
        List<SpanData> memory = finished.stream().filter(span -> span.getName().equals("search_memory")).toList();
        assertThat(memory).extracting(span -> span.getAttributes().get(AttributeKey.stringKey("mnemo.memory.source")))
                .contains("instructions", "memories_read");
        assertThat(memory).allSatisfy(span -> {
            assertThat(span.getParentSpanId()).isEqualTo(request.getSpanId());
            assertThat(span.getTraceId()).isEqualTo(request.getTraceId());
            assertThat(span.getKind()).isEqualTo(SpanKind.INTERNAL);
            assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.memory.store.id")))
                    .isEqualTo(home.getFileName().toString());
            assertThat(span.getAttributes().asMap().values()).allSatisfy(
                    value -> assertThat(value.toString()).doesNotContain("Thursdays"));
        });
    }
}
