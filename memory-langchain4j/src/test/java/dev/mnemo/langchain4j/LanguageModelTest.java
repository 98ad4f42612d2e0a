package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.model.TokenCountEstimator;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiTokenCountEstimator;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.llm.ContextOverflow;
import dev.mnemo.llm.FinishReason;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenCounter;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.llm.ToolSpec;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** {@link MnemoLangChain4j#languageModel}: Mnemo's pipeline on a real LangChain4j OpenAI model over HTTP. */
class LanguageModelTest {

    @TempDir
    Path home;

    private static LanguageModel model(OpenAiWireServer server) {
        return MnemoLangChain4j.languageModel(OpenAiChatModel.builder().baseUrl(server.baseUrl().toString())
                .apiKey("test-key").modelName("m").maxRetries(0).build());
    }

    @Test
    void phase1_sendsTheStrictJsonSchema_andStoresTheMemory() {
        try (MemoryHome h = MemoryHome.consolidated(home)) {
            WireRequest extraction = h.modelServer.requests().stream()
                    .filter(r -> !r.responseFormatType().isEmpty()).findFirst().orElseThrow();

            assertThat(extraction.responseFormatType()).isEqualTo("json_schema");
            assertThat(extraction.responseSchemaName()).isEqualTo("stage1_memory");
            assertThat(extraction.json()).contains("\"strict\":true", "\"rollout_slug\"");
            assertThat(h.store.stage1Output(MemoryHome.PAST_THREAD).orElseThrow().result().rawMemory())
                    .isEqualTo(MemoryHome.RAW_MEMORY);
        }
    }

    @Test
    void phase2_runsItsToolLoopThroughTheChatModel_andWritesTheSummary() throws Exception {
        try (MemoryHome h = MemoryHome.consolidated(home)) {
            assertThat(h.engine.admin().history()).hasSize(1);
            assertThat(Files.readString(h.memoryRoot().resolve("memory_summary.md"))).contains("make ship");
            WireRequest afterTools = h.modelServer.requests().get(h.modelServer.requests().size() - 1);
            assertThat(afterTools.toolOutputs()).hasSize(2);
            assertThat(h.engine.admin().runPhase2().outcome()).isNotEqualTo(Phase2Outcome.FAILED);
        }
    }

    @Test
    void respond_carriesToolsCallsUsageAndFinishReason() {
        try (OpenAiWireServer server = OpenAiWireServer.start()) {
            server.enqueue(WireReply.toolCall("call_1", "lookup", "{\"q\":\"x\"}"));
            server.enqueue(WireReply.text("done"));
            LanguageModel model = model(server);
            ModelRequest first = ModelRequest.builder().instructions("be brief").message(ModelMessage.user("hi"))
                    .tool(new ToolSpec("lookup", "Look something up.",
                            "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}"))
                    .build();

            ModelResponse calls = model.respond(first);
            ModelResponse answer = model.respond(first.toBuilder()
                    .message(ModelMessage.assistant("", calls.toolCalls()))
                    .message(ModelMessage.tool("call_1", "{\"hit\":1}")).build());

            assertThat(calls.toolCalls()).containsExactly(new ToolCall("call_1", "lookup", "{\"q\":\"x\"}"));
            assertThat(calls.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
            assertThat(answer.text()).isEqualTo("done");
            assertThat(answer.finishReason()).isEqualTo(FinishReason.STOP);
            assertThat(answer.usage().inputTokens()).isEqualTo(10);
            assertThat(answer.usage().outputTokens()).isEqualTo(5);
            WireRequest second = server.requests().get(1);
            assertThat(second.roles()).containsExactly("system", "user", "assistant", "tool");
            assertThat(second.systemText()).isEqualTo("be brief");
            assertThat(second.toolOutputs()).containsExactly("{\"hit\":1}");
            assertThat(second.toolNames()).containsExactly("lookup");
        }
    }

    @ParameterizedTest
    @CsvSource({
        "429, rate_limit_exceeded, RATE_LIMITED, true",
        "401, invalid_api_key, AUTHENTICATION, false",
        "400, context_length_exceeded, CONTEXT_WINDOW_EXCEEDED, false",
        "400, invalid_value, INVALID_REQUEST, false",
        "500, server_error, SERVER, true",
        "503, overloaded, SERVER, true"})
    void httpFailures_becomeModelExceptionsWithReasonAndRetryability(int status, String code,
            ModelException.Reason reason, boolean retryable) {
        try (OpenAiWireServer server = OpenAiWireServer.start()) {
            server.enqueue(WireReply.failure(status, "{\"error\":{\"message\":\"failed: " + code + "\",\"type\":\""
                    + code + "\",\"param\":null,\"code\":\"" + code + "\"}}"));

            assertThatThrownBy(() -> model(server).respond(ModelRequest.builder().message(ModelMessage.user("hi"))
                    .build()))
                    .isInstanceOfSatisfying(ModelException.class, e -> {
                        assertThat(e.reason()).isEqualTo(reason);
                        assertThat(e.retryable()).isEqualTo(retryable);
                    });
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("contextErrors")
    void contextWindowErrors_keepTheSizesForContextOverflowToRead(String from, WireReply reply, long window,
            long request) {
        try (OpenAiWireServer server = OpenAiWireServer.start()) {
            server.enqueue(reply);

            assertThatThrownBy(() -> model(server).respond(ModelRequest.builder().message(ModelMessage.user("long"))
                    .build()))
                    .isInstanceOfSatisfying(ModelException.class, e -> {
                        assertThat(e.reason()).isEqualTo(ModelException.Reason.CONTEXT_WINDOW_EXCEEDED);
                        assertThat(ContextOverflow.of(e))
                                .hasValue(new ContextOverflow(OptionalLong.of(window), OptionalLong.of(request)));
                    });
        }
    }

    static Stream<Arguments> contextErrors() {
        return Stream.of(Arguments.of("OpenAI", WireReply.contextLengthExceeded(8192, 9000), 8192, 9000),
                Arguments.of("llama.cpp", WireReply.contextSizeExceeded(4096, 4476), 4096, 4476));
    }

    @Test
    void tokenCounter_countsWithTheGivenEstimator_elseEstimates() {
        OpenAiChatModel chatModel = OpenAiChatModel.builder().baseUrl("http://127.0.0.1:1/v1").apiKey("k")
                .modelName("gpt-4o").build();
        OpenAiTokenCountEstimator estimator = new OpenAiTokenCountEstimator("gpt-4o");
        TokenCounter counter = MnemoLangChain4j.languageModel(chatModel, estimator).tokenCounter();

        assertThat(counter.count(DIGEST)).isEqualTo(estimator.estimateTokenCountInText(DIGEST))
                .isGreaterThan(3 * TokenCounter.estimate().count(DIGEST));
        assertThat(counter.count("")).isZero();
        assertThat(MnemoLangChain4j.languageModel(chatModel).tokenCounter()).isSameAs(TokenCounter.estimate());
    }

    @Test
    void aChatModelThatEstimatesItsOwnTokens_countsThem() {
        CountingChatModel chatModel = new CountingChatModel();

        TokenCounter counter = MnemoLangChain4j.languageModel(chatModel).tokenCounter();

        assertThat(counter.count(DIGEST)).isEqualTo(DIGEST.length());
    }

    static final String DIGEST = "3f9a1c7e2b4d8f60a5e1c9b7d3f2a8e4c6b0d1f9";

    /** A provider's model that also counts tokens, as some LangChain4j models do: one per character here. */
    static final class CountingChatModel implements ChatModel, TokenCountEstimator {
        @Override
        public ChatResponse chat(ChatRequest request) {
            throw new UnsupportedOperationException("this model only counts");
        }

        @Override
        public int estimateTokenCountInText(String text) {
            return text.length();
        }

        @Override
        public int estimateTokenCountInMessage(ChatMessage message) {
            return message.toString().length();
        }

        @Override
        public int estimateTokenCountInMessages(Iterable<ChatMessage> messages) {
            int total = 0;
            for (ChatMessage message : messages) {
                total += estimateTokenCountInMessage(message);
            }
            return total;
        }
    }

    @Test
    void unreachableServer_isANetworkFailure_thatMayBeRetried() {
        String url;
        try (OpenAiWireServer server = OpenAiWireServer.start()) {
            url = server.baseUrl().toString();
        }
        LanguageModel model = MnemoLangChain4j.languageModel(OpenAiChatModel.builder().baseUrl(url)
                .apiKey("k").modelName("m").maxRetries(0).build());

        assertThatThrownBy(() -> model.respond(ModelRequest.builder().message(ModelMessage.user("hi")).build()))
                .isInstanceOfSatisfying(ModelException.class, e -> assertThat(e.retryable()).isTrue());
    }
}
