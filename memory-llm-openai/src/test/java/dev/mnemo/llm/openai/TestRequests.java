package dev.mnemo.llm.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.mnemo.llm.ModelMessage;
import dev.mnemo.llm.ModelRequest;
import dev.mnemo.llm.OutputSchema;
import dev.mnemo.llm.ReasoningEffort;
import dev.mnemo.llm.ToolCall;
import dev.mnemo.llm.ToolSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** Requests and JSON helpers shared by the API tests. */
final class TestRequests {

    static final String API_KEY = "sk-test-0123456789abcdefSecret";

    static final String READ_FILE_SCHEMA = """
            {"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}""";

    static final String STAGE_ONE_SCHEMA = """
            {"type":"object","properties":{"raw_memory":{"type":"string"},"rollout_summary":{"type":"string"},\
            "rollout_slug":{"type":"string"}},"required":["raw_memory","rollout_summary","rollout_slug"],\
            "additionalProperties":false}""";

    private TestRequests() {}

    /** A tool loop's second turn: every role, a tool, a call and its answer. */
    static ModelRequest toolLoop() {
        return ModelRequest.builder()
                .instructions("You consolidate memories.")
                .message(ModelMessage.developer("Work only below the memory root."))
                .message(ModelMessage.user("Update MEMORY.md."))
                .message(ModelMessage.assistant("Reading it first.",
                        List.of(new ToolCall("call_unLAR8MvFNptuiZK6K6HCy5k", "read_file", "{\"path\":\"MEMORY.md\"}"))))
                .message(ModelMessage.tool("call_unLAR8MvFNptuiZK6K6HCy5k", "# Memories\n"))
                .tool(new ToolSpec("read_file", "Reads a file below the memory root.", READ_FILE_SCHEMA))
                .reasoningEffort(ReasoningEffort.HIGH)
                .metadata("mnemo_phase", "2")
                .build();
    }

    /** A Phase-1 style request: a strict output schema, no tools. */
    static ModelRequest structured() {
        return ModelRequest.builder()
                .instructions("Extract memories.")
                .message(ModelMessage.user("rollout text"))
                .outputSchema(new OutputSchema("stage_one_output", STAGE_ONE_SCHEMA, true))
                .reasoningEffort(ReasoningEffort.LOW)
                .build();
    }

    static ModelRequest hello() {
        return ModelRequest.builder().message(ModelMessage.user("hello")).reasoningEffort(ReasoningEffort.NONE)
                .build();
    }

    static JsonNode json(String text) {
        try {
            return OpenAiLanguageModel.JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A client for {@code server} that records its retry waits instead of sleeping. */
    static OpenAiLanguageModel.Builder clientFor(FakeOpenAiServer server, OpenAiLanguageModel.Api api,
            List<java.time.Duration> waits) {
        return OpenAiLanguageModel.builder().baseUrl(server.baseUrl()).apiKey(API_KEY).model("gpt-4.1").api(api)
                .sleeper(waits::add).jitter(() -> 0.0);
    }
}
