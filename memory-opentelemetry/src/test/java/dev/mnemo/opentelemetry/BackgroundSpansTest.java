package dev.mnemo.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.RecordedSession;
import dev.mnemo.SessionContext;
import dev.mnemo.testkit.MnemoTempHome;
import dev.mnemo.testkit.ScriptedLanguageModel;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A real engine's background pipeline with the telemetry listener and a traced model: its runs'
 * spans are roots linked to the span that started the run, a forget is a child of its caller's
 * span, and the pipeline's model calls are chat spans.
 */
class BackgroundSpansTest {

    private final TestTelemetry otel = new TestTelemetry();
    private final ScriptedLanguageModel model = ScriptedLanguageModel.builder()
            .extractionReply("- deploys go through ./deploy.sh", "talked about deploys", "deploys").build();

    @RegisterExtension
    final MnemoTempHome mnemo = MnemoTempHome.builder().model(model)
            .engine(builder -> builder.model(MnemoTelemetry.languageModel(model, otel.openTelemetry(), "openai", "scripted"))
                    .listener(MnemoTelemetry.listener(otel.openTelemetry())))
            .build();

    @AfterEach
    void closeSdk() {
        otel.close();
    }

    @Test
    void phase1AndPhase2_startedUnderASpan_areRootSpansLinkedToIt() {
        String thread = recordIdleConversation();
        Span starter = span("POST /admin/consolidate");
        try (Scope ignored = starter.makeCurrent()) {
            mnemo.engine().admin().runPhase1("worker-1");
            mnemo.engine().admin().runPhase2();
        } finally {
            starter.end();
        }

        SpanData created = single("create_memory");
        assertThat(created.getParentSpanContext().isValid()).isFalse();
        assertThat(created.getLinks()).extracting(LinkData::getSpanContext).containsExactly(starter.getSpanContext());
        assertThat(created.getAttributes().get(AttributeKey.stringKey("mnemo.memory.source"))).isEqualTo("stage1_output");
        assertThat(created.getAttributes().get(AttributeKey.stringKey("gen_ai.memory.record.id"))).isEqualTo(thread);
        assertThat(created.getAttributes().get(AttributeKey.stringKey("gen_ai.memory.records"))).isNull();

        SpanData updated = single("update_memory");
        assertThat(updated.getParentSpanContext().isValid()).isFalse();
        assertThat(updated.getLinks()).extracting(LinkData::getSpanContext).containsExactly(starter.getSpanContext());
        assertThat(updated.getAttributes().get(AttributeKey.longKey("gen_ai.memory.record.count"))).isPositive();
        assertThat(updated.getAttributes().get(AttributeKey.stringKey("gen_ai.memory.store.id")))
                .isEqualTo(mnemo.home().getFileName().toString());
    }

    @Test
    void pipelinesModelCalls_areClientChatSpans_withTheirTokenUsage() {
        recordIdleConversation();

        mnemo.engine().admin().runPhase1("worker-1");

        List<SpanData> chats = otel.finishedSpans().stream().filter(span -> span.getName().startsWith("chat")).toList();
        assertThat(chats).isNotEmpty().allSatisfy(span -> {
            assertThat(span.getKind()).isEqualTo(SpanKind.CLIENT);
            assertThat(span.getName()).isEqualTo(
                    "chat " + span.getAttributes().get(AttributeKey.stringKey("gen_ai.request.model")));
            assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.provider.name"))).isEqualTo("openai");
            assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.output.type"))).isEqualTo("json");
            assertThat(span.getAttributes().get(AttributeKey.longKey("gen_ai.usage.input_tokens")))
                    .isEqualTo(ScriptedLanguageModel.DEFAULT_USAGE.inputTokens());
        });
        assertThat(otel.metric("gen_ai.client.token.usage")).isPresent();
    }

    @Test
    void forgettingAConversation_isADeleteMemorySpanUnderTheCallersSpan() {
        String thread = recordIdleConversation();
        mnemo.engine().admin().runPhase1("worker-1");
        Span request = span("DELETE /conversations");
        try (Scope ignored = request.makeCurrent()) {
            mnemo.engine().threads().delete(thread);
        } finally {
            request.end();
        }

        SpanData deleted = single("delete_memory");
        assertThat(deleted.getParentSpanContext()).isEqualTo(request.getSpanContext());
        assertThat(deleted.getAttributes().get(AttributeKey.stringKey("gen_ai.memory.record.id"))).isEqualTo(thread);
        assertThat(deleted.getAttributes().get(AttributeKey.stringKey("mnemo.memory.source"))).isEqualTo("forget");
    }

    private String recordIdleConversation() {
        SessionContext context = SessionContext.root("0198f0a2-7c4e-7d10-8000-00000000d001");
        try (RecordedSession session = mnemo.engine().sessions().start(context)) {
            session.userMessage("how do we deploy?");
            session.assistantMessage("Run ./deploy.sh from the release branch.");
        }
        mnemo.clock().advance(Duration.ofHours(7));
        return context.threadId();
    }

    private Span span(String name) {
        return otel.openTelemetry().getTracer("test").spanBuilder(name).startSpan();
    }

    private SpanData single(String name) {
        List<SpanData> spans = otel.spansNamed(name);
        assertThat(spans).as("%s spans among %s", name, otel.finishedSpans()).hasSize(1);
        return spans.get(0);
    }
}
