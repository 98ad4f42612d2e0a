package dev.mnemo.llm.openai;

import static dev.mnemo.llm.openai.TestRequests.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.llm.FinishReason;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.ModelResponse;
import dev.mnemo.llm.TokenUsage;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.llm.openai.FakeOpenAiServer.Reply;
import dev.mnemo.llm.openai.OpenAiLanguageModel.Api;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ChatCompletionsApiTest {

    private final FakeOpenAiServer server = FakeOpenAiServer.start();
    private final List<Duration> waits = new ArrayList<>();
    private final OpenAiLanguageModel model = TestRequests.clientFor(server, Api.CHAT_COMPLETIONS, waits).build();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void respond_sendsInstructionsAsSystemMessageAndToolLoopAsToolCallsAndToolMessages() {
        server.enqueue(Reply.fixture(200, "chat/text.json"));

        model.respond(TestRequests.toolLoop());

        FakeOpenAiServer.Recorded sent = server.lastRequest();
        assertThat(sent.path()).isEqualTo("/v1/chat/completions");
        assertThat(sent.header("Authorization")).isEqualTo("Bearer " + TestRequests.API_KEY);
        assertThat(sent.json()).isEqualTo(json("""
                {
                  "model": "gpt-4.1",
                  "messages": [
                    {"role": "system", "content": "You consolidate memories."},
                    {"role": "system", "content": "Work only below the memory root."},
                    {"role": "user", "content": "Update MEMORY.md."},
                    {"role": "assistant", "content": "Reading it first.",
                     "tool_calls": [{"id": "call_unLAR8MvFNptuiZK6K6HCy5k", "type": "function",
                                     "function": {"name": "read_file", "arguments": "{\\"path\\":\\"MEMORY.md\\"}"}}]},
                    {"role": "tool", "tool_call_id": "call_unLAR8MvFNptuiZK6K6HCy5k", "content": "# Memories\\n"}
                  ],
                  "tools": [
                    {"type": "function",
                     "function": {"name": "read_file", "description": "Reads a file below the memory root.",
                                  "parameters": {"type": "object", "properties": {"path": {"type": "string"}},
                                                 "required": ["path"], "additionalProperties": false},
                                  "strict": true}}
                  ],
                  "reasoning_effort": "high"
                }"""));
    }

    @Test
    void respond_sendsNullContentForAssistantTurnThatOnlyCalledTools() {
        server.enqueue(Reply.fixture(200, "chat/text.json"));
        ModelRequest request = ModelRequest.builder()
                .message(ModelMessage.user("go"))
                .message(ModelMessage.assistant("", List.of(new ToolCall("call_a", "list_dir", "{}"))))
                .message(ModelMessage.tool("call_a", "[]"))
                .build();

        model.respond(request);

        assertThat(server.lastRequest().json().at("/messages/1")).isEqualTo(json("""
                {"role": "assistant", "content": null,
                 "tool_calls": [{"id": "call_a", "type": "function", "function": {"name": "list_dir", "arguments": "{}"}}]}"""));
    }

    @Test
    void respond_sendsStrictJsonSchemaAsResponseFormat() {
        server.enqueue(Reply.fixture(200, "chat/structured.json"));

        ModelResponse response = model.respond(TestRequests.structured());

        assertThat(server.lastRequest().json()).isEqualTo(json("""
                {
                  "model": "gpt-4.1",
                  "messages": [{"role": "system", "content": "Extract memories."},
                               {"role": "user", "content": "rollout text"}],
                  "response_format": {"type": "json_schema", "json_schema": {"name": "stage_one_output", "strict": true,
                    "schema": {"type": "object",
                               "properties": {"raw_memory": {"type": "string"}, "rollout_summary": {"type": "string"},
                                              "rollout_slug": {"type": "string"}},
                               "required": ["raw_memory", "rollout_summary", "rollout_slug"],
                               "additionalProperties": false}}},
                  "reasoning_effort": "low"
                }"""));
        assertThat(json(response.text()).get("raw_memory").asText()).isEqualTo("User prefers ripgrep over grep.");
        assertThat(response.usage()).isEqualTo(new TokenUsage(812, 0, 41, 0));
    }

    @Test
    void respond_omitsReasoningEffortForNoneAndUsesBuilderModel() {
        server.enqueue(Reply.fixture(200, "chat/text.json"));

        model.respond(TestRequests.hello());

        assertThat(server.lastRequest().json()).isEqualTo(json("""
                {"model": "gpt-4.1", "messages": [{"role": "user", "content": "hello"}]}"""));
    }

    @Test
    void respond_readsTextFinishReasonAndCachedAndReasoningTokens() {
        server.enqueue(Reply.fixture(200, "chat/text.json"));

        ModelResponse response = model.respond(TestRequests.hello());

        assertThat(response).isEqualTo(new ModelResponse(
                "The user fixed the flaky Gradle build by pinning the Kotlin daemon JVM.", List.of(),
                new TokenUsage(1536, 1024, 212, 128), FinishReason.STOP));
    }

    @Test
    void respond_returnsToolCallsWithTheirIds() {
        server.enqueue(Reply.fixture(200, "chat/tool-calls.json"));

        ModelResponse response = model.respond(TestRequests.toolLoop());

        assertThat(response.toolCalls()).containsExactly(
                new ToolCall("call_unLAR8MvFNptuiZK6K6HCy5k", "read_file", "{\"path\":\"MEMORY.md\"}"),
                new ToolCall("call_7pXkT2bQ9sYqzWm3nR1vLd0e", "list_dir", "{\"path\":\"rollout_summaries\"}"));
        assertThat(response.text()).isEmpty();
        assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
    }

    @Test
    void respond_treatsOllamaStopWithToolCallsAsToolCalls() {
        server.enqueue(Reply.fixture(200, "chat/ollama-tool-call.json"));

        ModelResponse response = model.respond(TestRequests.toolLoop());

        assertThat(response.finishReason()).isEqualTo(FinishReason.TOOL_CALLS);
        assertThat(response.toolCalls()).containsExactly(new ToolCall("call_o3k9x2lm", "read_file",
                "{\"path\":\"MEMORY.md\"}"));
        assertThat(response.usage()).isEqualTo(new TokenUsage(187, 0, 19, 0));
    }

    @Test
    void respond_mapsFinishReasonLengthToLength() {
        server.enqueue(Reply.fixture(200, "chat/length.json"));

        ModelResponse response = model.respond(TestRequests.hello());

        assertThat(response.finishReason()).isEqualTo(FinishReason.LENGTH);
        assertThat(response.text()).isEqualTo("The session began with the user asking");
    }

    @Test
    void respond_mapsFinishReasonContentFilterAndUnknownReasons() {
        String body = FakeOpenAiServer.fixture("chat/text.json");
        server.enqueue(Reply.json(200, body.replace("\"finish_reason\": \"stop\"", "\"finish_reason\": \"content_filter\"")));
        server.enqueue(Reply.json(200, body.replace("\"finish_reason\": \"stop\"", "\"finish_reason\": \"eos_token\"")));

        assertThat(model.respond(TestRequests.hello()).finishReason()).isEqualTo(FinishReason.CONTENT_FILTER);
        assertThat(model.respond(TestRequests.hello()).finishReason()).isEqualTo(FinishReason.OTHER);
    }

    @Test
    void respond_returnsRefusalAsContentFilter() {
        server.enqueue(Reply.fixture(200, "chat/refusal.json"));

        ModelResponse response = model.respond(TestRequests.hello());

        assertThat(response.text()).isEqualTo("I'm sorry, I can't help with that.");
        assertThat(response.finishReason()).isEqualTo(FinishReason.CONTENT_FILTER);
    }

    @Test
    void respond_servesConcurrentCallersEachTheirOwnAnswer() throws Exception {
        String template = FakeOpenAiServer.fixture("chat/text.json");
        server.respondWith(sent -> Reply.json(200, template.replace(
                "The user fixed the flaky Gradle build by pinning the Kotlin daemon JVM.",
                "echo " + sent.json().at("/messages/0/content").asText())));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                String question = "question " + i;
                answers.add(pool.submit(() -> model.respond(ModelRequest.builder()
                        .message(ModelMessage.user(question)).build()).text()));
            }
            for (int i = 0; i < answers.size(); i++) {
                assertThat(answers.get(i).get()).isEqualTo("echo question " + i);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(server.requests()).hasSize(32);
    }
}
