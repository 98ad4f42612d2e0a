package dev.mnemo.springai;

import dev.mnemo.TenantScopedId;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * A Spring AI {@link ChatMemoryRepository} that keeps each user's short-term chat history apart,
 * for applications with one memory per user. Spring AI's {@code MessageChatMemoryAdvisor} and
 * {@code MessageWindowChatMemory} key history by the conversation id alone: without this wrapper,
 * a user who sends another user's conversation id is handed that user's earlier messages, and both
 * users' turns are appended to one history.
 *
 * <p>This wrapper stores a conversation {@code chat-1} of user {@code alice} under the key
 * {@code mnemo-tenant:5:alice:chat-1} in the wrapped repository (the user id's length first, so no
 * pair of user and conversation ids shares a key with another pair). {@link #findConversationIds()}
 * answers only the calling user's conversations, under the ids the application used.
 *
 * <pre>{@code
 * ChatMemory chatMemory = MessageWindowChatMemory.builder()
 *         .chatMemoryRepository(TenantChatMemoryRepository.of(new InMemoryChatMemoryRepository(), currentUser::id))
 *         .build();
 * }</pre>
 *
 * <p><b>Whose history.</b> The repository is called without the chat request, so the user comes
 * from what the calling thread knows: the supplier given (or the {@link MnemoTenantResolver},
 * asked with a request that carries no advisor params, so an advisor-param resolver finds nobody).
 * Spring AI calls the repository on the thread that calls the {@code ChatClient} for {@code call};
 * for {@code stream}, {@code MessageChatMemoryAdvisor} calls it on Reactor's threads, where
 * thread-bound context such as Spring Security's {@code SecurityContextHolder} is not visible unless
 * the application propagates it. A call without a user fails with {@link IllegalStateException}: the
 * wrapper never falls back to an unqualified, shared key.
 */
public final class TenantChatMemoryRepository implements ChatMemoryRepository {

    private static final String PREFIX = "mnemo-tenant:";

    private final ChatMemoryRepository delegate;
    private final Supplier<Optional<String>> currentTenant;

    private TenantChatMemoryRepository(ChatMemoryRepository delegate, Supplier<Optional<String>> currentTenant) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.currentTenant = Objects.requireNonNull(currentTenant, "currentTenant");
    }

    /**
     * {@code delegate} scoped by the user {@code currentTenant} names on the calling thread (empty or
     * blank: no user, and the call fails). Wrapping a wrapper is refused: ids would be qualified twice.
     *
     * @param delegate the repository to store into; not itself a {@code TenantChatMemoryRepository}
     * @param currentTenant names the calling thread's user; not null
     * @return the scoped repository
     * @throws IllegalArgumentException when {@code delegate} is already scoped by user
     */
    public static TenantChatMemoryRepository of(ChatMemoryRepository delegate, Supplier<Optional<String>> currentTenant) {
        if (delegate instanceof TenantChatMemoryRepository) {
            throw new IllegalArgumentException("the chat memory repository is already scoped by user");
        }
        return new TenantChatMemoryRepository(delegate, currentTenant);
    }

    /**
     * {@code delegate} scoped by the user {@code resolver} finds on the calling thread. The resolver
     * is asked with an empty request (no prompt text, no advisor params): it must find the user in
     * thread-bound context, as the Spring Security resolver does.
     *
     * @param delegate the repository to store into; not itself a {@code TenantChatMemoryRepository}
     * @param resolver finds the calling thread's user from thread-bound context; not null
     * @return the scoped repository
     * @throws IllegalArgumentException when {@code delegate} is already scoped by user
     */
    public static TenantChatMemoryRepository of(ChatMemoryRepository delegate, MnemoTenantResolver resolver) {
        Objects.requireNonNull(resolver, "resolver");
        return of(delegate, () -> resolver.tenantId(NO_REQUEST.get()));
    }

    private static final Supplier<ChatClientRequest> NO_REQUEST =
            () -> ChatClientRequest.builder().prompt(new Prompt(List.of())).build();

    /**
     * The repository this one stores into, under qualified keys.
     *
     * @return the wrapped repository
     */
    public ChatMemoryRepository delegate() {
        return delegate;
    }

    /** The calling user's conversation ids, as the application named them; another user's never. */
    @Override
    public List<String> findConversationIds() {
        String prefix = prefix(tenant());
        return delegate.findConversationIds().stream().filter(id -> id.startsWith(prefix))
                .map(id -> id.substring(prefix.length())).toList();
    }

    @Override
    public List<Message> findByConversationId(String conversationId) {
        return delegate.findByConversationId(qualified(conversationId));
    }

    @Override
    public void saveAll(String conversationId, List<Message> messages) {
        delegate.saveAll(qualified(conversationId), messages);
    }

    @Override
    public void deleteByConversationId(String conversationId) {
        delegate.deleteByConversationId(qualified(conversationId));
    }

    /** The key {@code conversationId} of the calling user has in the wrapped repository. */
    String qualified(String conversationId) {
        Objects.requireNonNull(conversationId, "conversationId");
        return prefix(tenant()) + conversationId;
    }

    private static String prefix(String tenant) {
        return PREFIX + TenantScopedId.prefix(tenant);
    }

    private String tenant() {
        return Objects.requireNonNull(currentTenant.get(), "the current tenant supplier returned null")
                .filter(id -> !id.isBlank())
                .orElseThrow(() -> new IllegalStateException("chat memory used without a user: with one memory per "
                        + "user, conversation history is kept per user, and this thread names none (a stream's "
                        + "Reactor thread does not see thread-bound context such as Spring Security's)"));
    }

    @Override
    public String toString() {
        return "TenantChatMemoryRepository[" + delegate + "]";
    }
}
