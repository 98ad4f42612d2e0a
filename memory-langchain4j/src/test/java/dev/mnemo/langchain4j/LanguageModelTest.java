package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.mnemo.Phase2Outcome;
import dev.mnemo.llm.FinishReason;
import dev.mnemo.llm.LanguageModel;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.llm.ToolSpec;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
