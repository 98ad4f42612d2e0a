package dev.mnemo.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.mnemo.MemoryEngine;
import dev.mnemo.langchain4j.MnemoLangChain4j;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the LangChain4j example against the in-process Chat Completions server, on a real home. */
class LangChain4jAssistantTest {

    @TempDir
    Path home;

    /** The assistant lists its memory, then answers citing nothing; pipeline calls are refused. */
    private static WireReply reply(WireRequest request) {
        if (!request.toolNames().contains("memories_list")) {
            return WireReply.failure(500, "{\"error\":{\"message\":\"not scripted\",\"type\":\"server_error\"}}");
        }
        List<String> roles = request.roles();
        return roles.get(roles.size() - 1).equals("user")
                ? WireReply.toolCall("call_1", "memories_list", "{}")
                : WireReply.text("Nothing remembered yet; run the tests with mvn verify.");
    }

    @Test
    void assistant_getsTheMemoryInstructionsAndTools_andItsTurnIsRecorded() throws Exception {
        Files.createDirectories(home.resolve("memories"));
        Files.writeString(home.resolve("memories/memory_summary.md"), "v1\n\nThe build uses Maven.\n");
        try (OpenAiWireServer server = OpenAiWireServer.start(LangChain4jAssistantTest::reply)) {
            ChatModel chatModel = OpenAiChatModel.builder().baseUrl(server.baseUrl().toString()).apiKey("test")
                    .modelName("example-model").maxRetries(0).build();
            try (MemoryEngine memory = MemoryEngine.builder().home(home)
                    .model(MnemoLangChain4j.languageModel(chatModel)).build()) {
                LangChain4jAssistant.Assistant assistant = LangChain4jAssistant.create(memory, chatModel);

                String answer = assistant.chat("example-1", "How do I run the tests?");

                assertThat(answer).isEqualTo("Nothing remembered yet; run the tests with mvn verify.");
                List<WireRequest> calls = server.requests().stream()
                        .filter(r -> r.toolNames().contains("memories_list")).toList();
                assertThat(calls).hasSize(2).allSatisfy(r -> assertThat(r.systemText())
                        .startsWith("You are a helpful coding assistant.").contains("The build uses Maven."));
                Path rollout = memory.threads().get("example-1").orElseThrow().rolloutPath();
                assertThat(Files.readString(rollout)).contains("How do I run the tests?", "\"call_id\":\"call_1\"",
                        "Nothing remembered yet");
            }
        }
    }
}
