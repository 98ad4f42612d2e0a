package dev.mnemo.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.ChatMemory;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.store.memory.chat.ChatMemoryStore;
import dev.langchain4j.store.memory.chat.InMemoryChatMemoryStore;
import dev.mnemo.MemoryEngine;
import dev.mnemo.MemoryEngines;
import dev.mnemo.TenantHomes;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MnemoLangChain4j#chatMemoryStore}: LangChain4j's own {@link MessageWindowChatMemory} over
 * its {@link InMemoryChatMemoryStore}, wrapped, with the tenant of the signed-in user of the thread.
 */
class TenantScopedChatMemoryStoreTest {

    private static final ThreadLocal<String> SIGNED_IN = new ThreadLocal<>();

    @TempDir
    Path root;

    private MemoryEngines engines;
    private final InMemoryChatMemoryStore plain = new InMemoryChatMemoryStore();
    private final List<Object> idsTheStoreSaw = new CopyOnWriteArrayList<>();
    /** The application's store: LangChain4j's in-memory one, noting the ids it is handed. */
    private final ChatMemoryStore noting = new ChatMemoryStore() {
        @Override
        public List<ChatMessage> getMessages(Object memoryId) {
            idsTheStoreSaw.add(memoryId);
            return plain.getMessages(memoryId);
        }

        @Override
        public void updateMessages(Object memoryId, List<ChatMessage> messages) {
            idsTheStoreSaw.add(memoryId);
            plain.updateMessages(memoryId, messages);
        }

        @Override
        public void deleteMessages(Object memoryId) {
            idsTheStoreSaw.add(memoryId);
            plain.deleteMessages(memoryId);
        }
    };
    private ChatMemoryStore scoped;

    @BeforeEach
    void setUp() {
        engines = MemoryEngines.builder().engineFactory(TenantHomes.under(root, MemoryEngine::builder)).build();
        scoped = MnemoLangChain4j.create(engines, memoryId -> SIGNED_IN.get()).chatMemoryStore(noting);
    }

    @AfterEach
    void tearDown() {
        SIGNED_IN.remove();
        engines.close();
    }

    private ChatMemory chatMemory(String id) {
        return MessageWindowChatMemory.builder().id(id).maxMessages(20).chatMemoryStore(scoped).build();
    }

    @Test
    void twoTenantsWithTheSameMemoryId_neverSeeEachOthersMessages() {
        SIGNED_IN.set("alice");
        chatMemory("chat-1").add(UserMessage.from("my card ends in 4242"));
        chatMemory("chat-1").add(AiMessage.from("noted"));

        SIGNED_IN.set("bob");
        ChatMemory bobs = chatMemory("chat-1");
        assertThat(bobs.messages()).isEmpty();
        bobs.add(UserMessage.from("hello"));

        SIGNED_IN.set("alice");
        assertThat(chatMemory("chat-1").messages()).containsExactly(UserMessage.from("my card ends in 4242"),
                AiMessage.from("noted"));
        SIGNED_IN.set("bob");
        assertThat(chatMemory("chat-1").messages()).containsExactly(UserMessage.from("hello"));
    }

    @Test
    void plainStore_sharesOneHistoryBetweenTenantsWithTheSameMemoryId() {
        // What the docs warn of: LangChain4j keys history by the memory id alone.
        MessageWindowChatMemory.builder().id("chat-1").maxMessages(20).chatMemoryStore(plain).build()
                .add(UserMessage.from("alice's card ends in 4242"));

        assertThat(MessageWindowChatMemory.builder().id("chat-1").maxMessages(20).chatMemoryStore(plain).build()
                .messages()).containsExactly(UserMessage.from("alice's card ends in 4242"));
    }

    @Test
    void theWrappedStoreIsHandedTenantKeys_whoseTextReadsBackToTheSamePair() {
        SIGNED_IN.set("alice");
        chatMemory("chat-1").add(UserMessage.from("hi"));

        assertThat(idsTheStoreSaw).isNotEmpty()
                .allSatisfy(id -> assertThat(id).isEqualTo(new TenantScopedChatMemoryStore.Key("alice", "chat-1")));
        TenantScopedChatMemoryStore.Key key = (TenantScopedChatMemoryStore.Key) idsTheStoreSaw.get(0);
        assertThat(key.memoryId()).isEqualTo("chat-1");
        assertThat(key.toString()).isEqualTo("5:alice:chat-1");
        assertThat(TenantScopedChatMemoryStore.Key.parse(key.toString()))
                .isEqualTo(new TenantScopedChatMemoryStore.Key("alice", "chat-1"));
    }

    @Test
    void pairsThatWouldRunTogether_getDifferentKeys_andEachReadsBack() {
        TenantScopedChatMemoryStore.Key left = new TenantScopedChatMemoryStore.Key("a:b", "c");
        TenantScopedChatMemoryStore.Key right = new TenantScopedChatMemoryStore.Key("a", "b:c");

        assertThat(left.toString()).isNotEqualTo(right.toString());
        assertThat(TenantScopedChatMemoryStore.Key.parse(left.toString())).isEqualTo(left);
        assertThat(TenantScopedChatMemoryStore.Key.parse(right.toString())).isEqualTo(right);
        assertThat(TenantScopedChatMemoryStore.Key.parse(new TenantScopedChatMemoryStore.Key("", "x").toString()))
                .isEqualTo(new TenantScopedChatMemoryStore.Key("", "x"));
        assertThatThrownBy(() -> TenantScopedChatMemoryStore.Key.parse("alice:chat-1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("alice:chat-1");
        assertThatThrownBy(() -> TenantScopedChatMemoryStore.Key.parse("9:alice:chat-1"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void clearingOneTenantsHistory_leavesTheOtherTenantsWithTheSameId() {
        SIGNED_IN.set("alice");
        chatMemory("chat-1").add(UserMessage.from("alice's"));
        SIGNED_IN.set("bob");
        chatMemory("chat-1").add(UserMessage.from("bob's"));

        chatMemory("chat-1").clear();

        assertThat(chatMemory("chat-1").messages()).isEmpty();
        SIGNED_IN.set("alice");
        assertThat(chatMemory("chat-1").messages()).containsExactly(UserMessage.from("alice's"));
    }

    @Test
    void aReadOrWriteWithoutATenant_isRefused_andNeverFiledUnderTheBareId() {
        assertThatThrownBy(() -> chatMemory("chat-1").add(UserMessage.from("anonymous")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("no tenant for chat memory 'chat-1'");

        assertThat(idsTheStoreSaw).isEmpty();
        assertThat(plain.getMessages("chat-1")).isEmpty();
    }

    @Test
    void overOneSharedEngine_everyCallerIsTheEmptyTenant() {
        try (MemoryEngine engine = MemoryEngine.builder().home(root.resolve("shared")).build()) {
            ChatMemoryStore shared = MnemoLangChain4j.create(engine).chatMemoryStore(noting);
            MessageWindowChatMemory.builder().id("chat-1").maxMessages(20).chatMemoryStore(shared).build()
                    .add(UserMessage.from("hi"));
        }

        assertThat(idsTheStoreSaw).allSatisfy(id -> assertThat(id).isEqualTo(new TenantScopedChatMemoryStore.Key("",
                "chat-1")));
    }
}
