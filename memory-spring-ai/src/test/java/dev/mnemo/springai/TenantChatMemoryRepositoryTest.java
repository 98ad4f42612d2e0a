package dev.mnemo.springai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.InMemoryChatMemoryRepository;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.UserMessage;

/** {@link TenantChatMemoryRepository} under Spring AI's own window chat memory and in-memory repository. */
class TenantChatMemoryRepositoryTest {

    final AtomicReference<String> user = new AtomicReference<>();
    final InMemoryChatMemoryRepository store = new InMemoryChatMemoryRepository();
    final ChatMemory memory = MessageWindowChatMemory.builder()
            .chatMemoryRepository(TenantChatMemoryRepository.of(store, () -> Optional.ofNullable(user.get())))
            .build();

    List<String> texts(String as, String conversationId) {
        user.set(as);
        return memory.get(conversationId).stream().map(Message::getText).toList();
    }

    void add(String as, String conversationId, Message message) {
        user.set(as);
        memory.add(conversationId, message);
    }

    @Test
    void twoUsersWithTheSameConversationId_neverSeeEachOthersMessages() {
        add("alice", "chat-1", new UserMessage("my password hint is blue"));
        add("alice", "chat-1", new AssistantMessage("noted"));

        add("bob", "chat-1", new UserMessage("what did I say before?"));

        assertThat(texts("bob", "chat-1")).containsExactly("what did I say before?");
        assertThat(texts("alice", "chat-1")).containsExactly("my password hint is blue", "noted");
        assertThat(store.findConversationIds()).hasSize(2).noneMatch("chat-1"::equals);
    }

    @Test
    void findConversationIds_answersTheCallersOwnIds_only() {
        add("alice", "a-1", new UserMessage("one"));
        add("alice", "shared", new UserMessage("two"));
        add("bob", "shared", new UserMessage("three"));

        user.set("alice");
        assertThat(TenantChatMemoryRepository.of(store, () -> Optional.of("alice")).findConversationIds())
                .containsExactlyInAnyOrder("a-1", "shared");
        assertThat(TenantChatMemoryRepository.of(store, () -> Optional.of("bob")).findConversationIds())
                .containsExactly("shared");
    }

    @Test
    void idsThatLookAlikeAfterJoining_stayApart() {
        // Joined naively with ':', ("a:b", "c") and ("a", "b:c") would both be "a:b:c".
        add("a:b", "c", new UserMessage("first"));
        add("a", "b:c", new UserMessage("second"));

        assertThat(texts("a:b", "c")).containsExactly("first");
        assertThat(texts("a", "b:c")).containsExactly("second");
        assertThat(TenantChatMemoryRepository.of(store, () -> Optional.of("a")).findConversationIds())
                .containsExactly("b:c");
    }

    @Test
    void clearingAConversation_clearsTheCallersOnly() {
        add("alice", "chat-1", new UserMessage("alice's"));
        add("bob", "chat-1", new UserMessage("bob's"));

        user.set("bob");
        memory.clear("chat-1");

        assertThat(texts("bob", "chat-1")).isEmpty();
        assertThat(texts("alice", "chat-1")).containsExactly("alice's");
    }

    @Test
    void withoutAUser_theMemoryRefuses_ratherThanShareAnUnqualifiedKey() {
        user.set(null);

        assertThatThrownBy(() -> memory.get("chat-1")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("without a user");
        user.set(" ");
        assertThatThrownBy(() -> memory.add("chat-1", new UserMessage("x"))).isInstanceOf(IllegalStateException.class);
        assertThat(store.findConversationIds()).isEmpty();
    }

    @Test
    void aResolverFindingTheUserInThreadBoundContext_scopesTheRepository_andAnAdvisorParamResolverFindsNobody() {
        ThreadLocal<String> signedIn = ThreadLocal.withInitial(() -> null);
        TenantChatMemoryRepository byResolver = TenantChatMemoryRepository.of(store,
                (MnemoTenantResolver) request -> Optional.ofNullable(signedIn.get()));
        signedIn.set("carol");
        byResolver.saveAll("c", List.of(new UserMessage("carol's")));

        assertThat(TenantChatMemoryRepository.of(store, () -> Optional.of("carol")).findByConversationId("c"))
                .extracting(Message::getText).containsExactly("carol's");
        assertThatThrownBy(() -> TenantChatMemoryRepository.of(store, MnemoTenantResolver.advisorParam())
                .findByConversationId("c")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void wrappingAWrapper_isRefused() {
        TenantChatMemoryRepository once = TenantChatMemoryRepository.of(store, () -> Optional.of("a"));

        assertThatThrownBy(() -> TenantChatMemoryRepository.of(once, () -> Optional.of("a")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
