package dev.mnemo.llm.openai;

import static dev.mnemo.llm.openai.TestRequests.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mnemo.llm.FinishReason;
import dev.mnemo.llm.ModelException;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.llm.openai.FakeOpenAiServer.Reply;
import dev.mnemo.llm.openai.OpenAiLanguageModel.Api;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ResponsesApiTest {

    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final List<Duration> waits = new ArrayList<>();
    private final OpenAiLanguageModel model = TestRequests.clientFor(server, Api.RESPONSES, waits).build();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void respond_sendsWholeConversationAsResponsesInputItems() {
        server.enqueue(Reply.fixture(200, "responses/text.json"));

        model.respond(TestRequests.toolLoop());

        FakeOpenAiServer.Recorded sent = server.lastRequest();
        assertThat(sent.method()).isEqualTo("POST");
        assertThat(sent.path()).isEqualTo("/v1/responses");
        assertThat(sent.header("Authorization")).isEqualTo("Bearer " + TestRequests.API_KEY);
        assertThat(sent.header("Content-Type")).isEqualTo("application/json");
        assertThat(sent.json()).isEqualTo(json("""
                {
                  "model": "gpt-4.1",
                  "instructions": "You consolidate memories.",
                  "input": [
                    {"type": "message", "role": "developer", "content": "Work only below the memory root."},
                    {"type": "message", "role": "user", "content": "Update MEMORY.md."},
                    {"type": "message", "role": "assistant", "content": "Reading it first."},
                    {"type": "function_call", "call_id": "call_unLAR8MvFNptuiZK6K6HCy5k", "name": "read_file",
                     "arguments": "{\\"path\\":\\"MEMORY.md\\"}"},
                    {"type": "function_call_output", "call_id": "call_unLAR8MvFNptuiZK6K6HCy5k",
                     "output": "# Memories\\n"}
                  ],
                  "tools": [
                    {"type": "function", "name": "read_file", "description": "Reads a file below the memory root.",
                     "parameters": {"type": "object", "properties": {"path": {"type": "string"}},
                                    "required": ["path"], "additionalProperties": false},
                     "strict": true}
                  ],
                  "reasoning": {"effort": "high"},
                  "store": false,
                  "metadata": {"mnemo_phase": "2"}
                }"""));
    }

    @Test
    void respond_sendsStrictJsonSchemaAsTextFormat() {
        server.enqueue(Reply.fixture(200, "responses/structured.json"));

        ModelResponse response = model.respond(TestRequests.structured());

        assertThat(server.lastRequest().json()).isEqualTo(json("""
                {
                  "model": "gpt-4.1",
                  "instructions": "Extract memories.",
                  "input": [{"type": "message", "role": "user", "content": "rollout text"}],
                  "text": {"format": {"type": "json_schema", "name": "stage_one_output", "strict": true,
                    "schema": {"type": "object",
                               "properties": {"raw_memory": {"type": "string"}, "rollout_summary": {"type": "string"},
                                              "rollout_slug": {"type": "string"}},
                               "required": ["raw_memory", "rollout_summary", "rollout_slug"],
                               "additionalProperties": false}}},
                  "reasoning": {"effort": "low"},
                  "store": false
                }"""));
        assertThat(json(response.text()).get("rollout_slug").asText()).isEqualTo("search-repo");
        assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(response.usage()).isEqualTo(new TokenUsage(812, 0, 41, 0));
    }

    @Test
    void respond_omitsReasoningForEffortNoneAndUsesBuilderModelWhenRequestNamesNone() {
        server.enqueue(Reply.fixture(200, "responses/text.json"));

        model.respond(TestRequests.hello());

        assertThat(server.lastRequest().json()).isEqualTo(json("""
                {"model": "gpt-4.1", "input": [{"type": "message", "role": "user", "content": "hello"}],
                 "store": false}"""));
    }

    @Test
    void respond_usesModelNamedByRequestOverBuilderModel() {
        server.enqueue(Reply.fixture(200, "responses/text.json"));

        model.respond(TestRequests.hello().toBuilder().model("o4-mini").build());

        assertThat(server.lastRequest().json().get("model").asText()).isEqualTo("o4-mini");
    }

    @Test
    void respond_omitsReasoningWhenClientIsToldNotToSendIt() {
        server.enqueue(Reply.fixture(200, "responses/text.json"));
        OpenAiLanguageModel plain = TestRequests.clientFor(server, Api.RESPONSES, waits).sendReasoningEffort(false)
                .build();

        plain.respond(TestRequests.toolLoop());

        assertThat(server.lastRequest().json().has("reasoning")).isFalse();
    }

    @Test
    void respond_joinsOutputTextPartsAndReadsCachedAndReasoningTokens() {
        server.enqueue(Reply.fixture(200, "responses/text.json"));

        ModelResponse response = model.respond(TestRequests.hello());

        assertThat(response.text()).isEqualTo("The user fixed the flaky Gradle build by pinning the Kotlin daemon JVM.");
        assertThat(response.toolCalls()).isEmpty();
        assertThat(response.finishReason()).isEqualTo(FinishReason.STOP);
        assertThat(response.usage()).isEqualTo(new TokenUsage(1536, 1024, 212, 128));
    }

    @Test
    void respond_returnsFunctionCallsWithTheirCallIds() {
        server.enqueue(Reply.fixture(200, "responses/tool-call.json"));

        ModelResponse response = model.respond(TestRequests.toolLoop());

        assertThat(response.toolCalls()).containsExactly(
                new ToolCall("call_unLAR8MvFNptuiZK6K6HCy5k", "read_file", "{\"path\":\"MEMORY.md\"}"),
                new ToolCall("call_7pXkT2bQ9sYqzWm3nR1vLd0e", "list_dir", "{\"path\":\"rollout_summaries\"}"));
        assertThat(response.text()).isEmpty();
        assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(response.usage()).isEqualTo(new TokenUsage(291, 0, 23, 0));
    }

    @Test
    void respond_mapsIncompleteMaxOutputTokensToLength() {
        server.enqueue(Reply.fixture(200, "responses/incomplete-max-output-tokens.json"));

        ModelResponse response = model.respond(TestRequests.hello());

        assertThat(response.finishReason()).isEqualTo(FinishReason.LENGTH);
        assertThat(response.text()).isEqualTo("The session began with the user asking");
    }

    @Test
    void respond_mapsIncompleteContentFilterToContentFilter() {
        server.enqueue(Reply.fixture(200, "responses/incomplete-content-filter.json"));

        assertThat(model.respond(TestRequests.hello()).finishReason()).isEqualTo(FinishReason.CONTENT_FILTER);
    }

    @Test
    void respond_returnsRefusalTextAsContentFilter() {
        server.enqueue(Reply.fixture(200, "responses/refusal.json"));

        ModelResponse response = model.respond(TestRequests.hello());

        assertThat(response.finishReason()).isEqualTo(FinishReason.CONTENT_FILTER);
        assertThat(response.text()).isEqualTo("I'm sorry, I can't help with that.");
    }

    @Test
    void respond_throwsServerErrorForFailedResponseStatus() {
        server.enqueue(Reply.fixture(200, "responses/failed-server-error.json"));

        assertThatThrownBy(() -> model.respond(TestRequests.hello()))
                .isInstanceOfSatisfying(ModelException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ModelException.Reason.SERVER);
                    assertThat(e.getMessage()).contains("An error occurred while processing your request");
                });
    }

    @Test
    void respond_rejectsToolSchemaThatIsNotJsonWithoutCallingServer() {
        var request = TestRequests.hello().toBuilder()
                .tool(new dev.mnemo.llm.ToolSpec("broken", "d", "{not json")).build();

        assertThatThrownBy(() -> model.respond(request))
                .isInstanceOfSatisfying(ModelException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ModelException.Reason.INVALID_REQUEST);
                    assertThat(e.getMessage()).contains("parameters of tool 'broken'");
                });
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void respond_reportsAnswerThatIsNotJson() {
        server.enqueue(Reply.json(200, "<html>Bad gateway</html>"));

        assertThatThrownBy(() -> model.respond(TestRequests.hello()))
                .isInstanceOfSatisfying(ModelException.class, e -> {
                    assertThat(e.reason()).isEqualTo(ModelException.Reason.UNKNOWN);
                    assertThat(e.getMessage()).contains("not a JSON object").contains("<html>Bad gateway</html>");
                });
    }
}
