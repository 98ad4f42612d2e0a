package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.memory.ChatMemoryAccess;
import dev.mnemo.MemorySession;
import dev.mnemo.testkit.OpenAiWireServer;
import dev.mnemo.testkit.WireReply;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Ending a conversation: {@link MnemoLangChain4j#endConversation}, and LangChain4j's {@code evictChatMemory}. */
class ConversationEndTest {

    interface Assistant extends ChatMemoryAccess {
        String chat(@MemoryId String conversation, @UserMessage String text);
    }

    @TempDir
    Path home;

    private MemoryHome memory;
    private OpenAiWireServer server;
    private MnemoLangChain4j mnemo;
    private Assistant assistant;

    @BeforeEach
    void setUp() {
        memory = MemoryHome.consolidated(home);
        server = OpenAiWireServer.start(request -> WireReply.text("answer to " + request.lastUserText()));
        mnemo = MnemoLangChain4j.create(memory.engine);
        assistant = mnemo.configure(AiServices.builder(Assistant.class).chatModel(OpenAiChatModel.builder()
                .baseUrl(server.baseUrl().toString()).apiKey("k").modelName("m").maxRetries(0).build())
                .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20))).build();
    }

    @AfterEach
    void tearDown() {
        server.close();
        memory.close();
    }

    @Test
    void endConversation_closesItsSessionNow_andTheNextCallContinuesTheSameRollout() {
        assistant.chat("tess", "first");
        MemorySession before = memory.engine.conversation("tess");

        assertThat(mnemo.endConversation("tess")).isTrue();

        assertThatThrownBy(() -> before.userMessage("late")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThat(mnemo.endConversation("tess")).as("nothing left open").isFalse();
        assistant.chat("tess", "second");
        assertThat(memory.messages("tess")).containsExactly("user: first", "assistant: answer to first",
                "user: second", "assistant: answer to second");
    }

    @Test
    void endConversation_makesTheNextPipelineRunExtractIt_withoutMovingTheClock() {
        assistant.chat("vic", "how do we roll back a release?");
        assistant.chat("wes", "how do we tag a release?");
        memory.engine.admin().runPhase1("pipeline-runner");
        assertThat(memory.engine.admin().memory("vic")).as("recorded just now: not idle").isEmpty();

        assertThat(mnemo.endConversation("vic")).isTrue();
        memory.engine.admin().runPhase1("pipeline-runner");

        assertThat(memory.engine.admin().memory("vic")).as("ended: extracted at once").isPresent();
        assertThat(memory.engine.admin().memory("wes")).as("not ended: waits for its idle window").isEmpty();
        assertThat(memory.engine.threads().get("vic").orElseThrow().finished()).isTrue();
    }

    @Test
    void evictChatMemory_endsTheMnemoConversationToo() {
        assistant.chat("uma", "first");
        MemorySession before = memory.engine.conversation("uma");

        assertThat(assistant.evictChatMemory("uma")).isTrue();

        assertThatThrownBy(() -> before.userMessage("late")).isInstanceOf(IllegalStateException.class);
        assertThat(mnemo.endConversation("uma")).isFalse();
        assertThat(memory.engine.threads().get("uma").orElseThrow().finished()).isTrue();
    }
}
