package dev.mnemo.opentelemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.mnemo.llm.FinishReason;
import dev.mnemo.llm.ForwardingLanguageModel;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.OutputSchema;
import dev.mnemo.llm.RateLimitSnapshot;
import dev.mnemo.llm.TokenCounter;
import dev.mnemo.llm.TokenUsage;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ModelSpansTest {

    private static final TokenUsage USAGE = new TokenUsage(120, 40, 30, 10);

    private final TestTelemetry otel = new TestTelemetry();

    @AfterEach
    void closeSdk() {
        otel.close();
    }

    @Test
    void call_isAClientChatSpan_namedForTheRequestedModel_withUsage() {
        LanguageModel traced = MnemoTelemetry.languageModel(answering(ModelResponse.ofText("hi", USAGE)),
                otel.openTelemetry(), "openai", "gpt-default");
        Span request = otel.openTelemetry().getTracer("test").spanBuilder("GET /chat").startSpan();
        try (Scope ignored = request.makeCurrent()) {
            traced.respond(request("gpt-4.1-mini"));
        } finally {
            request.end();
        }

        SpanData span = otel.spansNamed("chat gpt-4.1-mini").get(0);
        assertThat(span.getKind()).isEqualTo(SpanKind.CLIENT);
        assertThat(span.getParentSpanContext()).isEqualTo(request.getSpanContext());
        Attributes attributes = span.getAttributes();
        assertThat(attributes.get(AttributeKey.stringKey("gen_ai.operation.name"))).isEqualTo("chat");
        assertThat(attributes.get(AttributeKey.stringKey("gen_ai.provider.name"))).isEqualTo("openai");
        assertThat(attributes.get(AttributeKey.stringKey("gen_ai.request.model"))).isEqualTo("gpt-4.1-mini");
        assertThat(attributes.get(AttributeKey.longKey("gen_ai.usage.input_tokens"))).isEqualTo(120);
        assertThat(attributes.get(AttributeKey.longKey("gen_ai.usage.output_tokens"))).isEqualTo(30);
        assertThat(attributes.get(AttributeKey.longKey("gen_ai.usage.cache_read.input_tokens"))).isEqualTo(40);
        assertThat(attributes.get(AttributeKey.longKey("gen_ai.usage.reasoning.output_tokens"))).isEqualTo(10);
        assertThat(attributes.get(AttributeKey.stringArrayKey("gen_ai.response.finish_reasons")))
                .containsExactly("stop");
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    }

    @Test
    void spanIsCurrentWhileTheModelWorks() {
        AtomicReference<Span> seen = new AtomicReference<>();
        LanguageModel traced = MnemoTelemetry.languageModel(request -> {
            seen.set(Span.current());
            return ModelResponse.ofText("ok", USAGE);
        }, otel.openTelemetry(), "openai", "gpt-default");

        traced.respond(request("gpt-4.1-mini"));

        assertThat(seen.get().getSpanContext()).isEqualTo(otel.finishedSpans().get(0).getSpanContext());
    }

    @Test
    void requestWithoutModel_isNamedJustChat_andOtherModelsHaveNoProvider() {
        MnemoTelemetry.languageModel(answering(ModelResponse.ofText("ok", USAGE)), otel.openTelemetry())
                .respond(request(""));

        SpanData span = otel.spansNamed("chat").get(0);
        assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.provider.name"))).isNull();
        assertThat(span.getAttributes().get(AttributeKey.stringKey("gen_ai.request.model"))).isNull();
    }

    @Test
    void requestWithoutModel_isForTheGivenDefaultModel() {
        MnemoTelemetry.languageModel(answering(ModelResponse.ofText("ok", USAGE)), otel.openTelemetry(), "openai",
                "gpt-default").respond(request(""));

        assertThat(otel.spansNamed("chat gpt-default").get(0).getAttributes()
                .get(AttributeKey.stringKey("gen_ai.request.model"))).isEqualTo("gpt-default");
    }

    @Test
    void blankProviderOrDefaultModel_isRefused_namingIt() {
        LanguageModel model = answering(ModelResponse.ofText("ok", USAGE));

        assertThatThrownBy(() -> MnemoTelemetry.languageModel(model, otel.openTelemetry(), " ", "m"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("providerName must not be blank");
        assertThatThrownBy(() -> MnemoTelemetry.languageModel(model, otel.openTelemetry(), "openai", ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("defaultModel must not be blank");
    }

    @Test
    void failure_setsErrorTypeAndStatus_andIsRethrown() {
        LanguageModel traced = MnemoTelemetry.languageModel(request -> {
            throw new ModelException(ModelException.Reason.RATE_LIMITED, "slow down");
        }, otel.openTelemetry(), "openai", "gpt-default");

        assertThatThrownBy(() -> traced.respond(request("gpt-4.1-mini"))).isInstanceOf(ModelException.class)
                .hasMessage("slow down");

        SpanData span = otel.spansNamed("chat gpt-4.1-mini").get(0);
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(span.getAttributes().get(AttributeKey.stringKey("error.type"))).isEqualTo("rate_limited");
        assertThat(otel.histogramPoints("gen_ai.client.operation.duration")).singleElement()
                .satisfies(point -> assertThat(point.getAttributes().get(AttributeKey.stringKey("error.type")))
                        .isEqualTo("rate_limited"));
        assertThat(otel.metric("gen_ai.client.token.usage")).isEmpty();
    }

    @Test
    void unexpectedException_isTypedByItsClassName() {
        LanguageModel traced = MnemoTelemetry.languageModel(request -> {
            throw new IllegalStateException("boom");
        }, otel.openTelemetry(), "openai", "gpt-default");

        assertThatThrownBy(() -> traced.respond(request("m"))).isInstanceOf(IllegalStateException.class);

        assertThat(otel.finishedSpans().get(0).getAttributes().get(AttributeKey.stringKey("error.type")))
                .isEqualTo("java.lang.IllegalStateException");
    }

    @Test
    void metrics_durationAndTokenUsagePerTokenType() {
        MnemoTelemetry.languageModel(answering(ModelResponse.ofText("ok", USAGE)), otel.openTelemetry(), "openai", "gpt-default")
                .respond(request("gpt-4.1-mini"));

        Attributes identity = Attributes.builder().put("gen_ai.operation.name", "chat")
                .put("gen_ai.provider.name", "openai").put("gen_ai.request.model", "gpt-4.1-mini").build();
        assertThat(otel.histogramPoints("gen_ai.client.operation.duration")).singleElement()
                .satisfies(point -> assertThat(point.getAttributes()).isEqualTo(identity));
        assertThat(otel.metric("gen_ai.client.token.usage")).hasValueSatisfying(metric -> {
            assertThat(metric.getUnit()).isEqualTo("{token}");
            assertThat(metric.getHistogramData().getPoints()).extracting(
                    point -> point.getAttributes().get(AttributeKey.stringKey("gen_ai.token.type")),
                    point -> (long) point.getSum())
                    .containsExactlyInAnyOrder(tuple("input", 120L),
                            tuple("output", 30L));
        });
    }

    @Test
    void structuredOutput_isTypedJson() {
        MnemoTelemetry.languageModel(answering(new ModelResponse("{}", List.of(), USAGE, FinishReason.STOP)),
                otel.openTelemetry(), "openai", "gpt-default").respond(ModelRequest.builder().model("m")
                        .message(ModelMessage.user("x"))
                        .outputSchema(new OutputSchema("memory", "{\"type\":\"object\"}", true)).build());

        assertThat(otel.finishedSpans().get(0).getAttributes().get(AttributeKey.stringKey("gen_ai.output.type")))
                .isEqualTo("json");
    }

    @Test
    void everyLanguageModelMethod_isForwardedToTheWrappedModel() {
        TokenCounter counter = text -> 7;
        RateLimitSnapshot limits = new RateLimitSnapshot(OptionalDouble.of(40), OptionalDouble.empty(), false);
        LanguageModel wrapped = new LanguageModel() {
            @Override
            public ModelResponse respond(ModelRequest request) {
                return ModelResponse.ofText("ok", USAGE);
            }

            @Override
            public Optional<RateLimitSnapshot> rateLimits() {
                return Optional.of(limits);
            }

            @Override
            public OptionalInt contextWindowTokens() {
                return OptionalInt.of(32_000);
            }

            @Override
            public TokenCounter tokenCounter() {
                return counter;
            }
        };
        LanguageModel traced = MnemoTelemetry.languageModel(wrapped, otel.openTelemetry());

        assertThat(traced.rateLimits()).containsSame(limits);
        assertThat(traced.contextWindowTokens()).hasValue(32_000);
        assertThat(traced.tokenCounter()).isSameAs(counter);
        assertThat(traced.respond(request("m")).text()).isEqualTo("ok");
        List<String> notOverridden = Arrays.stream(LanguageModel.class.getMethods())
                .filter(method -> !Modifier.isStatic(method.getModifiers()))
                .filter(method -> !forwardedBy(traced.getClass(), method))
                .map(Method::getName).toList();
        assertThat(notOverridden).as("LanguageModel methods the decorator does not forward").isEmpty();
    }

    /** Whether {@code type}'s implementation of {@code method} is its own or a forwarding one, not LanguageModel's default. */
    private static boolean forwardedBy(Class<?> type, Method method) {
        try {
            Class<?> implementer = type.getMethod(method.getName(), method.getParameterTypes()).getDeclaringClass();
            return implementer == type || implementer == ForwardingLanguageModel.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static LanguageModel answering(ModelResponse response) {
        return request -> response;
    }

    private static ModelRequest request(String model) {
        return ModelRequest.builder().model(model).message(ModelMessage.user("what did we decide?")).build();
    }
}
