package dev.mnemo.springai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mnemo.MemoriesConfig;
import dev.mnemo.MemoryEngine;
import dev.mnemo.testkit.ChatScript;
import dev.mnemo.testkit.WireReply;
import dev.mnemo.testkit.WireRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.model.ChatModel;

/**
 * No model behind a {@code ChatClient} has a shell, and a server's folders are none of its
 * provider's business: whatever {@code dedicated_tools} says, the advisor hands the model the memory
 * tools and instructions that name no path on this machine. Checked on every byte the provider
 * receives: each request body the in-process server got while the test ran.
 */
@ExtendWith(SharedChatApp.Resolver.class)
class NoServerPathTest {

    @TempDir
    Path home;

    @ParameterizedTest(name = "dedicated_tools = {0}")
    @ValueSource(booleans = {false, true})
    void noRequestBodySentToTheProvider_namesTheHomesPath_andTheMemoryToolsAreOffered(boolean dedicatedTools,
            SharedChatApp shared) throws IOException {
        Files.createDirectories(home.resolve("memories"));
        Files.writeString(home.resolve("memories/memory_summary.md"), "v1\nReleases are cut on Tuesdays.");
        Files.writeString(home.resolve("memories/MEMORY.md"), "# Handbook\nReleases are cut on Tuesdays.\n");
        List<String> paths = List.of(home.toString(), home.toRealPath().toString());
        int before = shared.server.requests().size();
        try (MemoryEngine engine = MemoryEngine.builder().home(home)
                .config(MemoriesConfig.builder().dedicatedTools(dedicatedTools).generateMemories(false).build())
                .model(SpringAiLanguageModel.of(shared.context.getBean(ChatModel.class))).build()) {
            ChatClient chat = shared.context.getBean(ChatClient.Builder.class).defaultSystem("You are terse.")
                    .defaultAdvisors(MnemoAdvisor.builder(engine).build()).build();
            shared.script.enqueue(WireReply.toolCall("call_read", "memories_read", "{\"path\":\"MEMORY.md\"}"));
            shared.script.enqueue(WireReply.text("Tuesday."));
            shared.script.enqueue(WireReply.toolCall("call_list", "memories_list", "{}"));
            shared.script.enqueue(WireReply.text("Tuesday, still."));
            shared.script.enqueue(WireReply.text("Tuesdays.", "Tues", "days."));

            String called = chat.prompt().user("When are releases cut?")
                    .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "paths-" + dedicatedTools)).call().content();
            String anonymous = chat.prompt().user("And without a conversation?").call().content();
            String streamed = String.join("", chat.prompt().user("Stream it")
                    .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "paths-" + dedicatedTools)).stream().content()
                    .collectList().block());

            assertThat(called).isEqualTo("Tuesday.");
            assertThat(anonymous).isEqualTo("Tuesday, still.");
            assertThat(streamed).isEqualTo("Tuesdays.");
        }
        List<WireRequest> sent = shared.server.requests().subList(before, shared.server.requests().size()).stream()
                .filter(r -> !ChatScript.isPhase1(r) && !ChatScript.isConsolidation(r)).toList();
        assertThat(sent).hasSize(5);
        assertThat(sent).filteredOn(r -> r.systemText().contains("Releases are cut on Tuesdays.")).hasSize(5);
        assertThat(sent).filteredOn(r -> r.systemText().contains("Releases are cut on Tuesdays."))
                .allSatisfy(r -> assertThat(r.toolNames()).contains("memories_list", "memories_read",
                        "memories_search"));
        assertThat(sent).extracting(WireRequest::json).allSatisfy(body -> assertThat(body)
                .doesNotContain(paths.get(0)).doesNotContain(paths.get(1)));
        assertThat(sent.get(1).toolOutputs()).singleElement().asString().contains("Releases are cut on Tuesdays.");
    }
}
