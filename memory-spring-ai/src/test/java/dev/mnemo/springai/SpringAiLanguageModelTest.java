package dev.mnemo.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.knuddels.jtokkit.api.EncodingType;
import dev.mnemo.llm.ContextOverflow;
import dev.mnemo.llm.FinishReason;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.RateLimitSnapshot;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.llm.TokenCounter;
import dev.mnemo.llm.ToolSpec;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.metadata.ChatResponseMetadata;
import org.springframework.ai.chat.metadata.DefaultUsage;
import org.springframework.ai.chat.metadata.RateLimit;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.tokenizer.JTokkitTokenCountEstimator;

/** {@link SpringAiLanguageModel} over Spring AI's OpenAI {@link ChatModel}, talking HTTP to the wire server. */
@ExtendWith(SharedChatApp.Resolver.class)
class SpringAiLanguageModelTest {

    static SharedChatApp shared;
    static SpringAiLanguageModel model;

    @BeforeAll
    static void start(SharedChatApp fixture) {
        shared = fixture;
        model = SpringAiLanguageModel.of(fixture.context.getBean(ChatModel.class));
    }

    static final ToolSpec ECHO = new ToolSpec("echo", "Echoes its text.",
            "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}");

    @Test
    void respond_returnsToolCallsToTheCaller_andSendsTheirOutputsBack() {
        shared.script.enqueue(WireReply.toolCall("call_7", "echo", "{\"text\":\"hi\"}"));
        shared.script.enqueue(WireReply.text("Echoed."));

        ModelResponse first = model.respond(ModelRequest.builder().model("gpt-tools").instructions("Use tools.")
                .message(ModelMessage.user("echo hi")).tools(List.of(ECHO)).build());

        assertThat(first.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(first.toolCalls()).containsExactly(new ToolCall("call_7", "echo", "{\"text\":\"hi\"}"));
        assertThat(first.usage().inputTokens()).isEqualTo(10);
        assertThat(first.usage().outputTokens()).isEqualTo(5);
        WireRequest sent = shared.lastChatRequest();
        assertThat(sent.model()).isEqualTo("gpt-tools");
        assertThat(sent.toolNames()).containsExactly("echo");
        assertThat(sent.systemText()).isEqualTo("Use tools.");

        ModelResponse second = model.respond(ModelRequest.builder().instructions("Use tools.")
                .message(ModelMessage.user("echo hi")).message(ModelMessage.assistant("", first.toolCalls()))
                .message(ModelMessage.tool("call_7", "hi")).tools(List.of(ECHO)).build());

        assertThat(second.text()).isEqualTo("Echoed.");
        assertThat(second.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(shared.lastChatRequest().roles()).containsExactly("system", "user", "assistant", "tool");
        assertThat(shared.lastChatRequest().toolOutputs()).containsExactly("hi");
        assertThat(shared.lastChatRequest().model()).isEqualTo("gpt-test");
    }

    @ParameterizedTest(name = "HTTP {0} -> {1}")
    @CsvSource({"429, RATE_LIMITED, true", "500, SERVER, true", "503, SERVER, true", "400, INVALID_REQUEST, false",
        "401, AUTHENTICATION, false", "403, AUTHENTICATION, false"})
    void respond_mapsHttpErrorsToReasons_retryableForRateLimitsAndServerErrors(int status, ModelException.Reason reason,
            boolean retryable) {
        shared.script.enqueue(WireReply.failure(status, "{\"error\":{\"message\":\"scripted failure\",\"type\":\"x\","
                + "\"param\":null,\"code\":null}}"));

        assertThatThrownBy(() -> model.respond(ModelRequest.builder().message(ModelMessage.user("fail")).build()))
                .isInstanceOfSatisfying(ModelException.class, e -> {
                    assertThat(e.reason()).isEqualTo(reason);
                    assertThat(e.retryable()).isEqualTo(retryable);
                    assertThat(e.getMessage()).contains(String.valueOf(status));
                });
    }

    @Test
    void respond_mapsAContextWindowError_toItsOwnReason() {
        shared.script.enqueue(WireReply.failure(400, "{\"error\":{\"message\":\"This model's maximum context length "
                + "is 8192 tokens\",\"type\":\"invalid_request_error\",\"param\":null,"
                + "\"code\":\"context_length_exceeded\"}}"));

        assertThatThrownBy(() -> model.respond(ModelRequest.builder().message(ModelMessage.user("long")).build()))
                .isInstanceOfSatisfying(ModelException.class,
                        e -> assertThat(e.reason()).isEqualTo(ModelException.Reason.CONTEXT_WINDOW_EXCEEDED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("contextErrors")
    void respond_keepsTheContextWindowErrorsSizes_forContextOverflowToRead(String server, WireReply reply,
            long window, long request) {
        shared.script.enqueue(reply);

        assertThatThrownBy(() -> model.respond(ModelRequest.builder().message(ModelMessage.user("long")).build()))
                .isInstanceOfSatisfying(ModelException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ModelException.Reason.CONTEXT_WINDOW_EXCEEDED);
                    assertThat(ContextOverflow.of(e))
                            .hasValue(new ContextOverflow(OptionalLong.of(window), OptionalLong.of(request)));
                });
    }

    static Stream<Arguments> contextErrors() {
        return Stream.of(Arguments.of("OpenAI", WireReply.contextLengthExceeded(8192, 9000), 8192, 9000),
                Arguments.of("llama.cpp", WireReply.contextSizeExceeded(4096, 4476), 4096, 4476));
    }

    @Test
    void tokenCounter_isTheEstimate_unlessAnEstimatorIsGiven() {
        assertThat(model.tokenCounter()).isSameAs(TokenCounter.estimate());
    }

    @Test
    void tokenCounter_countsWithTheGivenSpringAiEstimator() {
        JTokkitTokenCountEstimator estimator = new JTokkitTokenCountEstimator(EncodingType.O200K_BASE);
        TokenCounter counter = SpringAiLanguageModel.of(shared.context.getBean(ChatModel.class), estimator)
                .tokenCounter();
        String digest = "3f9a1c7e2b4d8f60a5e1c9b7d3f2a8e4c6b0d1f9";
        String code = "for(int i=0;i<n;i++){x[i]+=y[i]*z[i];}";

        assertThat(counter.count(digest)).isEqualTo(estimator.estimate(digest))
                .isGreaterThan(3 * TokenCounter.estimate().count(digest));
        assertThat(counter.count(code)).isEqualTo(estimator.estimate(code));
        assertThat(counter.count("")).isZero();
    }

    @Test
    void tokenCounter_estimatesATextTheEstimatorRefuses() {
        // Spring AI's jtokkit estimator throws on special-token markers; a session may quote one.
        String quoted = "the tokenizer ends a document with <|endoftext|> here";
        TokenCounter counter = SpringAiLanguageModel.of(shared.context.getBean(ChatModel.class),
                new JTokkitTokenCountEstimator()).tokenCounter();

        assertThat(counter.count(quoted)).isEqualTo(TokenCounter.estimate().count(quoted));
        assertThat(counter.count("plain words")).isEqualTo(new JTokkitTokenCountEstimator().estimate("plain words"));
    }

    @Test
    void respond_mapsAClientTimeOut_toRetryableTimeout() {
        ChatModel openAi = shared.context.getBean(ChatModel.class);
        ChatModel impatient = new ChatModel() {
            @Override
            public ChatResponse call(Prompt prompt) {
                return openAi.call(prompt);
            }

            @Override
            public ChatOptions getOptions() {
                return ((OpenAiChatOptions) openAi.getOptions()).mutate().timeout(Duration.ofMillis(300)).build();
            }
        };
        shared.script.enqueue(WireReply.delayed(Duration.ofSeconds(3), WireReply.text("too late")));

        assertThatThrownBy(() -> SpringAiLanguageModel.of(impatient)
                .respond(ModelRequest.builder().message(ModelMessage.user("slow")).build()))
                .isInstanceOfSatisfying(ModelException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ModelException.Reason.TIMEOUT);
                    assertThat(e.retryable()).isTrue();
                });
    }

    /**
     * Spring AI's OpenAI module reports no rate limits; providers that do put them in the response
     * metadata. A provider of that kind, written here in a few lines, stands in for one.
     */
    @Test
    void rateLimits_areReadFromTheResponseMetadata_whenTheProviderReportsThem() {
        RateLimit limits = new Limits(100L, 20L, Duration.ofSeconds(30), 1000L, 0L, Duration.ofSeconds(30));
        ChatModel provider = prompt -> new ChatResponse(List.of(new Generation(new AssistantMessage("ok"))),
                ChatResponseMetadata.builder().rateLimit(limits).usage(new DefaultUsage(3, 2)).build());
        SpringAiLanguageModel limited = SpringAiLanguageModel.of(provider);
        assertThat(limited.rateLimits()).isEmpty();

        ModelResponse response = limited.respond(ModelRequest.builder().message(ModelMessage.user("hi")).build());

        assertThat(response.text()).isEqualTo("ok");
        assertThat(response.usage().totalTokens()).isEqualTo(5);
        RateLimitSnapshot snapshot = limited.rateLimits().orElseThrow();
        assertThat(snapshot.primaryUsedPercent()).hasValue(80.0);
        assertThat(snapshot.secondaryUsedPercent()).hasValue(100.0);
        assertThat(snapshot.limitReached()).isTrue();
    }

    /** Rate-limit figures as a provider reports them; the components are the interface's getters. */
    record Limits(Long getRequestsLimit, Long getRequestsRemaining, Duration getRequestsReset, Long getTokensLimit,
            Long getTokensRemaining, Duration getTokensReset) implements RateLimit {}
}
